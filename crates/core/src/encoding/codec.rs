//! A codec: everything one body encoding knows.
//!
//! How the content is written and read back (whether a body is faithful,
//! the one rule fidelity judges a body by), which profile field the encoding reads (a marker, a prefix),
//! how the layout learner finds a body written in it, how `init` recognises
//! it in calibration outputs, the catalogue cases it invites and whether
//! the oracle's line-quote check applies to it: one impl in each encoding's own module under `encoding/`. The
//! rest of the workspace asks the codec ([`crate::profile::BodyEncoding::codec`], in `encoding`, the one
//! match from a variant to its module) instead of matching on encodings, so
//! a new encoding is one module, one [`crate::profile::BodyEncoding`] variant, its entry in
//! [`crate::profile::BodyEncoding::ALL`] and its arm in `codec` (the compiler checks both);
//! every method here (none has a default) is what the compiler asks the new module for.

use std::borrow::Cow;

use super::declared::{DatamarkReplaces, MarkerField};
use super::{Datamark, DecodeError};

/// How the layout learner finds a body written in an encoding.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Spelling {
    /// One spelling per content: the body is found by its encoded text.
    Exact,
    /// Writers spell it differently (`&#39;` or `&#x27;`, `\u00e9` or `é`,
    /// `repr` or `ascii`): where the encoded text is not found, the span
    /// between the content's first and last words is decoded.
    Loose {
        /// The quotes the encoding writes around the body, which the slot
        /// takes with it (a JSON string's `"`, either of Python's).
        quotes: &'static [char],
        /// Whether, as a stack's outer layer, it is usually one value
        /// inside a larger string of its own kind and so written without
        /// its own quotes (a JSON string inside a JSON-RPC result).
        nests_unquoted: bool,
    },
}

/// What an encoding's inference experiment read off a calibration output.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Reading {
    /// The value of the profile field the encoding reads
    /// ([`Codec::marker`]): the data mark, the line prefix.
    pub marker: Option<String>,
    /// Which characters a data mark replaces (unread by other encodings).
    pub replaces: DatamarkReplaces,
    /// Text at the end of the text before the content that is the body's
    /// own, not the frame's (the first line's quote prefix): the shapes
    /// read the frame's delimiters without it.
    pub head_suffix: Option<String>,
    /// What the reading rests on, for the proposal's comments.
    pub note: String,
}

/// The body the catalogue's id lock declares for an encoding that invites
/// cases of its own ([`Codec::catalogue_twin`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Twin {
    /// A sample value of the marker field the encoding reads, when it
    /// reads one.
    pub marker: Option<&'static str>,
}

/// `init`'s experiment for an encoding: a reading of the masked first
/// calibration output, whose multi-line probe content is `content`.
pub type Experiment = fn(framed: &str, content: &str) -> Option<Reading>;

/// Everything one body encoding knows. See the module documentation.
pub trait Codec: Sync {
    /// The stable name, as written in profiles and reports (the variant's
    /// serde name; a test holds the two equal).
    fn name(&self) -> &'static str;

    /// `content` written in this encoding; `mark` is the profile's marker
    /// ([`crate::profile::BodySection::marker`]) for an encoding that reads one.
    fn encode(&self, content: &str, mark: Datamark<'_>) -> String;

    /// The content read back from `body`.
    fn decode<'b>(&self, body: &'b str, mark: &str) -> Result<Cow<'b, str>, DecodeError>;

    /// Whether `body` carries `content` (usually: it decodes to it).
    fn faithful(&self, body: &str, content: &str, mark: Datamark<'_>) -> bool;

    /// The profile field the encoding reads (`body.datamark`,
    /// `body.line_prefix`), if any; none by default.
    fn marker(&self) -> Option<MarkerField> {
        None
    }

    /// Whether calibration may try the encoding where no profile declares
    /// it: one whose marker could be any text is tried only where a
    /// profile (or `init`, which reads it off the output) names it.
    fn tried_undeclared(&self) -> bool;

    /// How the layout learner finds a body in it ([`Spelling`]).
    fn spelling(&self) -> Spelling;

    /// `init`'s experiment that recognises the encoding in a calibration
    /// output where the shapes alone would not (a data mark, a quote
    /// prefix); `None` when the layout learner's search finds it.
    fn experiment(&self) -> Option<Experiment>;

    /// Whether a model may read the encoded text as what it encodes (an
    /// entity-escaped `&lt;` as `<`) where a parser does not: `init` then
    /// advises on the consumer, and takes a framing whose own reader
    /// decodes it for a parser's.
    fn model_may_decode(&self) -> bool;

    /// A body declaring this encoding ([`Twin`]), when the catalogue has
    /// cases only a body in it invites (`requires: [line-prefix]`): the
    /// catalogue's id lock instantiates it so those cases are locked
    /// whether or not a committed target uses the encoding. None by
    /// default: the generic cases cover it.
    fn catalogue_twin(&self) -> Option<Twin> {
        None
    }

    /// Whether the encoding quotes the content line by line, so that a
    /// line it lets the content start without its marker has left the
    /// quote: the oracle's `quote.escape` check (its row and its module
    /// under `oracle/checks`, which sit above this module and so are not
    /// named here) holds such a body to it. False by default.
    fn quotes_lines(&self) -> bool {
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::encoding::declared::BodyEncoding;

    #[test]
    fn each_codec_is_named_as_profiles_spell_its_variant() {
        for encoding in BodyEncoding::ALL {
            let spelled = serde_json::to_value(encoding).unwrap();
            assert_eq!(spelled, encoding.codec().name(), "{encoding:?}");
        }
    }

    #[test]
    fn a_codec_that_reads_a_required_marker_is_not_tried_undeclared() {
        for encoding in BodyEncoding::ALL {
            let codec = encoding.codec();
            if codec.marker().is_some_and(MarkerField::required) {
                assert!(!codec.tried_undeclared(), "{encoding:?}");
            }
        }
    }
}
