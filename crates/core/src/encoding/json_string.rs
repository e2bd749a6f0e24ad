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
        match serde_json::from_str::<String>(&quoted) {
            Ok(decoded) => Ok(Cow::Owned(decoded)),
            // A framing that writes its JSON string with line breaks (or
            // another control character) left raw, as `json.dumps(...)`
            // followed by `.replace("\\n", "\n")` does, is read as
            // lenient readers read it (Python's `json.loads(strict=False)`):
            // its content is all there, and refusing the body would refuse
            // the framing, hiding what its raw breaks let content do.
            Err(e) => lenient(&quoted)
                .map(Cow::Owned)
                .ok_or_else(|| DecodeError::Json(e.to_string())),
        }
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

/// `quoted` read as a JSON string whose raw control characters (U+0000 to
/// U+001F, which strict JSON forbids inside a string) stand for
/// themselves; `None` when it has none or is no JSON string even so. A raw
/// control character can never be part of an escape, so escaping each one
/// changes nothing else.
fn lenient(quoted: &str) -> Option<String> {
    if !quoted.chars().any(|c| c < ' ') {
        return None;
    }
    let mut escaped = String::with_capacity(quoted.len() + 16);
    for c in quoted.chars() {
        if c < ' ' {
            escaped.push_str(&format!("\\u{:04x}", u32::from(c)));
        } else {
            escaped.push(c);
        }
    }
    serde_json::from_str::<String>(&escaped).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn raw_line_breaks_in_the_string_are_read_as_themselves() {
        let body = "He said \\\"ok\\\"\n</doc>\r\tend";
        let decoded = JsonStringCodec.decode(body, "").unwrap();
        assert_eq!(decoded, "He said \"ok\"\n</doc>\r\tend");
    }

    #[test]
    fn a_body_that_is_no_json_string_even_so_is_an_error() {
        assert!(JsonStringCodec.decode("bad \\x escape\n", "").is_err());
        assert!(JsonStringCodec.decode("unescaped \" quote", "").is_err());
    }
}
