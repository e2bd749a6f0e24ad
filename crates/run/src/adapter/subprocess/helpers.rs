//! The adapter helper libraries, built into framecheck.
//!
//! `adapters/python/framecheck_adapter.py` and
//! `adapters/node/framecheck-adapter.mjs` implement the target side of the
//! protocol, so an adapter is only a `wrap` (and a `read`). They are
//! compiled into the binary so an installed `framecheck` (`cargo install
//! --path .`) can hand them out anywhere: `framecheck helpers --write DIR`
//! copies them next to an adapter, where Python's and Node's own import
//! rules find them whatever the working directory.
//!
//! ```
//! use framecheck_run::adapter::subprocess::helpers::{self, Language};
//!
//! let python = helpers::helper(Language::Python);
//! assert_eq!(python.file_name, "framecheck_adapter.py");
//! assert!(python.source.contains("def serve("));
//! ```

use std::io;
use std::path::{Path, PathBuf};

/// A helper's language.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Language {
    /// `framecheck_adapter.py`: `from framecheck_adapter import serve, Refusal`.
    Python,
    /// `framecheck-adapter.mjs`: `import { serve, Refusal } from './framecheck-adapter.mjs'`.
    Node,
}

impl Language {
    /// Every language with a helper.
    pub const ALL: [Language; 2] = [Language::Python, Language::Node];

    /// The stable name, as accepted on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Language::Python => "python",
            Language::Node => "node",
        }
    }

    /// The helper's file and how a framing imports it, one line.
    pub fn description(self) -> &'static str {
        match self {
            Language::Python => {
                "`framecheck_adapter.py`: `from framecheck_adapter import serve, Refusal`"
            }
            Language::Node => {
                "`framecheck-adapter.mjs`: `import { serve, Refusal } from './framecheck-adapter.mjs'`"
            }
        }
    }
}

/// One helper library.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Helper {
    /// Its language.
    pub language: Language,
    /// The file name it must keep (the import names it).
    pub file_name: &'static str,
    /// How an adapter next to it imports it.
    pub import: &'static str,
    /// The source, as in the repository.
    pub source: &'static str,
}

/// The helper for `language`.
pub fn helper(language: Language) -> Helper {
    match language {
        Language::Python => Helper {
            language,
            file_name: "framecheck_adapter.py",
            import: "from framecheck_adapter import serve, Refusal",
            source: include_str!("../../../../../adapters/python/framecheck_adapter.py"),
        },
        Language::Node => Helper {
            language,
            file_name: "framecheck-adapter.mjs",
            import: "import { serve, Refusal } from './framecheck-adapter.mjs'",
            source: include_str!("../../../../../adapters/node/framecheck-adapter.mjs"),
        },
    }
}

/// Writes every helper into `dir` (created if needed) and returns the
/// paths written. An existing helper file is replaced.
pub fn write_all(dir: &Path) -> io::Result<Vec<PathBuf>> {
    std::fs::create_dir_all(dir)?;
    Language::ALL
        .iter()
        .map(|&language| {
            let helper = helper(language);
            let path = dir.join(helper.file_name);
            framecheck_core::files::write_atomically(&path, helper.source.as_bytes())?;
            Ok(path)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_built_in_helpers_are_the_repository_files() {
        let root = Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."));
        for (language, path) in [
            (Language::Python, "adapters/python/framecheck_adapter.py"),
            (Language::Node, "adapters/node/framecheck-adapter.mjs"),
        ] {
            let on_disk = std::fs::read_to_string(root.join(path)).unwrap();
            let helper = helper(language);
            assert_eq!(helper.source, on_disk);
            assert!(path.ends_with(helper.file_name));
        }
    }
}
