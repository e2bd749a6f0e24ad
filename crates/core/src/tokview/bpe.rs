//! The byte-level BPE behind every view: tiktoken-rs's `CoreBPE`, with
//! OpenAI's encodings as tiktoken-rs embeds them, or Mistral's Tekken
//! loaded from mistral-common's JSON ([`super::data`]).
//!
//! Token spans come from each id's own bytes: byte-level BPE is lossless,
//! so the bytes of the ids, in order, are the text's bytes.

use std::path::Path;

use rustc_hash::{FxHashMap, FxHashSet};
use tiktoken_rs::{CoreBPE, Rank};

use super::data::{self, TekkenData};
use super::{DataSource, SpecialToken, Tokens, ViewError, ViewName};

/// The tiktoken-rs version whose embedded encodings the OpenAI views use
/// (checked against Cargo.lock by a test).
pub(super) const TIKTOKEN_RS_VERSION: &str = "0.12.1";

/// A loaded encoding and the ids of its control tokens.
pub(super) struct Bpe {
    core: CoreBPE,
    /// The ids of the control tokens.
    special: FxHashSet<Rank>,
}

impl Bpe {
    /// Loads the encoding of `name` and says where its data came from.
    pub(super) fn load(
        name: ViewName,
        data_dir: Option<&Path>,
    ) -> Result<(Bpe, DataSource), ViewError> {
        let embedded = |file: &str| DataSource {
            package: "tiktoken-rs".into(),
            version: TIKTOKEN_RS_VERSION.into(),
            file: format!("{file} (embedded)"),
            sha256: None,
        };
        let broken = |reason: String| ViewError::Data {
            path: format!("tiktoken-rs {TIKTOKEN_RS_VERSION}").into(),
            reason,
        };
        match name {
            ViewName::Cl100k => {
                let core = tiktoken_rs::cl100k_base().map_err(|e| broken(e.to_string()))?;
                Ok((Bpe::new(core), embedded("cl100k_base.tiktoken")))
            }
            ViewName::O200k => {
                let core = tiktoken_rs::o200k_base().map_err(|e| broken(e.to_string()))?;
                Ok((Bpe::new(core), embedded("o200k_base.tiktoken")))
            }
            ViewName::MistralTekken => {
                let (tekken, source) = data::tekken(data_dir)?;
                Ok((tekken_bpe(tekken, &source)?, source))
            }
        }
    }

    fn new(core: CoreBPE) -> Bpe {
        let special = core
            .special_tokens()
            .into_iter()
            .flat_map(|s| core.encode_with_special_tokens(s))
            .collect();
        Bpe { core, special }
    }

    /// The text encoded with special tokens as text.
    pub(super) fn tokens(&self, text: &str) -> Tokens {
        self.spans(text, self.core.encode_ordinary(text))
    }

    /// The spans that become control tokens with special tokens parsed.
    pub(super) fn special_tokens(&self, text: &str) -> Vec<SpecialToken> {
        let tokens = self.spans(text, self.core.encode_with_special_tokens(text));
        tokens
            .ids
            .iter()
            .zip(tokens.spans)
            .filter(|(id, _)| self.special.contains(id))
            .map(|(&id, span)| SpecialToken { span, id })
            .collect()
    }

    /// Each id's byte range in `text`.
    fn spans(&self, text: &str, ids: Vec<Rank>) -> Tokens {
        let mut spans = Vec::with_capacity(ids.len());
        let mut at = 0;
        for &id in &ids {
            // Every id came from encoding `text`, so it decodes.
            let len = self.core.decode_bytes(&[id]).map_or(0, |b| b.len());
            spans.push(at..at + len);
            at += len;
        }
        debug_assert_eq!(at, text.len(), "byte-level BPE tiles the text");
        Tokens { ids, spans }
    }
}

/// Tekken as mistral-common builds it: the first `vocab_size -
/// num_special` ranks of the vocabulary, shifted up by `num_special`, and
/// the control tokens at ids `0..num_special`.
fn tekken_bpe(tekken: TekkenData, source: &DataSource) -> Result<Bpe, ViewError> {
    let offset = tekken.num_special as Rank;
    let encoder: FxHashMap<Vec<u8>, Rank> = tekken
        .ranks
        .into_iter()
        .enumerate()
        .map(|(rank, bytes)| (bytes, rank as Rank + offset))
        .collect();
    let specials: FxHashMap<String, Rank> = tekken
        .specials
        .iter()
        .map(|(rank, text)| (text.clone(), *rank))
        .collect();
    let core =
        CoreBPE::new(encoder, specials.clone(), &tekken.pattern).map_err(|e| ViewError::Data {
            path: source.file.clone().into(),
            reason: format!("cannot build the BPE: {e}"),
        })?;
    let special = specials.into_values().collect();
    Ok(Bpe { core, special })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_recorded_version_is_the_locked_one() {
        let lock = include_str!("../../../../Cargo.lock");
        let at = lock
            .find("name = \"tiktoken-rs\"\nversion = \"")
            .expect("tiktoken-rs is locked");
        let version = lock[at..].lines().nth(1).unwrap();
        assert_eq!(version, format!("version = \"{TIKTOKEN_RS_VERSION}\""));
    }

    #[test]
    fn spans_tile_the_text_and_specials_are_found_where_defined() {
        let (bpe, _) = Bpe::load(ViewName::Cl100k, None).unwrap();
        let text = "héllo ＜x＞ <|endoftext|> <|im_end|>";
        let tokens = bpe.tokens(text);
        assert_eq!(tokens.spans.first().unwrap().start, 0);
        assert_eq!(tokens.spans.last().unwrap().end, text.len());
        assert!(tokens.spans.windows(2).all(|w| w[0].end == w[1].start));
        // Ordinary encoding never yields a control token.
        assert!(tokens.ids.iter().all(|id| !bpe.special.contains(id)));
        let specials = bpe.special_tokens(text);
        // cl100k defines <|endoftext|> (100257) but not ChatML's <|im_end|>.
        assert_eq!(specials.len(), 1);
        assert_eq!(specials[0].id, 100257);
        assert_eq!(&text[specials[0].span.clone()], "<|endoftext|>");
    }
}
