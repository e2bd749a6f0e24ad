//! Where each part of a framed text lies for a reader at one level: the
//! opening tags, the header, the content region.
//!
//! Regions are derived from the live delimiters the oracle's own matcher
//! finds, never from what the writer meant to write: a closing tag a reader
//! sees early ends the content region early, and a blank line a reader sees
//! in the provenance ends the header early. That is exactly how a breakout
//! shows up as a canary outside its region.

use std::ops::Range;

use super::scan::{self, DelimiterKind, LiveDelimiter};
use super::tag;
use crate::level::{self, ReaderLevel};
use crate::profile::{HeaderSpec, HeaderStyle, TargetProfile};

/// Index of the outer token in `Delimiters::all_tokens`.
pub(crate) const OUTER: usize = 0;
/// Index of the inner token, when the profile has one.
pub(crate) const INNER: usize = 1;

/// The regions of a framed text at one reader level.
#[derive(Debug, Clone)]
pub(crate) struct Regions {
    /// Every live delimiter of every structural token, in text order.
    pub delimiters: Vec<LiveDelimiter>,
    /// The outer opening tag, bracket to bracket, when it parses.
    pub outer_tag: Option<Range<usize>>,
    /// The tag carrying attributes, when it exists and parses.
    pub attribute_tag: Option<Range<usize>>,
    /// Whether the header's terminating blank line was found
    /// (always true for profiles without a header).
    pub header_terminated: bool,
    /// Where header fields (kind, attributes, provenance) may land: from the
    /// outer opening delimiter to the end of the header.
    pub header: Range<usize>,
    /// The content region.
    pub content: Range<usize>,
}

impl Regions {
    /// Works out the regions of `framed` for a reader at `level`, with the
    /// live delimiters inside `own` (the framing's own constant text, as a
    /// layout match found it) not counted: a preamble that names the
    /// delimiter forges nothing.
    pub(crate) fn excluding(
        framed: &str,
        profile: &TargetProfile,
        level: ReaderLevel,
        own: &[Range<usize>],
    ) -> Regions {
        let syntax = profile.delimiters.syntax;
        let tokens = profile.delimiters.all_tokens();
        let folded = scan::fold_with_offsets(framed, level);
        let mut delimiters = scan::live_delimiters_in(&folded, syntax, &tokens, level);
        delimiters.retain(|d| !own.iter().any(|r| r.start <= d.start && d.end <= r.end));

        let outer_open = first_open(&delimiters, OUTER, 0);
        let tag_span = |d: &LiveDelimiter| tag::tag_end(&folded, d.end, syntax).map(|e| d.start..e);
        let outer_tag = outer_open.as_ref().and_then(tag_span);
        // Where the frame proper starts, even when its tag does not parse.
        let after_outer = match (&outer_tag, &outer_open) {
            (Some(t), _) => t.end,
            (None, Some(d)) => d.end,
            (None, None) => 0,
        };
        let inner_open = profile
            .delimiters
            .inner
            .as_ref()
            .and_then(|_| first_open(&delimiters, INNER, after_outer));
        let inner_tag = inner_open.as_ref().and_then(tag_span);
        let attribute_index = if profile.attribute_token() == profile.delimiters.token {
            OUTER
        } else {
            INNER
        };
        let attribute_tag = first_open(&delimiters, attribute_index, 0)
            .as_ref()
            .and_then(tag_span);

        let header_style = profile.header.style;
        let header_line = match header_style {
            HeaderStyle::None => None,
            _ => header_end_line(framed, after_outer, level, &profile.header),
        };
        let content_start = match (&inner_open, &inner_tag, header_line) {
            (_, Some(t), _) => t.end,
            (Some(d), None, _) => d.end,
            (None, None, Some(end)) => end,
            (None, None, None) => after_outer,
        };
        let header_terminated = header_style == HeaderStyle::None || header_line.is_some();
        let header_end = match (header_style, header_line) {
            (HeaderStyle::None, _) => content_start,
            (_, Some(end)) => end,
            // A reader that finds no end of the header never finds the content.
            (_, None) => framed.len(),
        };
        let header_start = outer_open.map_or(0, |d| d.start);
        let content_token = if profile.delimiters.inner.is_some() {
            INNER
        } else {
            OUTER
        };
        let content_end = delimiters
            .iter()
            .find(|d| {
                d.token == content_token
                    && d.kind == DelimiterKind::Close
                    && d.start >= content_start
            })
            .map_or(framed.len(), |d| d.start);

        Regions {
            delimiters,
            outer_tag,
            attribute_tag,
            header_terminated,
            header: header_start..header_end.max(header_start),
            content: content_start..content_end.max(content_start),
        }
    }
}

