//! The `html-entities` body encoding: the five XML special characters
//! written as entities, read back as an HTML parser reads entities (any
//! spelling: `&#39;`, `&#x27;`, `&apos;`).
//!
//! An entity for any other character (`&#233;` for `é`, as an ASCII-only
//! writer's `xmlcharrefreplace` writes) is read back exactly, so it is no
//! finding ([`super::faithful`], the one rule every encoding is judged by,
//! as `json-string` is for `\u00e9`).

use std::borrow::Cow;

use super::codec::{Codec, Experiment, Spelling};
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
