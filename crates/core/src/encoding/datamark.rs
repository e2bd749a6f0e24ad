//! The `datamark` body encoding (spotlighting's data-marking mode): a
//! marker written in place of every space of the content (or of every
//! whitespace character, [`DatamarkReplaces`]), read back as a space.
//!
//! A body is judged encoded rather than decoded (it must equal the content
//! with every replaced character written as the marker), because a marker
//! already in the content would decode to a space.

use std::borrow::Cow;

use super::codec::{Codec, Experiment, Reading, Spelling};
use super::declared::{DatamarkReplaces, MarkerField};
use super::{Datamark, DecodeError};

/// The `datamark` codec.
pub(super) struct DatamarkCodec;

impl Codec for DatamarkCodec {
    fn name(&self) -> &'static str {
        "datamark"
    }

    fn encode(&self, content: &str, mark: Datamark<'_>) -> String {
        mark.apply(content)
    }

    fn decode<'b>(&self, body: &'b str, mark: &str) -> Result<Cow<'b, str>, DecodeError> {
        if mark.is_empty() {
            return Err(DecodeError::NoMark);
        }
        Ok(Cow::Owned(body.replace(mark, " ")))
    }

    fn faithful(&self, body: &str, content: &str, mark: Datamark<'_>) -> bool {
        body == mark.apply(content)
    }

    fn marker(&self) -> Option<MarkerField> {
        Some(MarkerField::Datamark)
    }

    fn tried_undeclared(&self) -> bool {
        // Under the default marker, when none is declared.
        true
    }

    fn spelling(&self) -> Spelling {
        Spelling::Exact
    }

    fn experiment(&self) -> Option<Experiment> {
        Some(read_datamark)
    }

    fn model_may_decode(&self) -> bool {
        false
    }
}

/// The mark a data-marking framing writes between words: what stands
/// between the content's first two words in the output, when that is not
/// the space the content has; and whether line breaks are marked too.
fn read_datamark(framed: &str, content: &str) -> Option<Reading> {
    let mut words = content.split(' ');
    let (first, second) = (words.next()?, words.next()?);
    let start = framed.rfind(first)? + first.len();
    let gap = &framed[start..start + framed[start..].find(second)?];
    if gap.is_empty() || gap == " " || gap.contains(char::is_whitespace) || gap.len() > 8 {
        return None;
    }
    // The probe's line break sits between two words too.
    let (before, after) = content.split_once('\n')?;
    let (last, next) = (before.rsplit(' ').next()?, after.split(' ').next()?);
    let replaces = if framed.contains(&format!("{last}{gap}{next}")) {
        DatamarkReplaces::Whitespace
    } else {
        DatamarkReplaces::Spaces
    };
    Some(Reading {
        marker: Some(gap.to_string()),
        replaces,
        head_suffix: None,
        note: datamark_note(gap, replaces),
    })
}

/// What a data mark was read from, and the two readings of a mark that
/// replaces line breaks too.
fn datamark_note(mark: &str, replaces: DatamarkReplaces) -> String {
    let also = match replaces {
        DatamarkReplaces::Whitespace => {
            " and in place of its line break (two readings: a framing that means to mark \
             every whitespace character, or one that loses line breaks; declare \
             `datamark_replaces: spaces` if line breaks should survive, and the run \
             reports each one lost)"
        }
        DatamarkReplaces::Spaces => "",
    };
    format!("body: datamark {mark:?}, because the content came back with {mark:?} between its words{also}")
}
