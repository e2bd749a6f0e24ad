//! Grammar `json-lines`: the frame is a stream of JSON documents, one a
//! line (JSON Lines: a begin record, a record whose string value is the
//! content, an end record), and the content is one string value in one of
//! them, at a JSON pointer whose first segment is the line's index among
//! the documents (`/1/text`). It is judged by the same value-tree reader
//! as `json-document` ([`super::Document`]): the stream reads as an array
//! of its lines' documents, so a line the content adds, removes or splits
//! changes the array's length or no longer parses, and a key it forges is
//! a key a benign record does not have.
//!
//! A reader of JSON lines splits the text at LF (the format's separator;
//! a CR before it is white space JSON reads past) and parses each line
//! alone, so a line break the framing leaves raw in a string ends that
//! line's document. Blank lines separate nothing and are passed over, as
//! lenient readers do.

use serde_json::Value;

use super::{find_string, DocumentShape, Syntax, SyntaxError};

/// The `json-lines` shape.
pub(in crate::grammar) const SHAPE: DocumentShape = DocumentShape(Syntax::JsonLines);

/// The value JSON-lines `text` is written as: the array of its lines'
/// documents, in order. Why not, when a line is no JSON (with its number)
/// or no line holds anything.
pub(super) fn parse(text: &str) -> Result<Value, SyntaxError> {
    let mut documents = Vec::new();
    for (n, line) in text.split('\n').enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        let document = serde_json::from_str(line)
            .map_err(|e| SyntaxError::Json(format!("line {}: {e}", n + 1)))?;
        documents.push(document);
    }
    match documents.is_empty() {
        true => Err(SyntaxError::NotAContainer),
        false => Ok(Value::Array(documents)),
    }
}

/// Whether `text` is a stream of two or more JSON documents, one a line:
/// what `init` reads as JSON lines, not as one document after a lead text
/// made of the others.
pub(super) fn is_stream(text: &str) -> bool {
    matches!(parse(text), Ok(Value::Array(documents)) if documents.len() > 1)
}

/// The content's pointer, when `text` (the text around the content with
/// `stand_in` in its place) is a stream of two or more JSON documents and
/// one of them holds `stand_in` as a whole string value: the line's index,
/// then the value's place in that line's document.
pub(super) fn pointer_of(text: &str, stand_in: &str) -> Option<String> {
    let Ok(Value::Array(documents)) = parse(text) else {
        return None;
    };
    if documents.len() < 2 {
        return None;
    }
    documents
        .iter()
        .enumerate()
        .find_map(|(i, document)| find_string(document, stand_in, format!("/{i}"), false))
}

#[cfg(test)]
mod tests {
    use super::super::{Breach, Document, DocumentFrame};
    use super::*;
    use crate::level::ReaderLevel;

    fn frame() -> DocumentFrame {
        DocumentFrame {
            pointer: "/1/text".into(),
            syntax: Syntax::JsonLines,
        }
    }

    fn stream(content: &str) -> String {
        let data = serde_json::json!({"event": "data", "text": content});
        format!("{{\"event\": \"begin\"}}\n{data}\n{{\"event\": \"end\"}}")
    }

    #[test]
    fn each_line_is_one_document_of_the_stream() {
        let value = parse("{\"a\": 1}\r\n\n[2]\n").unwrap();
        assert_eq!(value, serde_json::json!([{"a": 1}, [2]]));
        assert!(
            matches!(parse("{\"a\": 1}\n{\"b\""), Err(SyntaxError::Json(m)) if m.starts_with("line 2"))
        );
        assert_eq!(parse(" \n"), Err(SyntaxError::NotAContainer));
        assert!(is_stream("{}\n{}"));
        assert!(!is_stream("{}"));
        // Pretty-printed JSON is one document, no stream.
        assert!(!is_stream("{\n  \"a\": 1\n}"));
    }

    #[test]
    fn the_content_is_found_by_its_line_and_place() {
        let text = stream("STANDz1");
        assert_eq!(pointer_of(&text, "STAND").as_deref(), Some("/1/text"));
        assert_eq!(pointer_of("{\"text\": \"STAND\"}", "STAND"), None);
        assert_eq!(pointer_of("{}\n{\"t\": \"other\"}", "STAND"), None);
    }

    #[test]
    fn content_escaped_reads_back_and_content_written_raw_breaks_the_stream() {
        let d = Document::learn(&frame(), &stream("hello"), "hello").unwrap();
        let hostile = "a\"}\n{\"event\": \"end\"}\n{\"event\": \"CANARY\"";
        for level in ReaderLevel::ALL {
            assert!(d.read(&stream(hostile), level, "CANARY", None).is_empty());
        }
        assert_eq!(d.content_in(&stream(hostile)).unwrap(), hostile);
        // The same content written raw into the data line's string.
        let raw = format!(
            "{{\"event\": \"begin\"}}\n{{\"event\": \"data\", \"text\": \"{hostile}\"}}\n\
             {{\"event\": \"end\"}}"
        );
        let read = d.read(&raw, ReaderLevel::Exact, "CANARY", None);
        assert!(
            read.iter()
                .any(|b| matches!(b, Breach::Structure { .. } | Breach::Unparsed { .. })),
            "{read:?}"
        );
        // A raw line break alone splits the data line: no document.
        let split = stream("x").replace("\"x\"", "\"x\ny\"");
        assert!(matches!(
            d.read(&split, ReaderLevel::Exact, "", None)[..],
            [Breach::Unparsed { .. }]
        ));
    }
}
