//! The `json-string` body encoding: the content written as a JSON string
//! literal (`json.dumps`, `JSON.stringify`), quotes included, and read
//! back with or without its quotes (a body may be one value inside a
//! larger string).
//!
//! `init` recognises one such string that is an item of a JSON array or
//! object written inside a frame (a list of passages `json.dumps`-ed under
//! a section marker): the document's text up to the string's opening
//! quote is the body's own, so the shapes read the frame's delimiters
//! around the document ([`read_json_item`]).

use std::borrow::Cow;

use super::codec::{Codec, Experiment, Reading, Spelling};
use super::declared::DatamarkReplaces;
use super::{Datamark, DecodeError};
use crate::grammar::json_document::holds_string;

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
        Some(read_json_item)
    }

    fn model_may_decode(&self) -> bool {
        false
    }
}

/// How many lines before the content's a document holding it may start
/// (a pretty-printed one starts a few lines up): past that, no search.
const MAX_DOCUMENT_LINES: usize = 64;

/// The content as one string item of a JSON array or object that starts a
/// line and is followed by more of the framing's text: the string is the
/// body, and the document's text before its opening quote (other items,
/// keys, the bracket) is the body's own, so the shapes read the frame's
/// delimiters in the text before the document (a section marker on the
/// line above). A document that ends the output is no body inside a frame
/// but the whole frame, grammar `json-document`'s reading, and one followed
/// only by more JSON documents one a line is a line of a `json-lines`
/// frame, so each is left to that shape. The string must decode to the
/// whole content.
fn read_json_item(framed: &str, content: &str) -> Option<Reading> {
    // The content's first word, as a JSON string writes it unchanged
    // (letters and digits), marks where the string's text starts; the
    // calibration contents start with one.
    let word_end = content
        .find(|c: char| !c.is_ascii_alphanumeric())
        .unwrap_or(content.len());
    let start = framed.rfind(content.get(..word_end).filter(|w| !w.is_empty())?)?;
    let quote = start - framed[..start].strip_suffix('"').map(|_| 1)?;
    let line_starts = framed[..quote]
        .rmatch_indices('\n')
        .map(|(i, _)| i + 1)
        .chain(std::iter::once(0));
    for line_start in line_starts.take(MAX_DOCUMENT_LINES) {
        let line = &framed[line_start..];
        let doc_start = line_start + line.len() - line.trim_start_matches([' ', '\t']).len();
        if doc_start > quote || !framed[doc_start..].starts_with(['[', '{']) {
            continue;
        }
        let Some((document, length)) = lenient_document(&framed[doc_start..]) else {
            continue;
        };
        let end = doc_start + length;
        if end <= start || !holds_string(&document, content) {
            continue;
        }
        // Followed by more lines that are each a JSON document, it is one
        // line of a stream of them: the frame is that stream, grammar
        // `json-lines`' reading, so it is left to that shape too.
        let rest = &framed[end..];
        if rest.trim().is_empty() || crate::grammar::json_document::continues_json_lines(rest) {
            return None;
        }
        return Some(Reading {
            marker: None,
            replaces: DatamarkReplaces::Spaces,
            head_suffix: Some(framed[doc_start..=quote].to_string()),
            note: format!(
                "body: json-string, because the content came back as one string of the JSON {} \
                 that starts {:?} (its other items are the framing's text around the body)",
                if framed[doc_start..].starts_with('[') {
                    "array"
                } else {
                    "object"
                },
                excerpt(&framed[doc_start..quote]),
            ),
        });
    }
    None
}

/// The JSON value `text` starts with, read as [`lenient`] reads a string
/// (a raw control character inside a string stands for itself: a framing
/// that leaves the content's line breaks raw is judged, not refused), and
/// its length in `text`.
fn lenient_document(text: &str) -> Option<(serde_json::Value, usize)> {
    // The text with each raw control character inside a string escaped,
    // and for each of its byte offsets the offset in `text` it came from.
    let mut escaped = String::with_capacity(text.len() + 16);
    let mut origin = Vec::with_capacity(text.len() + 17);
    let (mut in_string, mut backslash) = (false, false);
    for (at, c) in text.char_indices() {
        let before = escaped.len();
        if in_string && c < ' ' {
            escaped.push_str(&format!("\\u{:04x}", u32::from(c)));
        } else {
            escaped.push(c);
        }
        origin.extend(std::iter::repeat_n(at, escaped.len() - before));
        match c {
            '"' if !backslash => in_string = !in_string,
            '\\' if in_string => {
                backslash = !backslash;
                continue;
            }
            _ => {}
        }
        backslash = false;
    }
    origin.push(text.len());
    let mut documents =
        serde_json::Deserializer::from_str(&escaped).into_iter::<serde_json::Value>();
    let document = documents.next()?.ok()?;
    Some((document, origin[documents.byte_offset()]))
}

/// The first characters of `text`, for a note.
fn excerpt(text: &str) -> String {
    let cut: String = text.chars().take(24).collect();
    if cut.len() < text.len() {
        format!("{cut}…")
    } else {
        cut
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

    /// What [`read_json_item`] strips from the text before the content.
    fn item_head(framed: &str, content: &str) -> Option<String> {
        read_json_item(framed, content).and_then(|r| r.head_suffix)
    }

    #[test]
    fn a_string_item_of_a_document_inside_a_frame_is_the_body() {
        let content = "fcbodya1 a\nb fcbodyz1";
        let list = "[[ ## context ## ]]\n[\"x\", \"fcbodya1 a\\nb fcbodyz1\"]\n\n[[ ## q ## ]]";
        assert_eq!(item_head(list, content).as_deref(), Some("[\"x\", \""));
        // Pretty-printed over lines, an object, its line breaks left raw.
        let object = "<doc>\n  {\n    \"text\": \"fcbodya1 a\nb fcbodyz1\"\n  }\n</doc>";
        assert_eq!(
            item_head(object, content).as_deref(),
            Some("{\n    \"text\": \"")
        );
        // A document that ends the output is the whole frame, not a body;
        // a string that is not the whole content, or after a label on its
        // line, is no item of a document that starts a line.
        for framed in [
            "Result:\n[\"x\", \"fcbodya1 a\\nb fcbodyz1\"]\n",
            "[[ ## c ## ]]\n[\"fcbodya1 a\\nb fcbodyz1 and more\"]\nEnd",
            "[[ ## c ## ]]\nItems: [\"fcbodya1 a\\nb fcbodyz1\"]\nEnd",
        ] {
            assert_eq!(item_head(framed, content), None, "{framed:?}");
        }
    }

    #[test]
    fn a_body_that_is_no_json_string_even_so_is_an_error() {
        assert!(JsonStringCodec.decode("bad \\x escape\n", "").is_err());
        assert!(JsonStringCodec.decode("unescaped \" quote", "").is_err());
    }
}
