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

/// A one-line description of a YAML error, with its line and column when the
/// parser knows them.
pub fn describe(error: &serde_saphyr::Error) -> String {
    let text = error.to_string();
    let first = text
        .lines()
        .next()
        .unwrap_or("invalid YAML")
        .trim()
        .to_string();
    match error.location() {
        Some(loc) => format!("line {}, column {}: {}", loc.line(), loc.column(), first),
        None => first,
    }
}

/// Where the parser located `error`, as 1-based (line, column), if it knows.
pub fn position(error: &serde_saphyr::Error) -> Option<(u64, u64)> {
    error
        .location()
        .map(|loc| (loc.line(), loc.column()))
        .filter(|&(line, _)| line > 0)
}

/// The error's message without the location or source snippet the parser's
/// own `Display` adds, for callers that print the position themselves.
pub fn message(error: &serde_saphyr::Error) -> String {
    use serde_saphyr::MessageFormatter;
    let text = serde_saphyr::DefaultMessageFormatter.format_message(error);
    let first = text.lines().next().unwrap_or("").trim();
    if first.is_empty() {
        "invalid YAML".to_string()
    } else {
        first.to_string()
    }
}
