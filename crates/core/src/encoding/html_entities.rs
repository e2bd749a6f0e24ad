//! The `html-entities` body encoding: the five XML special characters
//! written as entities, read back as an HTML parser reads entities (any
//! spelling: `&#39;`, `&#x27;`, `&apos;`).
//!
//! An entity for any other character is over-escaping: it changes what a
//! model reads even when a parser would decode it back, so it is a
//! fidelity finding ([`Codec::needless_escape`]).

use std::borrow::Cow;
use std::ops::Range;

use super::codec::{Codec, Experiment, Spelling, Twin};
use super::declared::MarkerField;
use super::{Datamark, DecodeError};
use crate::grammar::entities::decode_entities;

/// The `html-entities` codec.
pub(super) struct HtmlEntitiesCodec;

impl Codec for HtmlEntitiesCodec {
    fn name(&self) -> &'static str {
        "html-entities"
    }

    fn encode(&self, content: &str, _mark: Datamark<'_>) -> String {
        escape_entities(content)
    }

    fn decode<'b>(&self, body: &'b str, _mark: &str) -> Result<Cow<'b, str>, DecodeError> {
        Ok(Cow::Owned(decode_entities(body)))
    }

    fn faithful(&self, body: &str, content: &str, _mark: Datamark<'_>) -> bool {
        decode_entities(body) == content
    }

    /// An entity for a character other than `& < > " '`.
    fn needless_escape(&self, body: &str) -> Option<Range<usize>> {
        let mut from = 0;
        while let Some(amp) = body[from..].find('&').map(|i| from + i) {
            let semi = body[amp..].find(';').map(|i| amp + i)?;
            let decoded = decode_entities(&body[amp..=semi]);
            let mut chars = decoded.chars();
            if let (Some(c), None) = (chars.next(), chars.next()) {
                if decoded != body[amp..=semi] && !matches!(c, '&' | '<' | '>' | '"' | '\'') {
                    return Some(amp..semi + 1);
                }
            }
            from = amp + 1;
        }
        None
    }

    fn marker(&self) -> Option<MarkerField> {
        None
    }

    fn tried_undeclared(&self) -> bool {
        true
    }

    fn spelling(&self) -> Spelling {
        Spelling::Loose {
            quotes: &[],
            nests_unquoted: false,
        }
    }

    fn experiment(&self) -> Option<Experiment> {
        None
    }

    fn model_may_decode(&self) -> bool {
        true
    }

    fn catalogue_twin(&self) -> Option<Twin> {
        None
    }

    fn quotes_lines(&self) -> bool {
        false
    }
}

/// Escapes the five XML special characters.
fn escape_entities(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#x27;"),
            c => out.push(c),
        }
    }
    out
}
