//! Tokenizer views: framed text as a real tokenizer hands it to a model.
//!
//! The three reader levels ([`crate::reader`]) are a *model* of how a reader
//! folds text. A tokenizer view is a fact about one tokenizer: the token ids
//! a model behind it receives. A view answers two questions about a framed
//! output, and nothing else:
//!
//! - does the input reproduce the **token ids of the frame's own
//!   delimiter**, as the tokenizer produces them for that delimiter in the
//!   frame (the oracle's rule, `oracle::checks::tokview`);
//! - would a span of the input become a **control (special) token** when the
//!   serving stack encodes with special tokens parsed (tiktoken's
//!   `encode_with_special_tokens`)?
//!
//! Views are named by tokenizer ([`ViewName`]) and chosen on the command
//! line (`--view tok:cl100k`). They are not levels: a view neither contains
//! nor is contained in any reader level, so no "highest level held" is ever
//! claimed from one, and a view's findings never change a case's verdict.
//! What a view does not prove: a model's learned reading is wider than its
//! tokenizer (` </tag>` after a space starts with another token than
//! `</tag>` on its own line, and the model reads both as the tag).
//!
//! Every tokenizer here is byte-level BPE and none normalises: the same ids
//! mean the same bytes. The SentencePiece models mistral-common ships all
//! declare the `identity` normaliser, so no shipped data gives an NFKC view
//! (see the README, "Tokenizer views").
//!
//! ```
//! # #[cfg(feature = "tokenizers")] {
//! use framecheck_core::tokview::{TokenizerView, ViewName};
//!
//! let view = TokenizerView::load(ViewName::Cl100k, None).unwrap();
//! let text = "a <|endoftext|> b";
//! let tokens = view.tokens(text);
//! assert_eq!(tokens.ids.len(), tokens.spans.len());
//! let specials = view.special_tokens(text);
//! assert_eq!(specials.len(), 1);
//! assert_eq!(&text[specials[0].span.clone()], "<|endoftext|>");
//! # }
//! ```

use std::fmt;
use std::ops::Range;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

#[cfg(feature = "tokenizers")]
mod bpe;
mod data;

/// A tokenizer framecheck can judge with, by its view name.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum ViewName {
    /// OpenAI's `cl100k_base` (GPT-3.5, GPT-4), embedded in tiktoken-rs.
    #[serde(rename = "tok:cl100k")]
    Cl100k,
    /// OpenAI's `o200k_base` (GPT-4o and later), embedded in tiktoken-rs.
    #[serde(rename = "tok:o200k")]
    O200k,
    /// Mistral's Tekken (`tekken_240911.json`, Mistral NeMo and later), a
    /// tiktoken-style BPE read from the mistral-common package's data.
    #[serde(rename = "tok:mistral-tekken")]
    MistralTekken,
}

impl ViewName {
    /// Every view, in documentation order.
    pub const ALL: [ViewName; 3] = [ViewName::Cl100k, ViewName::O200k, ViewName::MistralTekken];

    /// The stable name, as the command line and the reports spell it.
    pub fn name(self) -> &'static str {
        match self {
            ViewName::Cl100k => "tok:cl100k",
            ViewName::O200k => "tok:o200k",
            ViewName::MistralTekken => "tok:mistral-tekken",
        }
    }

    /// Parses a name as printed by [`ViewName::name`].
    pub fn from_name(name: &str) -> Option<ViewName> {
        ViewName::ALL.into_iter().find(|v| v.name() == name)
    }

    /// Whether the view's data ships inside the binary (no package needed).
    pub fn is_embedded(self) -> bool {
        !matches!(self, ViewName::MistralTekken)
    }
}

impl fmt::Display for ViewName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Where a view's tokenizer data came from, as every report records it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct DataSource {
    /// The package that ships the data (`tiktoken-rs`, `mistral-common`).
    pub package: String,
    /// Its version (`unknown` when the data was found outside an installed
    /// package).
    pub version: String,
    /// The data file.
    pub file: String,
    /// SHA-256 of the data file, when it was read from disk.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sha256: Option<String>,
}

