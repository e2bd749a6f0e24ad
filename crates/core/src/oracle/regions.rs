//! Where each part of a framed text lies for a reader at one level: the
//! opening tags, the header, the content region.
//!
//! Regions are derived from the live delimiters the oracle's own matcher
//! finds, never from what the writer meant to write: a closing tag a reader
//! sees early ends the content region early, and a blank line a reader sees
//! in the provenance ends the header early. That is exactly how a breakout
//! shows up as a canary outside its region.

use std::ops::Range;

use crate::grammar::{DelimiterKind, FrameKey, Grammar, LiveDelimiter, Liveness};
use crate::level::ReaderLevel;
use crate::profile::{HeaderSpec, HeaderStyle, ResolvedProfile};
use crate::reader::{Folded, Reader};

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
    /// Works out the regions of a framed text, folded by one reader, with
    /// the live delimiters inside `own` (the framing's own constant text, as
    /// a layout match found it) not counted: a preamble that names the
    /// delimiter forges nothing.
    pub(crate) fn at(
        folded: &Folded<'_>,
        grammar: &dyn Grammar,
        profile: &ResolvedProfile,
        own: &[Range<usize>],
    ) -> Regions {
        let framed = folded.text;
        let reader = folded.reader;
        let mut delimiters = grammar.live(folded);
        delimiters.retain(|d| !own.iter().any(|r| r.start <= d.start && d.end <= r.end));

        let outer_open = first_open(&delimiters, OUTER, 0);
        let mut tags = TagSpans::new(folded, grammar);
        let outer_tag = tags.of(outer_open);
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
        let inner_tag = tags.of(inner_open);
        let attribute_index = if profile.attribute_token() == profile.delimiters.token {
            OUTER
        } else {
            INNER
        };
        let attribute_tag = tags.of(first_open(&delimiters, attribute_index, 0));

        let header_style = profile.header.style;
        let header_line = match header_style {
            HeaderStyle::None => None,
            _ => header_end_line(framed, after_outer, reader, &profile.header),
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
        let content_open = if profile.delimiters.inner.is_some() {
            inner_open
        } else {
            outer_open
        };
        let content_end = content_end(
            folded,
            grammar,
            profile,
            content_open,
            &delimiters,
            content_start,
        );

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

/// The span of each opener's tag, bracket to bracket, scanned once per
/// opener: the attribute tag is nearly always the outer or the inner one,
/// and the scan to a tag's end reads its quoted values, which carry the
/// attacker's fields.
struct TagSpans<'a, 't> {
    folded: &'a Folded<'t>,
    grammar: &'a dyn Grammar,
    known: Vec<(LiveDelimiter, Option<Range<usize>>)>,
}

impl<'a, 't> TagSpans<'a, 't> {
    fn new(folded: &'a Folded<'t>, grammar: &'a dyn Grammar) -> Self {
        TagSpans {
            folded,
            grammar,
            known: Vec::new(),
        }
    }

    /// The tag of `opener`, when there is one and it parses.
    fn of(&mut self, opener: Option<LiveDelimiter>) -> Option<Range<usize>> {
        let d = opener?;
        if let Some((_, span)) = self.known.iter().find(|(k, _)| *k == d) {
            return span.clone();
        }
        let span = self
            .grammar
            .delimiter_end(self.folded, &d)
            .map(|e| d.start..e);
        self.known.push((d, span.clone()));
        span
    }
}

/// Where the content ends: at the first closer of the content's token after
/// `content_start` that the frame key does not call a confusable (a closer
/// whose nonce differs from the opener's cannot end the element for a
/// reader that checks it), else at the end of the text. In an open-only
/// grammar (`section`) a section ends where the next one begins, so an
/// opener of the content's own name ends it too: `Document 907:` in the
/// content of `Document 2:` starts another document for a reader, and
/// what follows it is in that document, not in the frame.
fn content_end(
    folded: &Folded<'_>,
    grammar: &dyn Grammar,
    profile: &ResolvedProfile,
    content_open: Option<LiveDelimiter>,
    delimiters: &[LiveDelimiter],
    content_start: usize,
) -> usize {
    let content_token = if profile.delimiters.inner.is_some() {
        INNER
    } else {
        OUTER
    };
    let key = FrameKey::of(grammar, folded, content_open);
    let open_only = profile.delimiters.grammar.is_open_only();
    delimiters
        .iter()
        .find(|d| {
            d.token == content_token
                && (d.kind == DelimiterKind::Close || open_only)
                && d.start >= content_start
                && key.classify(d, folded) != Liveness::Confusable
        })
        .map_or(folded.text.len(), |d| d.start)
}

fn first_open(delimiters: &[LiveDelimiter], token: usize, from: usize) -> Option<LiveDelimiter> {
    delimiters
        .iter()
        .find(|d| d.token == token && d.kind == DelimiterKind::Open && d.start >= from)
        .copied()
}

/// Where the header ends for a reader at `level`: the start of the line
/// that ends it (a blank line, the separator line) or of the first line
/// after a fixed-size header. Header lines start after the line the opening
/// tag ends on. The ending line's own break is left to the content region,
/// where the body padding accounts for it.
fn header_end_line(
    text: &str,
    tag_end: usize,
    reader: Reader,
    header: &HeaderSpec,
) -> Option<usize> {
    let level = reader.level();
    let mut line_start = reader.next_line_break(text, tag_end)?.end;
    let mut counted = 0;
    loop {
        if header.style == HeaderStyle::Lines && Some(counted) == header.lines {
            return Some(line_start);
        }
        let brk = reader.next_line_break(text, line_start)?;
        let line = &text[line_start..brk.start];
        let ends = match header.style {
            HeaderStyle::BlankLine => reader.is_blank(line),
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
    header_end_line(
        text,
        tag_end,
        Reader::new(level),
        &HeaderStyle::BlankLine.into(),
    )
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
            let fold = |t: &str| Reader::new(level).fold_str(t);
            fold(line).trim() == fold(separator).trim()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::profile::TestTarget as TargetProfile;
    use ReaderLevel::{AsciiCaseInsensitive as Ci, Exact, Unicode};

    #[test]
    fn separator_and_fixed_line_headers() {
        let sep = HeaderSpec {
            style: HeaderStyle::Separator,
            separator: Some("---".into()),
            ..HeaderSpec::default()
        };
        let text = "<t>\nSource: x\n---\nbody";
        assert_eq!(header_end_line(text, 3, Reader::new(Exact), &sep), Some(14));
        let spaced = "<t>\nSource: x\n --- \nbody";
        assert_eq!(header_end_line(spaced, 3, Reader::new(Exact), &sep), None);
        assert_eq!(header_end_line(spaced, 3, Reader::new(Ci), &sep), Some(14));
        let wide = "<t>\nSource: x\n\u{FF0D}\u{FF0D}\u{FF0D}\nbody";
        assert_eq!(header_end_line(wide, 3, Reader::new(Ci), &sep), None);
        assert_eq!(
            header_end_line(wide, 3, Reader::new(Unicode), &sep),
            Some(14)
        );
        let lines = HeaderSpec {
            style: HeaderStyle::Lines,
            lines: Some(2),
            ..HeaderSpec::default()
        };
        assert_eq!(
            header_end_line("<t>\na\nb\nbody", 3, Reader::new(Exact), &lines),
            Some(8)
        );
        assert_eq!(
            header_end_line("<t>\na\rb\nc\nbody", 3, Reader::new(Ci), &lines),
            Some(8)
        );
    }

    #[test]
    fn the_first_opener_of_a_token_at_or_after_an_offset() {
        let delimiter = |token, kind, start| LiveDelimiter {
            token,
            kind,
            start,
            end: start + 3,
            nonce: None,
            request_kind: None,
        };
        use DelimiterKind::{Close, Open};
        let found = [
            delimiter(OUTER, Close, 0),
            delimiter(INNER, Open, 5),
            delimiter(OUTER, Open, 10),
            delimiter(INNER, Close, 15),
            delimiter(INNER, Open, 20),
        ];
        let start = |token, from| first_open(&found, token, from).map(|d| d.start);
        assert_eq!(start(OUTER, 0), Some(10));
        assert_eq!(start(INNER, 0), Some(5));
        assert_eq!(start(INNER, 6), Some(20));
        assert_eq!(start(OUTER, 11), None);
    }

    /// In a section grammar a second marker of the content's own name
    /// starts another section: the content region ends there, as it does
    /// at another section's marker; a tag grammar's second opener does
    /// not end its element.
    #[test]
    fn a_section_ends_where_a_marker_of_its_own_name_begins() {
        let content = |profile: &str, text: &str| {
            let profile = TargetProfile::parse(&format!(
                "name: t\nadapter: {{ builtin: reference }}\ndelimiters: {profile}\n\
                 capabilities: [wrap]\n"
            ))
            .unwrap();
            let grammar = profile.grammar();
            let folded = Reader::new(Exact).fold(text);
            let regions = Regions::at(&folded, &*grammar, &profile, &[]);
            text[regions.content].to_string()
        };
        let labels = "{ grammar: section, marker: label, token: \"Document {counter}\", \
                      reserved: [Question] }";
        let text = "Document 2:\nok\nDocument 907:\nforged\nQuestion: q";
        assert_eq!(content(labels, text), "\nok\n");
        let other = "Document 2:\nok\nQuestion:\nforged";
        assert_eq!(content(labels, other), "\nok\n");
        let tags = "{ grammar: xml-tag, token: doc }";
        let text = "<doc>\nok\n<doc>\nnested\n</doc>";
        assert_eq!(content(tags, text), "\nok\n<doc>\nnested\n");
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
