//! What a store plant needs besides the calls themselves: the id a write
//! tool answered (picked by a JSON pointer or a pattern), and the check
//! that a read answers no earlier plant's content.

use framecheck_launch::profile::IdFrom;
use rmcp::model::CallToolResult;

/// The shortest earlier content the leak check looks for: shorter text
/// (a word, a tag) may be the server's own.
pub(super) const MIN_LEAK_CHARS: usize = 16;

/// How an id is picked, its pattern compiled once.
#[derive(Debug)]
pub(super) enum IdPicker {
    /// A JSON pointer into the structured content or a JSON text part.
    Pointer(String),
    /// A pattern over the text parts.
    Pattern(regex::Regex),
}

/// Why no id was picked from a write tool's answer.
#[derive(Debug, thiserror::Error)]
pub enum IdError {
    /// The profile's pattern does not compile (the profile was not
    /// validated: it was built in code).
    #[error("adapter.mcp.write.id.pattern {pattern:?} is not a regular expression: {reason}")]
    BadPattern {
        /// The pattern.
        pattern: String,
        /// The engine's message.
        reason: String,
    },
    /// Nothing at the pointer.
    #[error(
        "the write tool's answer has no string or number at {pointer:?} (it answered {answer})"
    )]
    NoValueAt {
        /// The pointer.
        pointer: String,
        /// What it answered, as JSON.
        answer: String,
    },
    /// The pattern did not match.
    #[error("adapter.mcp.write.id.pattern {pattern:?} does not match the write tool's answer {answer:?}")]
    NoMatch {
        /// The pattern.
        pattern: String,
        /// The answer's text.
        answer: String,
    },
}

impl IdPicker {
    /// The picker `from` describes.
    pub(super) fn new(from: &IdFrom) -> Result<IdPicker, IdError> {
        match from {
            IdFrom::Pointer(pointer) => Ok(IdPicker::Pointer(pointer.clone())),
            IdFrom::Pattern(pattern) => {
                regex::Regex::new(pattern)
                    .map(IdPicker::Pattern)
                    .map_err(|e| IdError::BadPattern {
                        pattern: pattern.clone(),
                        reason: e.to_string(),
                    })
            }
        }
    }

    /// The id in `result`.
    pub(super) fn pick(&self, result: &CallToolResult) -> Result<String, IdError> {
        let texts: Vec<&str> = result
            .content
            .iter()
            .filter_map(|block| block.as_text().map(|t| t.text.as_str()))
            .collect();
        match self {
            IdPicker::Pointer(pointer) => {
                // The structured content first: a server that gives one
                // means it to be read; then each text part that is JSON.
                let parsed = texts
                    .iter()
                    .filter_map(|t| serde_json::from_str::<serde_json::Value>(t).ok());
                let documents = result.structured_content.clone().into_iter().chain(parsed);
                for document in documents {
                    match document.pointer(pointer) {
                        Some(serde_json::Value::String(id)) => return Ok(id.clone()),
                        Some(serde_json::Value::Number(id)) => return Ok(id.to_string()),
                        _ => {}
                    }
                }
                Err(IdError::NoValueAt {
                    pointer: pointer.clone(),
                    answer: serde_json::to_string(result).unwrap_or_default(),
                })
            }
            IdPicker::Pattern(pattern) => {
                let text = texts.join("\n");
                let found = pattern
                    .captures(&text)
                    .and_then(|c| c.get(1).or_else(|| c.get(0)));
                found
                    .map(|m| m.as_str().to_string())
                    .ok_or_else(|| IdError::NoMatch {
                        pattern: pattern.as_str().to_string(),
                        answer: text.clone(),
                    })
            }
        }
    }
}

/// The earlier plants a store's read must not answer: the first, which a
/// store that ignores a write to a key it already holds keeps answering,
/// and the last, which a store that keeps every item answers beside the
/// new one.
#[derive(Debug, Default)]
pub(super) struct Earlier {
    first: Option<String>,
    last: Option<String>,
}

impl Earlier {
    /// The earlier content `output`, the read of `content`, answers, if
    /// any; `content` is then remembered as the last (and, the first
    /// time, the first) plant.
    pub(super) fn answered(&mut self, content: &str, output: &str) -> Option<String> {
        let candidates = [self.first.as_deref(), self.last.as_deref()];
        let found = (candidates.into_iter().flatten())
            .find(|earlier| answers_earlier(earlier, content, output))
            .map(str::to_string);
        if self.first.is_none() {
            self.first = Some(content.to_string());
        }
        self.last = Some(content.to_string());
        found
    }
}

