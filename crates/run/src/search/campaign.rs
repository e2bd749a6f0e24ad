//! The search corpus on disk, for campaigns longer than one run: a nightly
//! job that keeps its corpus between runs, or several machines whose
//! corpora are merged.
//!
//! A corpus is a directory of JSON files, one per entry ([`CorpusEntry`]):
//! the catalogue case the entry grew from (by id), its mutated request and
//! its lineage (operators and tricks, by name). Each file is named by the
//! SHA-256 of its own bytes, so the same entry has the same name on every
//! machine: merging two corpora is copying one directory into the other
//! (the way libFuzzer corpus directories merge), and saving never
//! overwrites or deletes a file.
//!
//! A search started from a corpus judges every entry whose case is among
//! its seeds once, before its first mutant, and keeps it when its output
//! shows something new on this target (the rule of every corpus entry);
//! entries from another catalogue or target are skipped, not errors.

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use super::corpus::Entry;
use super::{Operator, Trick};
use crate::adapter::WrapRequest;
use framecheck_core::catalogue::ConcreteCase;

/// The format tag every corpus file carries.
const FORMAT: &str = "framecheck-search-corpus/1";

/// One corpus entry as a file holds it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CorpusEntry {
    /// Always `framecheck-search-corpus/1`.
    pub format: String,
    /// Id of the catalogue case the entry grew from.
    pub seed_case: String,
    /// Operators applied since that case, by name, in order.
    pub operators: Vec<String>,
    /// Tricks stacked since that case, by name, in order.
    pub tricks: Vec<String>,
    /// The mutated request.
    pub request: WrapRequest,
}

/// Why a corpus could not be read or written.
#[derive(Debug, thiserror::Error)]
pub enum CorpusError {
    /// The directory or a file could not be read or written.
    #[error("corpus {path}: {source}")]
    Io {
        /// The file or directory.
        path: PathBuf,
        /// What the system said.
        source: std::io::Error,
    },
    /// A file is not a corpus entry.
    #[error("corpus file {path}: not a search corpus entry: {reason}")]
    Format {
        /// The file.
        path: PathBuf,
        /// Why.
        reason: String,
    },
}

impl CorpusEntry {
    /// The file's bytes: pretty JSON, so a corpus diff reads.
    fn to_bytes(&self) -> Vec<u8> {
        let mut text = serde_json::to_string_pretty(self).expect("a corpus entry serialises");
        text.push('\n');
        text.into_bytes()
    }

    /// The file name: the first 16 bytes of the SHA-256 of the file, hex.
    pub fn file_name(&self) -> String {
        let digest = Sha256::digest(self.to_bytes());
        let hex: String = digest[..16].iter().map(|b| format!("{b:02x}")).collect();
        format!("{hex}.json")
    }

    /// The entry of a kept mutant that grew from `seed`.
    pub(super) fn of(entry: &Entry, seed: &ConcreteCase) -> CorpusEntry {
        CorpusEntry {
            format: FORMAT.to_string(),
            seed_case: seed.id.clone(),
            operators: entry.operators.iter().map(|o| o.name().into()).collect(),
            tricks: entry.tricks.iter().map(|t| t.name().into()).collect(),
            request: entry.request.clone(),
        }
    }

    /// The mutant to judge, when its case is among `seeds`. Operators and
    /// tricks this build does not know are left out of the lineage.
    pub(super) fn to_entry(&self, seeds: &[&ConcreteCase]) -> Option<Entry> {
        let seed = seeds.iter().position(|c| c.id == self.seed_case)?;
        let mut entry = Entry::from_seed(seed, self.request.clone());
        entry.operators = self
            .operators
            .iter()
            .filter_map(|name| operator_named(name))
            .collect();
        entry.tricks = self
            .tricks
            .iter()
            .filter_map(|name| Trick::ALL.into_iter().find(|t| t.name() == name))
            .collect();
        // A saved entry keeps its length: what it carries past its seed
        // case counts as granted, so it is grown as it was saved.
        entry.granted = self
            .request
            .input_len()
            .saturating_sub(super::input_len(seeds[seed]));
        Some(entry)
    }
}

/// The operator called `name`, whichever picks it.
fn operator_named(name: &str) -> Option<Operator> {
    Operator::ALL
        .into_iter()
        .chain(Operator::LOOP_PICKED)
        .find(|o| o.name() == name)
}

/// Reads every `*.json` file of `dir`, in name order (so a search from the
/// same corpus is the same search). A missing directory is an empty corpus.
pub fn load_corpus(dir: &Path) -> Result<Vec<CorpusEntry>, CorpusError> {
    let io = |source| CorpusError::Io {
        path: dir.to_path_buf(),
        source,
    };
    let listing = match std::fs::read_dir(dir) {
        Ok(listing) => listing,
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(error) => return Err(io(error)),
    };
    let mut paths: Vec<PathBuf> = listing
        .map(|e| e.map(|e| e.path()))
        .collect::<Result<_, _>>()
        .map_err(io)?;
    paths.retain(|p| p.extension().is_some_and(|e| e == "json"));
    paths.sort();
    paths
        .into_iter()
        .map(|path| {
            let text = std::fs::read_to_string(&path).map_err(|source| CorpusError::Io {
                path: path.clone(),
                source,
            })?;
            let entry: CorpusEntry =
                serde_json::from_str(&text).map_err(|e| CorpusError::Format {
                    path: path.clone(),
                    reason: e.to_string(),
                })?;
            if entry.format != FORMAT {
                return Err(CorpusError::Format {
                    path,
                    reason: format!("format {:?}, expected {FORMAT:?}", entry.format),
                });
            }
            Ok(entry)
        })
        .collect()
}

/// Writes each entry not already in `dir` (by file name), creating it;
/// returns how many files were new. Never deletes or overwrites.
pub fn save_corpus(dir: &Path, entries: &[CorpusEntry]) -> Result<usize, CorpusError> {
    std::fs::create_dir_all(dir).map_err(|source| CorpusError::Io {
        path: dir.to_path_buf(),
        source,
    })?;
    let mut written = 0;
    for entry in entries {
        let path = dir.join(entry.file_name());
        if path.exists() {
            continue;
        }
        std::fs::write(&path, entry.to_bytes())
            .map_err(|source| CorpusError::Io { path, source })?;
        written += 1;
    }
    Ok(written)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A saved lineage names every operator it holds, whichever picked it,
    /// and reads back the same.
    #[test]
    fn every_operator_name_reads_back() {
        let every: Vec<Operator> = Operator::ALL
            .into_iter()
            .chain(Operator::LOOP_PICKED)
            .collect();
        for operator in &every {
            assert_eq!(operator_named(operator.name()), Some(*operator));
        }
        let names: std::collections::BTreeSet<&str> = every.iter().map(|o| o.name()).collect();
        assert_eq!(names.len(), every.len(), "names are distinct");
        assert_eq!(operator_named("no-such-operator"), None);
    }
}
