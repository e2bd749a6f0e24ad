//! The architecture's rules, checked on the source: the crates' dependency
//! direction (which the compiler enforces once the manifests are right, so
//! the manifests are what is checked), clap and friends only in the CLI,
//! and the order of the modules inside `framecheck-core`, where one crate
//! cannot stop a module from importing one above it.

use std::collections::BTreeSet;

/// framecheck-core's modules in the one direction data flows in: each may
/// use only modules before it (README, "How it works").
const CORE_ORDER: &[&str] = &[
    "level",
    "reader",
    "records",
    "chat_template",
    "yaml",
    "files",
    "target",
    "grammar",
    "profile",
    "encoding",
    "manifest",
    "catalogue",
    "layout",
    "tokview",
    "oracle",
    "gate",
    "outcome",
    "nonce",
];

/// The `crate::<module>` names `code` uses, including those inside
/// `crate::{a, b::{c, d}}` groups spread over several lines. Comment lines
/// are skipped.
fn crate_modules(code: &str) -> BTreeSet<String> {
    let code: String = code
        .lines()
        .filter(|l| !l.trim_start().starts_with("//"))
        .collect::<Vec<_>>()
        .join("\n");
    let mut found = BTreeSet::new();
    let mut rest = code.as_str();
    while let Some(at) = rest.find("crate::") {
        rest = &rest[at + "crate::".len()..];
        match rest.strip_prefix('{') {
            Some(group) => top_level_names(group, &mut found),
            None => insert_name(rest, &mut found),
        }
    }
    found
}

/// The first path segment of each top-level item of a `{...}` group
/// (`group` starts after its `{`).
fn top_level_names(group: &str, found: &mut BTreeSet<String>) {
    let mut depth = 0;
    let mut start = 0;
    for (i, c) in group.char_indices() {
        match c {
            '{' => depth += 1,
            '}' if depth == 0 => {
                insert_name(&group[start..i], found);
                return;
            }
            '}' => depth -= 1,
            ',' if depth == 0 => {
                insert_name(&group[start..i], found);
                start = i + 1;
            }
            _ => {}
        }
    }
}

fn insert_name(path: &str, found: &mut BTreeSet<String>) {
    let name: String = path
        .trim()
        .chars()
        .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
        .collect();
    if !name.is_empty() {
        found.insert(name);
    }
}

/// Every import in `framecheck-core` against [`CORE_ORDER`], as
/// `file: module -> used`.
fn core_violations() -> Vec<String> {
    let src = crate::common::repo().join("crates/core/src");
    let files = crate::common::rust_files(&src);
    let rank = |m: &str| CORE_ORDER.iter().position(|n| *n == m);
    let mut violations = Vec::new();
    for file in files {
        let rel = file.strip_prefix(&src).unwrap();
        let first = rel
            .components()
            .next()
            .unwrap()
            .as_os_str()
            .to_string_lossy();
        let module = first.trim_end_matches(".rs").to_string();
        if module == "lib" {
            continue;
        }
        let own = rank(&module).unwrap_or_else(|| panic!("{module} is not in CORE_ORDER"));
        let text = std::fs::read_to_string(&file).unwrap();
        for used in crate_modules(&text) {
            match rank(&used) {
                Some(r) if r <= own => {}
                _ => violations.push(format!("{}: {module} -> {used}", rel.display())),
            }
        }
    }
    violations
}

#[test]
fn the_core_modules_import_only_down_the_flow() {
    assert_eq!(core_violations(), Vec::<String>::new());
}

#[test]
fn the_import_reader_sees_grouped_and_nested_imports() {
    let found = crate_modules("use crate::{oracle::{self, Check}, level::ReaderLevel};");
    assert!(
        found.contains("oracle") && found.contains("level"),
        "{found:?}"
    );
    assert_eq!(
        crate_modules("let x = crate::report::write(&y);"),
        BTreeSet::from(["report".to_string()])
    );
    assert!(crate_modules("//! see crate::report").is_empty());
    let multi_line = "use crate::{\n    gate::Gate,\n    oracle::{self, Finding},\n};";
    assert_eq!(
        crate_modules(multi_line),
        BTreeSet::from(["gate".to_string(), "oracle".to_string()])
    );
}