/// Whether `output`, the read of `content`, also holds `earlier`, the
/// content of the plant before it: a store not made clean between the
/// two. Content too short to tell from the server's own text, the same
/// content again, and content inside this one are not looked for.
pub(super) fn answers_earlier(earlier: &str, content: &str, output: &str) -> bool {
    if earlier.chars().count() < MIN_LEAK_CHARS || content.contains(earlier) {
        return false;
    }
    // This plant's own content is taken out first, so that it cannot
    // spell the earlier one together with the frame around it.
    output.replace(content, "\u{0}").contains(earlier)
}

#[cfg(test)]
mod tests {
    use super::*;
    use rmcp::model::ContentBlock;

    fn answer(text: &str) -> CallToolResult {
        CallToolResult::success(vec![ContentBlock::text(text)])
    }

    #[test]
    fn a_pointer_picks_a_string_or_a_number_from_a_json_text_part() {
        let picker = IdPicker::new(&IdFrom::Pointer("/note/id".into())).unwrap();
        let id = picker.pick(&answer(r#"{"note": {"id": "n-3"}}"#)).unwrap();
        assert_eq!(id, "n-3");
        let id = picker.pick(&answer(r#"{"note": {"id": 42}}"#)).unwrap();
        assert_eq!(id, "42");
        let error = picker.pick(&answer("stored as n-3")).unwrap_err();
        assert!(error.to_string().contains("\"/note/id\""), "{error}");
    }

    #[test]
    fn a_pointer_reads_the_structured_content_first() {
        let mut result = answer(r#"{"id": "from-text"}"#);
        result.structured_content = Some(serde_json::json!({ "id": "structured" }));
        let picker = IdPicker::new(&IdFrom::Pointer("/id".into())).unwrap();
        assert_eq!(picker.pick(&result).unwrap(), "structured");
    }

    #[test]
    fn a_pattern_picks_its_first_group_or_its_whole_match() {
        let grouped = IdPicker::new(&IdFrom::Pattern(r"stored as (\S+)".into())).unwrap();
        assert_eq!(grouped.pick(&answer("ok, stored as n-3.")).unwrap(), "n-3.");
        let whole = IdPicker::new(&IdFrom::Pattern(r"n-\d+".into())).unwrap();
        assert_eq!(whole.pick(&answer("ok, stored as n-3.")).unwrap(), "n-3");
        assert!(whole.pick(&answer("nothing")).is_err());
        assert!(IdPicker::new(&IdFrom::Pattern("(".into())).is_err());
    }

    /// A store that keeps its first item and ignores later writes to its
    /// key (the memory server's `create_entities` under `clean: none`)
    /// answers the first plant, not the one before: seen too.
    #[test]
    fn a_read_that_answers_the_first_plant_instead_of_this_one_is_seen() {
        let mut earlier = Earlier::default();
        let first = "the first case's planted text";
        let frame = |text: &str| format!("{{\"observations\": [\"{text}\"]}}");
        assert_eq!(earlier.answered(first, &frame(first)), None);
        let second = "the second case's planted text";
        assert_eq!(earlier.answered(second, &frame(second)), None);
        let third = "the third case's planted text";
        assert_eq!(
            earlier.answered(third, &frame(first)).as_deref(),
            Some(first)
        );
        // A store that keeps every item answers the last one beside this.
        let fourth = "the fourth case's planted text";
        let both = format!("{}{}", frame(third), frame(fourth));
        assert_eq!(earlier.answered(fourth, &both).as_deref(), Some(third));
    }

    #[test]
    fn an_earlier_content_in_a_read_is_seen_unless_it_is_part_of_this_one() {
        let earlier = "the first case's planted text";
        let content = "the second case";
        let both = format!("<n>{earlier}</n><n>{content}</n>");
        assert!(answers_earlier(earlier, content, &both));
        assert!(!answers_earlier(
            earlier,
            content,
            &format!("<n>{content}</n>")
        ));
        // The same content twice, or the earlier inside this one, is no leak.
        assert!(!answers_earlier(
            earlier,
            earlier,
            &format!("<n>{earlier}</n>")
        ));
        let longer = format!("{earlier} and more");
        assert!(!answers_earlier(
            earlier,
            &longer,
            &format!("<n>{longer}</n>")
        ));
        // Too short to tell from the server's own words.
        assert!(!answers_earlier(
            "note",
            content,
            "<note>the second case</note>"
        ));
    }
}
