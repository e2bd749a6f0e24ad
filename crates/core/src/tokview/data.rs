//! Tokenizer data that is not embedded: where it is, and what it says.
//!
//! The Tekken view reads `tekken_240911.json` from the mistral-common
//! package (PyPI), never from the network. The directory is, in order: the
//! `--tokenizer-data DIR` flag, the `FRAMECHECK_TOKENIZER_DATA` variable, or
//! the `data/` directory of the `mistral_common` package `python3` finds
//! (located with `importlib.util.find_spec`, which imports nothing). The
//! package version is read from the `mistral_common-*.dist-info` beside the
//! package, and the file's SHA-256 is recorded either way.
//!
//! The file holds the vocabulary (base64 bytes by rank), the pre-split
//! pattern and the sizes; files without a `special_tokens` section (version
//! v3, as this one) get mistral-common's built-in list of control tokens,
//! [`TEKKEN_V3_SPECIALS`], padded with `<SPECIAL_n>` fillers the way
//! mistral-common pads them.

// Without the `tokenizers` feature nothing loads Tekken; `locate` stays.
#![cfg_attr(not(feature = "tokenizers"), allow(dead_code))]

use std::path::{Path, PathBuf};
use std::process::Command;

use base64::Engine;
use serde::Deserialize;
use sha2::{Digest, Sha256};

use super::{DataSource, ViewError, ViewName};

/// The Tekken file the view reads.
pub(super) const TEKKEN_FILE: &str = "tekken_240911.json";

/// The variable naming the tokenizer data directory.
pub(super) const DATA_ENV: &str = "FRAMECHECK_TOKENIZER_DATA";

/// mistral-common's control tokens for Tekken files that do not list their
/// own (`Tekkenizer.DEPRECATED_SPECIAL_TOKENS`), by id.
pub(super) const TEKKEN_V3_SPECIALS: [&str; 20] = [
    "<unk>",
    "<s>",
    "</s>",
    "[INST]",
    "[/INST]",
    "[AVAILABLE_TOOLS]",
    "[/AVAILABLE_TOOLS]",
    "[TOOL_RESULTS]",
    "[/TOOL_RESULTS]",
    "[TOOL_CALLS]",
    "[IMG]",
    "<pad>",
    "[IMG_BREAK]",
    "[IMG_END]",
    "[PREFIX]",
    "[MIDDLE]",
    "[SUFFIX]",
    "[SYSTEM_PROMPT]",
    "[/SYSTEM_PROMPT]",
    "[TOOL_CONTENT]",
];

/// A Tekken tokenizer, as the file and mistral-common define it.
pub(super) struct TekkenData {
    /// The pre-split pattern.
    pub pattern: String,
    /// The ordinary tokens' bytes, by rank, cut to the default vocabulary.
    pub ranks: Vec<Vec<u8>>,
    /// How many ids the control tokens take (ordinary ids start here).
    pub num_special: usize,
    /// The control tokens: id and text.
    pub specials: Vec<(u32, String)>,
}

#[derive(Deserialize)]
struct TekkenFile {
    config: TekkenConfig,
    vocab: Vec<TekkenToken>,
    #[serde(default)]
    special_tokens: Option<Vec<TekkenSpecial>>,
}

#[derive(Deserialize)]
struct TekkenConfig {
    pattern: String,
    default_vocab_size: usize,
    default_num_special_tokens: usize,
}

#[derive(Deserialize)]
struct TekkenToken {
    token_bytes: String,
}

#[derive(Deserialize)]
struct TekkenSpecial {
    rank: u32,
    token_str: String,
}

/// Loads the Tekken file and says where it came from.
pub(super) fn tekken(data_dir: Option<&Path>) -> Result<(TekkenData, DataSource), ViewError> {
    let dir = locate(data_dir, ViewName::MistralTekken, TEKKEN_FILE)?;
    let path = dir.join(TEKKEN_FILE);
    let bad = |reason: String| ViewError::Data {
        path: path.clone(),
        reason,
    };
    let bytes = std::fs::read(&path).map_err(|e| bad(e.to_string()))?;
    let sha256 = format!("{:x}", Sha256::digest(&bytes));
    let file: TekkenFile = serde_json::from_slice(&bytes).map_err(|e| bad(e.to_string()))?;
    drop(bytes);
    let data = tekken_data(file).map_err(bad)?;
    let source = DataSource {
        package: "mistral-common".into(),
        version: package_version(&dir).unwrap_or_else(|| "unknown".into()),
        file: TEKKEN_FILE.into(),
        sha256: Some(sha256),
    };
    Ok((data, source))
}