/// The crate names a manifest's library is built with (`[dependencies]` and
/// `[build-dependencies]`). Dev-dependencies are left out: the crates' doc
/// examples are written through the `framecheck` crate, as a user writes
/// them, and never reach the library.
fn dependencies(manifest: &str) -> BTreeSet<String> {
    let text = std::fs::read_to_string(crate::common::repo().join(manifest)).unwrap();
    let mut names = BTreeSet::new();
    let mut in_deps = false;
    for line in text.lines() {
        let line = line.trim();
        if line.starts_with('[') {
            in_deps = line == "[dependencies]" || line == "[build-dependencies]";
            continue;
        }
        if in_deps {
            if let Some((name, _)) = line.split_once('=') {
                let name = name.trim().trim_end_matches(".workspace").to_string();
                if !name.is_empty() && !name.starts_with('#') {
                    names.insert(name);
                }
            }
        }
    }
    names
}

#[test]
fn the_crates_depend_only_down_the_flow() {
    let core = dependencies("crates/core/Cargo.toml");
    let envelope = dependencies("crates/envelope/Cargo.toml");
    let run = dependencies("crates/run/Cargo.toml");
    let report = dependencies("crates/report/Cargo.toml");
    for ours in [
        "framecheck",
        "framecheck-envelope",
        "framecheck-report",
        "framecheck-run",
    ] {
        assert!(!core.contains(ours), "framecheck-core depends on {ours}");
    }
    // The reports are written from a finished run: they name no adapter,
    // runner or envelope, and nothing but the command line writes them.
    for ours in ["framecheck", "framecheck-envelope", "framecheck-run"] {
        assert!(
            !report.contains(ours),
            "framecheck-report depends on {ours}"
        );
    }
    for (name, deps) in [("framecheck-envelope", &envelope), ("framecheck-run", &run)] {
        assert!(
            !deps.contains("framecheck-report"),
            "{name} depends on framecheck-report"
        );
    }
    assert!(report.contains("framecheck-core"));
    // The report crate took these out of the core; they stay out.
    for moved in ["libc", "quick-junit"] {
        assert!(!core.contains(moved), "framecheck-core depends on {moved}");
    }
    for ours in ["framecheck", "framecheck-run"] {
        assert!(
            !envelope.contains(ours),
            "framecheck-envelope depends on {ours}"
        );
    }
    assert!(
        !run.contains("framecheck"),
        "framecheck-run depends on framecheck"
    );
    assert!(run.contains("framecheck-core") && envelope.contains("framecheck-core"));
}

#[test]
fn the_command_line_crates_are_the_cli_s_alone() {
    for manifest in [
        "crates/core/Cargo.toml",
        "crates/envelope/Cargo.toml",
        "crates/report/Cargo.toml",
        "crates/run/Cargo.toml",
    ] {
        let deps = dependencies(manifest);
        for cli in ["clap", "indicatif", "ctrlc"] {
            assert!(!deps.contains(cli), "{manifest} depends on {cli}");
        }
    }
    assert!(dependencies("Cargo.toml").contains("clap"));
}

/// The MCP client (an async SDK and its runtime, its HTTP client and the
/// test server's HTTP stack) and the fixture's HTTP server belong to the
/// MCP adapter in framecheck-run; the model, the envelope and the CLI stay
/// synchronous and free of them.
#[test]
fn the_mcp_stack_is_the_run_crate_s_alone() {
    for manifest in [
        "crates/core/Cargo.toml",
        "crates/envelope/Cargo.toml",
        "crates/report/Cargo.toml",
        "Cargo.toml",
    ] {
        let deps = dependencies(manifest);
        for crate_name in [
            "rmcp",
            "tokio",
            "tiny_http",
            "reqwest",
            "hyper",
            "hyper-util",
        ] {
            assert!(
                !deps.contains(crate_name),
                "{manifest} depends on {crate_name}"
            );
        }
    }
    let run = dependencies("crates/run/Cargo.toml");
    assert!(run.contains("rmcp") && run.contains("tokio") && run.contains("tiny_http"));
}
