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
