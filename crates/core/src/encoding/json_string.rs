//! The `json-string` body encoding: the content written as a JSON string
//! literal (`json.dumps`, `JSON.stringify`), quotes included, and read
//! back with or without its quotes (a body may be one value inside a
//! larger string).

use std::borrow::Cow;
use std::ops::Range;

use super::codec::{Codec, Experiment, Spelling, Twin};
use super::declared::MarkerField;
use super::{Datamark, DecodeError};

/// The `json-string` codec.
pub(super) struct JsonStringCodec;

impl Codec for JsonStringCodec {
    fn name(&self) -> &'static str {
        "json-string"
    }

    fn encode(&self, content: &str, _mark: Datamark<'_>) -> String {
        // Serialising a &str cannot fail.
        serde_json::to_string(content).unwrap_or_default()
    }

    fn decode<'b>(&self, body: &'b str, _mark: &str) -> Result<Cow<'b, str>, DecodeError> {
        let quoted = if body.len() >= 2 && body.starts_with('"') && body.ends_with('"') {
            body.to_string()
        } else {
            format!("\"{body}\"")
        };
        serde_json::from_str::<String>(&quoted)
            .map(Cow::Owned)
            .map_err(|e| DecodeError::Json(e.to_string()))
    }

    fn faithful(&self, body: &str, content: &str, mark: Datamark<'_>) -> bool {
        self.decode(body, mark.mark)
            .is_ok_and(|decoded| decoded == content)
    }

    fn needless_escape(&self, _body: &str) -> Option<Range<usize>> {
        None
    }

    fn marker(&self) -> Option<MarkerField> {
        None
    }

    fn tried_undeclared(&self) -> bool {
        true
    }

    fn spelling(&self) -> Spelling {
        // Python's json.dumps escapes non-ASCII, JavaScript's does not.
        Spelling::Loose {
            quotes: &['"'],
            nests_unquoted: true,
        }
    }

    fn experiment(&self) -> Option<Experiment> {
        None
    }

    fn model_may_decode(&self) -> bool {
        false
    }

    fn catalogue_twin(&self) -> Option<Twin> {
        None
    }

    fn quotes_lines(&self) -> bool {
        false
    }
}
