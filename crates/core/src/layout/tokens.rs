//! Which spans of a calibration output change between wraps: a token diff.
//!
//! Texts are cut into tokens (runs of ASCII letters and digits, and every
//! other character on its own) and diffed with `similar`'s Myers diff. A
//! character diff would align the common characters of two random hex
//! nonces and cut a nonce into pieces; whole tokens do not. Changed tokens
//! separated by one `-`, `:`, `.` or `_` are one span, so a UUID is one
//! variable part.

use std::ops::Range;

use similar::{capture_diff_slices, Algorithm, DiffOp};

/// A span of the first text, and whether it changed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Segment {
    /// Byte range in the first text.
    pub range: Range<usize>,
    /// `None`: the same in every text. `Some(true)`: it changed only with
    /// the content. `Some(false)`: it changed between wraps of one input.
    pub changed: Option<bool>,
    /// Set when the span is the content written again (an echo slot,
    /// `echo.rs`), not a diff's finding.
    pub echo: Option<super::Echo>,
}

fn tokenize(text: &str) -> Vec<Range<usize>> {
    let mut tokens = Vec::new();
    let mut chars = text.char_indices().peekable();
    while let Some((start, c)) = chars.next() {
        let mut end = start + c.len_utf8();
        if c.is_ascii_alphanumeric() {
            while let Some(&(i, d)) = chars.peek() {
                if !d.is_ascii_alphanumeric() {
                    break;
                }
                end = i + 1;
                chars.next();
            }
        }
        tokens.push(start..end);
    }
    tokens
}

/// Marks, per token of `a` (and per gap before each token, for insertions),
/// whether it differs from `b`.
fn mark(a: &str, a_tokens: &[Range<usize>], b: &str, marks: &mut [u8], flag: u8) {
    let b_tokens = tokenize(b);
    let a_words: Vec<&str> = a_tokens.iter().map(|r| &a[r.clone()]).collect();
    let b_words: Vec<&str> = b_tokens.iter().map(|r| &b[r.clone()]).collect();
    for op in capture_diff_slices(Algorithm::Myers, &a_words, &b_words) {
        match op {
            DiffOp::Equal { .. } => {}
            DiffOp::Delete {
                old_index, old_len, ..
            }
            | DiffOp::Replace {
                old_index, old_len, ..
            } => marks[old_index..old_index + old_len]
                .iter_mut()
                .for_each(|m| *m |= flag),
            // Text inserted before token `old_index`: the token before it
            // (or after it, at the start) is part of the changing span.
            DiffOp::Insert { old_index, .. } => {
                let at = old_index
                    .saturating_sub(1)
                    .min(marks.len().saturating_sub(1));
                if let Some(m) = marks.get_mut(at) {
                    *m |= flag;
                }
            }
        }
    }
}

const PER_CALL: u8 = 1;
const WITH_CONTENT: u8 = 2;

/// Splits `a` into segments that are the same in `same_input` (other wraps
/// of the same request) and `other_content` (wraps of another content),
/// and segments that change.
pub(super) fn segments(a: &str, same_input: &[&str], other_content: &[&str]) -> Vec<Segment> {
    let tokens = tokenize(a);
    let mut marks = vec![0u8; tokens.len()];
    for b in same_input {
        mark(a, &tokens, b, &mut marks, PER_CALL);
    }
    for b in other_content {
        mark(a, &tokens, b, &mut marks, WITH_CONTENT);
    }
    // One joiner between two changed tokens belongs to the span (UUIDs).
    for i in 1..tokens.len().saturating_sub(1) {
        let joiner = matches!(&a[tokens[i].clone()], "-" | ":" | "." | "_");
        if marks[i] == 0 && joiner && marks[i - 1] != 0 && marks[i + 1] != 0 {
            marks[i] = marks[i - 1] | marks[i + 1];
        }
    }
    let mut out: Vec<Segment> = Vec::new();
    for (range, m) in tokens.into_iter().zip(marks) {
        let changed = match m {
            0 => None,
            WITH_CONTENT => Some(true),
            _ => Some(false),
        };
        match out.last_mut() {
            Some(last) if last.changed == changed => last.range.end = range.end,
            _ => out.push(Segment {
                range,
                changed,
                echo: None,
            }),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn show(a: &str, segments: &[Segment]) -> Vec<(String, Option<bool>)> {
        segments
            .iter()
            .map(|s| (a[s.range.clone()].to_string(), s.changed))
            .collect()
    }

    #[test]
    fn a_uuid_is_one_span_and_fixed_text_stays_fixed() {
        let a = "<data-3f2a9c1e-77b0-4c1d>x";
        let b = "<data-a1b2c3d4-0f0f-9e9e>x";
        let got = show(a, &segments(a, &[b], &[]));
        assert_eq!(
            got,
            vec![
                ("<data-".into(), None),
                ("3f2a9c1e-77b0-4c1d".into(), Some(false)),
                (">x".into(), None),
            ]
        );
    }

    #[test]
    fn content_dependent_spans_are_told_apart() {
        let a = "About 12 words. <t id=\"aa11\">";
        let same = "About 12 words. <t id=\"bb22\">";
        let other = "About 30 words. <t id=\"cc33\">";
        let got = show(a, &segments(a, &[same], &[other]));
        assert_eq!(got[1], ("12".into(), Some(true)));
        assert_eq!(got[3], ("aa11".into(), Some(false)));
        assert_eq!(show(a, &segments(a, &[a], &[a])), vec![(a.into(), None)]);
    }
}