/// Why a view could not be loaded.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ViewError {
    /// The name is not a known view.
    #[error("unknown view {0:?} (known: tok:cl100k, tok:o200k, tok:mistral-tekken)")]
    Unknown(String),
    /// framecheck was built without the `tokenizers` feature.
    #[error("{0} needs framecheck built with the `tokenizers` feature (on by default)")]
    NotBuilt(ViewName),
    /// The package holding the data is not installed or not found.
    #[error("{view} needs {file} from the mistral-common package: `pip install mistral-common`, or pass --tokenizer-data DIR (or set FRAMECHECK_TOKENIZER_DATA) to a directory holding it; {detail}")]
    Missing {
        /// The view.
        view: ViewName,
        /// The file it needs.
        file: &'static str,
        /// Where framecheck looked.
        detail: String,
    },
    /// The data file could not be read or parsed.
    #[error("{path}: {reason}")]
    Data {
        /// The file.
        path: PathBuf,
        /// What is wrong with it.
        reason: String,
    },
}

/// A text's tokens: ids, and the source bytes each one stands for.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Tokens {
    /// Token ids, in order.
    pub ids: Vec<u32>,
    /// For each id, the byte range of the text it encodes. A byte-level BPE
    /// token may end inside a multi-byte character; the ranges still tile
    /// the text.
    pub spans: Vec<Range<usize>>,
}

/// A span of text that becomes a control token when special tokens are
/// parsed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SpecialToken {
    /// The byte range of the text.
    pub span: Range<usize>,
    /// The control token's id.
    pub id: u32,
}

/// A loaded tokenizer view.
pub struct TokenizerView {
    name: ViewName,
    data: DataSource,
    #[cfg(feature = "tokenizers")]
    bpe: bpe::Bpe,
    /// Without the feature no view can be built: methods match on this.
    #[cfg(not(feature = "tokenizers"))]
    never: std::convert::Infallible,
}

impl fmt::Debug for TokenizerView {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("TokenizerView")
            .field("name", &self.name)
            .field("data", &self.data)
            .finish_non_exhaustive()
    }
}

impl TokenizerView {
    /// Loads `name`. Views whose data is not embedded look in `data_dir`
    /// (`--tokenizer-data`), then as `data::locate` says.
    pub fn load(name: ViewName, data_dir: Option<&Path>) -> Result<TokenizerView, ViewError> {
        #[cfg(feature = "tokenizers")]
        {
            let (bpe, data) = bpe::Bpe::load(name, data_dir)?;
            Ok(TokenizerView { name, data, bpe })
        }
        #[cfg(not(feature = "tokenizers"))]
        {
            let _ = data_dir;
            Err(ViewError::NotBuilt(name))
        }
    }

    /// Loads every view named in `names` (`tok:…`) once each, in
    /// [`ViewName::ALL`] order whatever the command line's order, so a
    /// report does not depend on how the command was spelt.
    pub fn load_all(
        names: &[String],
        data_dir: Option<&Path>,
    ) -> Result<Vec<TokenizerView>, ViewError> {
        let mut seen = Vec::new();
        for name in names {
            let view = ViewName::from_name(name).ok_or_else(|| ViewError::Unknown(name.clone()))?;
            if !seen.contains(&view) {
                seen.push(view);
            }
        }
        seen.sort_unstable();
        seen.into_iter()
            .map(|view| TokenizerView::load(view, data_dir))
            .collect()
    }

    /// The view's name.
    pub fn name(&self) -> ViewName {
        self.name
    }

    /// Where its data came from.
    pub fn data(&self) -> &DataSource {
        &self.data
    }

    /// `text` encoded with special tokens left as text (tiktoken's
    /// `encode_ordinary`): what a model receives from a stack that does not
    /// parse them.
    pub fn tokens(&self, text: &str) -> Tokens {
        #[cfg(feature = "tokenizers")]
        {
            self.bpe.tokens(text)
        }
        #[cfg(not(feature = "tokenizers"))]
        {
            let _ = text;
            match self.never {}
        }
    }

    /// The spans of `text` that become control tokens when the stack
    /// encodes with special tokens parsed, leftmost first.
    pub fn special_tokens(&self, text: &str) -> Vec<SpecialToken> {
        #[cfg(feature = "tokenizers")]
        {
            self.bpe.special_tokens(text)
        }
        #[cfg(not(feature = "tokenizers"))]
        {
            let _ = text;
            match self.never {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for view in ViewName::ALL {
            assert_eq!(ViewName::from_name(view.name()), Some(view));
            let json = serde_json::to_string(&view).unwrap();
            assert_eq!(json, format!("\"{}\"", view.name()));
        }
        assert_eq!(ViewName::from_name("cl100k"), None);
        assert!(matches!(
            TokenizerView::load_all(&["tok:nope".into()], None),
            Err(ViewError::Unknown(_))
        ));
    }
}
