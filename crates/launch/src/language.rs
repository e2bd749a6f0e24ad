//! The language a target is written in, told from its adapter when its
//! profile does not say (issue 34: a profile `framecheck init` proposed
//! left the report's "Target language" empty).
//!
//! Each target kind says which it is ([`crate::profile::TargetKind`]); this
//! module tells a language from a command. The guess reads only what the
//! profile already names: a built-in target
//! is framecheck's own Rust code, in process; a subprocess's interpreter
//! (`python3`, `node`, past an `env`) or, for a program run directly, its
//! file extension. Anything else stays unknown rather than guessed: a
//! wrong language in a report is worse than none.

use std::path::Path;

/// A language framecheck can tell from an adapter's command.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Language {
    /// A built-in target: framecheck's own code, in process.
    RustInProcess,
    /// A Rust program speaking the protocol (`framecheck serve-reference`).
    Rust,
    /// CPython or PyPy.
    Python,
    /// JavaScript on Node.js.
    JavaScriptNode,
    /// JavaScript or TypeScript on Deno.
    Deno,
    /// JavaScript or TypeScript on Bun.
    Bun,
    /// TypeScript run by a Node loader (`tsx`, `ts-node`).
    TypeScriptNode,
    /// `go run`.
    Go,
    /// Ruby.
    Ruby,
    /// PHP.
    Php,
    /// A POSIX shell script.
    Shell,
}

impl Language {
    /// The name a report shows.
    pub fn name(self) -> &'static str {
        match self {
            Language::RustInProcess => "Rust, in-process",
            Language::Rust => "Rust",
            Language::Python => "Python",
            Language::JavaScriptNode => "JavaScript (Node)",
            Language::Deno => "JavaScript or TypeScript (Deno)",
            Language::Bun => "JavaScript or TypeScript (Bun)",
            Language::TypeScriptNode => "TypeScript (Node)",
            Language::Go => "Go",
            Language::Ruby => "Ruby",
            Language::Php => "PHP",
            Language::Shell => "shell",
        }
    }
}

/// The program a command runs, past `env` and its options and assignments.
pub(crate) fn of_command(command: &[String]) -> Option<Language> {
    let mut words = command.iter().map(String::as_str);
    let mut program = words.next()?;
    while file_name(program) == "env" {
        program = words.find(|w| !w.starts_with('-') && !w.contains('='))?;
    }
    of_program(file_name(program)).or_else(|| of_extension(program))
}

fn file_name(program: &str) -> &str {
    Path::new(program)
        .file_name()
        .and_then(|n| n.to_str())
        .unwrap_or(program)
}

/// An interpreter's name, with a version suffix allowed (`python3.12`).
fn of_program(name: &str) -> Option<Language> {
    let base = name.trim_end_matches(|c: char| c.is_ascii_digit() || c == '.');
    Some(match base {
        "python" | "pypy" => Language::Python,
        "node" | "nodejs" => Language::JavaScriptNode,
        "deno" => Language::Deno,
        "bun" => Language::Bun,
        "tsx" | "ts-node" => Language::TypeScriptNode,
        "go" => Language::Go,
        "ruby" => Language::Ruby,
        "php" => Language::Php,
        "sh" | "bash" | "dash" => Language::Shell,
        "framecheck" => Language::Rust,
        _ => return None,
    })
}

/// A script run directly, by its extension.
fn of_extension(program: &str) -> Option<Language> {
    let extension = Path::new(program).extension()?.to_str()?;
    Some(match extension {
        "py" => Language::Python,
        "js" | "mjs" | "cjs" => Language::JavaScriptNode,
        "rb" => Language::Ruby,
        "php" => Language::Php,
        "sh" => Language::Shell,
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::profile::{with_language, AdapterSpec, SubprocessSpec, TargetProfile};

    fn subprocess(command: &[&str]) -> AdapterSpec {
        AdapterSpec::Subprocess(SubprocessSpec {
            command: command.iter().map(|w| w.to_string()).collect(),
            cwd: None,
            env: Default::default(),
            timeout_ms: 1000,
            startup_ms: None,
            mode: Default::default(),
            max_reply_bytes: 1024,
        })
    }

    #[test]
    fn interpreters_extensions_and_builtins_are_told() {
        let cases: &[(&[&str], Option<Language>)] = &[
            (&["python3", "my_adapter.py"], Some(Language::Python)),
            (
                &["/usr/bin/python3.12", "-u", "a.py"],
                Some(Language::Python),
            ),
            (&["node", "adapter.mjs"], Some(Language::JavaScriptNode)),
            (
                &["/usr/bin/env", "-S", "node", "a.mjs"],
                Some(Language::JavaScriptNode),
            ),
            (
                &["env", "PYTHONPATH=x", "python3", "a.py"],
                Some(Language::Python),
            ),
            (&["./adapter.py"], Some(Language::Python)),
            (&["go", "run", "."], Some(Language::Go)),
            (&["framecheck", "serve-reference"], Some(Language::Rust)),
            (&["./target/release/my-adapter"], None),
            (&["java", "-jar", "a.jar"], None),
            (&["env"], None),
        ];
        for (command, expected) in cases {
            let words: Vec<String> = command.iter().map(|w| w.to_string()).collect();
            assert_eq!(of_command(&words), *expected, "{command:?}");
        }
        let builtin = |name: &str| {
            AdapterSpec::Builtin(crate::profile::BuiltinSpec {
                builtin: name.to_string(),
            })
        };
        assert_eq!(
            Language::of_adapter(&builtin("reference")),
            Some(Language::RustInProcess)
        );
        assert_eq!(Language::of_adapter(&builtin("caller")), None);
    }

    #[test]
    fn a_stated_language_is_kept_and_an_empty_one_filled() {
        let reference = include_str!("../../../targets/reference.yaml");
        let profile = TargetProfile::parse(reference)
            .unwrap()
            .with_adapter(subprocess(&["python3", "a.py"]))
            .unwrap()
            .edit(|p| p.language = "cython".into())
            .unwrap();
        assert_eq!(with_language(&profile).language, "cython");
        let profile = profile.edit(|p| p.language = String::new()).unwrap();
        assert_eq!(with_language(&profile).language, "Python");
        let profile = profile.with_adapter(subprocess(&["./a.out"])).unwrap();
        assert_eq!(with_language(&profile).language, "");
    }
}
