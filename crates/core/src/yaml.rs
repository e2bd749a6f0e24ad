//! The one place framecheck configures its YAML parser.
//!
//! `serde_yaml` is archived; framecheck uses `serde-saphyr`, which is
//! panic-free, fuzzed, and enforces budgets (depth, nodes, alias expansion) so
//! an alias bomb in a catalogue or profile is an error, not an OOM.

/// Parser options with budgets sized for catalogue files: generous for real
/// catalogues, small enough that a hostile file cannot exhaust memory.
pub fn options() -> serde_saphyr::Options {
    serde_saphyr::Options::default()
}

/// A one-line description of a YAML error, with its line and column (once)
/// when the parser knows them.
pub fn describe(error: &serde_saphyr::Error) -> String {
    match position(error) {
        Some((line, column)) => format!("line {line}, column {column}: {}", message(error)),
        None => message(error),
    }
}

/// Where the parser located `error`, as 1-based (line, column), if it knows.
pub fn position(error: &serde_saphyr::Error) -> Option<(u64, u64)> {
    error
        .location()
        .map(|loc| (loc.line(), loc.column()))
        .filter(|&(line, _)| line > 0)
}

/// The error's message for a person: without the location or source snippet
/// the parser's own `Display` adds (callers print the position themselves),
/// and without the parser's advice to its programmer ("set
/// DuplicateKeyPolicy in Options"): the parser's user-facing formatter.
pub fn message(error: &serde_saphyr::Error) -> String {
    use serde_saphyr::MessageFormatter;
    let text = serde_saphyr::UserMessageFormatter.format_message(error);
    let first = text.lines().next().unwrap_or("").trim();
    if first.is_empty() {
        "invalid YAML".to_string()
    } else {
        first.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn error_of(text: &str) -> serde_saphyr::Error {
        #[derive(Debug, serde::Deserialize)]
        #[allow(dead_code)]
        struct Doc {
            name: String,
        }
        serde_saphyr::from_str_with_options::<Doc>(text, options()).unwrap_err()
    }

    #[test]
    fn a_duplicate_key_is_named_once_with_its_place_and_no_parser_advice() {
        let text = describe(&error_of("name: a\nname: b\n"));
        assert_eq!(text.matches("line 2").count(), 1, "{text}");
        assert!(text.contains("duplicate mapping key"), "{text}");
        assert!(text.contains("name"), "{text}");
        assert!(!text.contains("DuplicateKeyPolicy"), "{text}");
        assert!(!text.contains("Options"), "{text}");
    }

    #[test]
    fn a_bad_token_has_a_line_and_column() {
        let text = describe(&error_of("name: [a, @b]\n"));
        assert!(text.starts_with("line 1, column "), "{text}");
        assert_eq!(text.matches("line").count(), 1, "{text}");
    }
}