fn first_open(delimiters: &[LiveDelimiter], token: usize, from: usize) -> Option<LiveDelimiter> {
    delimiters
        .iter()
        .find(|d| d.token == token && d.kind == DelimiterKind::Open && d.start >= from)
        .copied()
}

/// The length of the line break starting at byte `at`, if one does, as a
/// reader at `level` sees line breaks.
pub(crate) fn line_break_at(text: &str, at: usize, level: ReaderLevel) -> Option<usize> {
    let c = text[at..].chars().next()?;
    match (level, c) {
        (_, '\n') => Some(1),
        // CRLF is a line break to every reader: a framing that writes its
        // header with CRLF is not broken for that.
        (_, '\r') if text[at + 1..].starts_with('\n') => Some(2),
        (ReaderLevel::Exact, _) => None,
        (_, '\r') => Some(1),
        (ReaderLevel::AsciiCaseInsensitive, _) => None,
        (ReaderLevel::Unicode, '\u{0B}' | '\u{0C}' | '\u{85}' | '\u{2028}' | '\u{2029}') => {
            Some(c.len_utf8())
        }
        (ReaderLevel::Unicode, _) => None,
    }
}

/// The first line break at or after `from`: its start and end.
pub(crate) fn next_line_break(text: &str, from: usize, level: ReaderLevel) -> Option<Range<usize>> {
    text[from..]
        .char_indices()
        .find_map(|(i, _)| line_break_at(text, from + i, level).map(|len| from + i..from + i + len))
}

/// Whether a line (without its break) reads as blank at `level`.
fn is_blank(line: &str, level: ReaderLevel) -> bool {
    match level {
        ReaderLevel::Exact => line.is_empty(),
        ReaderLevel::AsciiCaseInsensitive => line.chars().all(|c| c == ' ' || c == '\t'),
        ReaderLevel::Unicode => line
            .chars()
            .all(|c| c.is_whitespace() || level::is_ignorable(c)),
    }
}

/// Where the header ends for a reader at `level`: the start of the line
/// that ends it (a blank line, the separator line) or of the first line
/// after a fixed-size header. Header lines start after the line the opening
/// tag ends on. The ending line's own break is left to the content region,
/// where the body padding accounts for it.
fn header_end_line(
    text: &str,
    tag_end: usize,
    level: ReaderLevel,
    header: &HeaderSpec,
) -> Option<usize> {
    let mut line_start = next_line_break(text, tag_end, level)?.end;
    let mut counted = 0;
    loop {
        if header.style == HeaderStyle::Lines && Some(counted) == header.lines {
            return Some(line_start);
        }
        let brk = next_line_break(text, line_start, level)?;
        let line = &text[line_start..brk.start];
        let ends = match header.style {
            HeaderStyle::BlankLine => is_blank(line, level),
            HeaderStyle::Separator => header
                .separator
                .as_deref()
                .is_some_and(|sep| is_separator(line, sep, level)),
            HeaderStyle::None | HeaderStyle::Lines => false,
        };
        if ends {
            return Some(line_start);
        }
        counted += 1;
        line_start = brk.end;
    }
}