fn tekken_data(file: TekkenFile) -> Result<TekkenData, String> {
    let num_special = file.config.default_num_special_tokens;
    let inner = file
        .config
        .default_vocab_size
        .checked_sub(num_special)
        .filter(|&n| n <= file.vocab.len())
        .ok_or("the vocabulary is smaller than the configured size")?;
    let engine = base64::engine::general_purpose::STANDARD;
    let ranks = file.vocab[..inner]
        .iter()
        .enumerate()
        .map(|(rank, t)| {
            engine
                .decode(&t.token_bytes)
                .map_err(|e| format!("vocab rank {rank}: {e}"))
        })
        .collect::<Result<Vec<_>, _>>()?;
    let mut specials: Vec<(u32, String)> = match file.special_tokens {
        Some(list) => list.into_iter().map(|s| (s.rank, s.token_str)).collect(),
        None => (0..)
            .zip(TEKKEN_V3_SPECIALS)
            .map(|(id, s)| (id, s.to_string()))
            .collect(),
    };
    let named = specials.len() as u32;
    specials.extend((named..num_special as u32).map(|id| (id, format!("<SPECIAL_{id}>"))));
    Ok(TekkenData {
        pattern: file.config.pattern,
        ranks,
        num_special,
        specials,
    })
}

/// The directory holding `file`: `data_dir`, else `$FRAMECHECK_TOKENIZER_DATA`,
/// else the installed mistral-common package's `data/`.
pub(super) fn locate(
    data_dir: Option<&Path>,
    view: ViewName,
    file: &'static str,
) -> Result<PathBuf, ViewError> {
    let from_env = std::env::var_os(DATA_ENV).map(PathBuf::from);
    let (dir, how) = match (data_dir, from_env) {
        (Some(dir), _) => (dir.to_path_buf(), "--tokenizer-data"),
        (None, Some(dir)) => (dir, DATA_ENV),
        (None, None) => match installed_package_data() {
            Some(dir) => (dir, "the installed mistral_common package"),
            None => {
                return Err(ViewError::Missing {
                    view,
                    file,
                    detail: "python3 finds no mistral_common package".into(),
                })
            }
        },
    };
    if dir.join(file).is_file() {
        Ok(dir)
    } else {
        Err(ViewError::Missing {
            view,
            file,
            detail: format!("{} (from {how}) has no {file}", dir.display()),
        })
    }
}

/// The `data/` directory of the `mistral_common` package `python3` finds,
/// without importing it (its dependencies need not be installed).
fn installed_package_data() -> Option<PathBuf> {
    let script = "import importlib.util as u; s = u.find_spec('mistral_common'); \
                  print(s.submodule_search_locations[0] if s else '')";
    let out = Command::new("python3").args(["-c", script]).output().ok()?;
    let dir = String::from_utf8(out.stdout).ok()?;
    let dir = dir.trim();
    (out.status.success() && !dir.is_empty()).then(|| Path::new(dir).join("data"))
}

/// The version in `mistral_common-<version>.dist-info` beside the package
/// that holds `data_dir`, if there is one.
fn package_version(data_dir: &Path) -> Option<String> {
    let site = data_dir
        .canonicalize()
        .ok()?
        .parent()?
        .parent()?
        .to_path_buf();
    std::fs::read_dir(site).ok()?.find_map(|entry| {
        let name = entry.ok()?.file_name().into_string().ok()?;
        let version = name
            .strip_prefix("mistral_common-")?
            .strip_suffix(".dist-info")?;
        Some(version.to_string())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_directory_without_the_file_names_what_to_install() {
        let dir = std::env::temp_dir();
        let err = locate(Some(&dir), ViewName::MistralTekken, TEKKEN_FILE).unwrap_err();
        let message = err.to_string();
        assert!(message.contains("pip install mistral-common"), "{message}");
        assert!(message.contains(TEKKEN_FILE), "{message}");
    }

    #[test]
    fn fillers_follow_the_named_control_tokens() {
        let file: TekkenFile = serde_json::from_str(
            r#"{"config": {"pattern": "\\S+", "default_vocab_size": 24,
                "default_num_special_tokens": 22},
                "vocab": [{"token_bytes": "YQ=="}, {"token_bytes": "Yg=="}, {"token_bytes": "Yw=="}]}"#,
        )
        .unwrap();
        let data = tekken_data(file).unwrap();
        assert_eq!(data.ranks, vec![b"a".to_vec(), b"b".to_vec()]);
        assert_eq!(data.specials[4], (4, "[/INST]".to_string()));
        assert_eq!(data.specials[21], (21, "<SPECIAL_21>".to_string()));
        assert_eq!(data.specials.len(), 22);
    }
}