/// The first blank line after the opening tag's line (see [`header_end_line`]).
#[cfg(test)]
fn first_blank_line(text: &str, tag_end: usize, level: ReaderLevel) -> Option<usize> {
    header_end_line(text, tag_end, level, &HeaderStyle::BlankLine.into())
}

/// Whether `line` reads as the header separator at `level`: byte-equal for
/// the exact reader; surrounding spaces and case ignored above it, and the
/// Unicode fold applied at the Unicode level (a fullwidth `－－－` is `---`).
fn is_separator(line: &str, separator: &str, level: ReaderLevel) -> bool {
    match level {
        ReaderLevel::Exact => line == separator,
        ReaderLevel::AsciiCaseInsensitive => line
            .trim_matches([' ', '\t'])
            .eq_ignore_ascii_case(separator.trim()),
        ReaderLevel::Unicode => {
            let fold = |t: &str| level::fold_str(t, level);
            fold(line).trim() == fold(separator).trim()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ReaderLevel::{AsciiCaseInsensitive as Ci, Exact, Unicode};

    #[test]
    fn line_breaks_widen_with_the_level() {
        let breaks = |text: &str, level| {
            let mut found = Vec::new();
            let mut from = 0;
            while let Some(b) = next_line_break(text, from, level) {
                from = b.end;
                found.push(b);
            }
            found
        };
        let text = "a\nb\r\nc\rd\u{2028}e\u{0B}f";
        assert_eq!(breaks(text, Exact), vec![1..2, 3..5]);
        assert_eq!(breaks(text, Ci), vec![1..2, 3..5, 6..7]);
        assert_eq!(breaks(text, Unicode), vec![1..2, 3..5, 6..7, 8..11, 12..13]);
    }

    #[test]
    fn separator_and_fixed_line_headers() {
        let sep = HeaderSpec {
            style: HeaderStyle::Separator,
            separator: Some("---".into()),
            ..HeaderSpec::default()
        };
        let text = "<t>\nSource: x\n---\nbody";
        assert_eq!(header_end_line(text, 3, Exact, &sep), Some(14));
        let spaced = "<t>\nSource: x\n --- \nbody";
        assert_eq!(header_end_line(spaced, 3, Exact, &sep), None);
        assert_eq!(header_end_line(spaced, 3, Ci, &sep), Some(14));
        let wide = "<t>\nSource: x\n\u{FF0D}\u{FF0D}\u{FF0D}\nbody";
        assert_eq!(header_end_line(wide, 3, Ci, &sep), None);
        assert_eq!(header_end_line(wide, 3, Unicode, &sep), Some(14));
        let lines = HeaderSpec {
            style: HeaderStyle::Lines,
            lines: Some(2),
            ..HeaderSpec::default()
        };
        assert_eq!(
            header_end_line("<t>\na\nb\nbody", 3, Exact, &lines),
            Some(8)
        );
        assert_eq!(
            header_end_line("<t>\na\rb\nc\nbody", 3, Ci, &lines),
            Some(8)
        );
    }

    #[test]
    fn blank_lines_at_each_level() {
        assert_eq!(first_blank_line("<t>\nh\n\nbody", 3, Exact), Some(6));
        assert_eq!(first_blank_line("<t>\n\nbody", 3, Exact), Some(4));
        assert_eq!(first_blank_line("<t>\nh\n \nbody", 3, Exact), None);
        assert_eq!(first_blank_line("<t>\nh\n \nbody", 3, Ci), Some(6));
        assert_eq!(first_blank_line("<t>\nh\r\n\r\nbody", 3, Ci), Some(7));
        let text = "<t>\nh\u{2028}\u{200B}\u{2028}body";
        assert_eq!(first_blank_line(text, 3, Ci), None);
        assert_eq!(first_blank_line(text, 3, Unicode), Some(8));
    }
}
