//! Content written more than once: the slots besides the body (issue 57).
//!
//! Real framings write the content, or a piece of it, again outside the
//! body: a title line from its first line, a snippet of its first N
//! characters over the page, a preview frame before the full one. The
//! body is the last place the content is written whole (the learner
//! takes the last); every other place calibration finds it (whole or a
//! prefix of it, as encoded) is an *echo slot*: one content-derived part of the layout,
//! with the transform calibration saw and whether a live frame of the
//! profile's grammar encloses it. The oracle judges every slot: a framed
//! echo is no text outside the frame, but what the content writes there
//! is input, never the framing's own text, so a delimiter or canary in it
//! is judged as in the body; an echo that does not read back as a prefix
//! of the content is a fidelity finding (a truncated slot is none).

use std::ops::Range;

use serde::{Deserialize, Serialize};

use super::tokens::Segment;
use super::PartKind;
use crate::encoding::{self, Datamark};
use crate::grammar::{DelimiterKind, LiveDelimiter};
use crate::level::ReaderLevel;
use crate::profile::{BodyEncoding, Encoding, ResolvedProfile};
use crate::reader::Reader;

/// What an echo slot holds of the content, as calibration saw it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", tag = "of", content = "chars")]
pub enum Transform {
    /// The whole content (content shorter than any cut the framing makes).
    Whole,
    /// The content's first line (a title).
    FirstLine,
    /// The content's first `N` characters (a snippet), as written.
    Prefix(usize),
}

/// An echo slot: a content-derived part that holds the content again.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Echo {
    /// What it holds of the content.
    pub transform: Transform,
    /// Whether a live frame of the profile's grammar encloses it.
    pub framed: bool,
    /// How it is written: the body's encoding, or none (a title written
    /// raw over an escaped body).
    pub encoding: Encoding,
}

impl Echo {
    /// The slot written in `encoding` carries the content faithfully: it
    /// decodes to a prefix of it (the whole content, its first line, its
    /// first N characters). A cut is no loss while the body carries the
    /// content whole; a slot that reads as text the content never had (an
    /// escape cut in half, left raw) is.
    pub fn faithful(&self, slot: &str, content: &str, mark: Datamark<'_>) -> bool {
        encoding::decode(self.encoding, slot, mark).is_ok_and(|text| content.starts_with(&*text))
    }
}

impl super::Layout {
    /// Whether an echo slot held the whole content in calibration: the
    /// probes were too short to tell a title (the first line) from a
    /// preview (the first N characters) or a second copy.
    pub fn echoes_whole(&self) -> bool {
        self.parts().any(|p| {
            matches!(&p.kind, PartKind::Variable(v)
                if v.echo.is_some_and(|e| e.transform == Transform::Whole))
        })
    }
}

/// Where, in `head` (text before the body slot), the content is written
/// again: each place its encoded first word starts, widened to the longest
/// run that `encoded` (the whole content, encoded) begins with, less any
/// trailing whitespace, kept when that run goes past the first word (a
/// word alone is no echo).
fn echo_spans(head: &str, encoded: &str) -> Vec<Range<usize>> {
    let first = encoded.split_whitespace().next().unwrap_or(encoded);
    let mut spans: Vec<Range<usize>> = Vec::new();
    for (at, _) in head.match_indices(first) {
        if spans.last().is_some_and(|s| at < s.end) {
            continue;
        }
        // A line break or space at the run's end is as likely the
        // framing's (the line after a title) as the content's: left out.
        let len = head[at..]
            .char_indices()
            .zip(encoded.chars())
            .take_while(|((_, a), b)| a == b)
            .last()
            .map_or(0, |((i, c), _)| i + c.len_utf8());
        let len = head[at..at + len].trim_end().len();
        if len > first.len() {
            spans.push(at..at + len);
        }
    }
    spans
}

/// Whether a live delimiter of the profile's own token encloses `span` of
/// `framed`: the nearest before it opens, and the nearest after it closes
/// (in an open-only grammar, the nearest before opens).
fn is_framed(profile: &ResolvedProfile, framed: &str, span: &Range<usize>) -> bool {
    let grammar = profile.grammar();
    let folded = Reader::new(ReaderLevel::Exact).fold(framed);
    let live: Vec<LiveDelimiter> = grammar
        .live(&folded)
        .into_iter()
        .filter(|d| d.token == 0)
        .collect();
    let before = live.iter().rfind(|d| d.end <= span.start);
    let after = live.iter().find(|d| d.start >= span.end);
    let opens = before.is_some_and(|d| d.kind == DelimiterKind::Open);
    let closes = profile.delimiters.grammar.is_open_only()
        || after.is_some_and(|d| d.kind == DelimiterKind::Close);
    opens && closes
}

/// What `slot` (decoded) holds of `content`.
fn transform_of(slot: &str, content: &str) -> Transform {
    if slot == content {
        Transform::Whole
    } else if content.split('\n').next() == Some(slot) {
        Transform::FirstLine
    } else {
        Transform::Prefix(slot.chars().count())
    }
}

/// The calibration facts an echo is learned from: the first output, the
/// content it wrapped, and how the body writes it.
pub(super) struct Sample<'a> {
    /// The first calibration output.
    pub framed: &'a str,
    /// The content of its request.
    pub content: &'a str,
    /// The body's encoding.
    pub encoding: Encoding,
    /// The body's data-marking.
    pub mark: Datamark<'a>,
}

/// `segments` (of `sample.framed[offset..offset + len]`) with every echo
/// slot made one content-derived segment: the diff of two contents splits
/// an echo into the words that changed and the words that did not, and the
/// unchanged middle is no constant of the framing's.
pub(super) fn merge_echoes(
    profile: &ResolvedProfile,
    sample: &Sample<'_>,
    segments: Vec<Segment>,
    (offset, len): (usize, usize),
) -> Vec<Segment> {
    let text = &sample.framed[offset..offset + len];
    let mut merged = segments;
    for (span, encoding) in longest_echoes(sample, text) {
        let slot = &text[span.clone()];
        let Ok(decoded) = encoding::decode(encoding, slot, sample.mark) else {
            continue;
        };
        let absolute = span.start + offset..span.end + offset;
        let echo = Echo {
            transform: transform_of(&decoded, sample.content),
            framed: is_framed(profile, sample.framed, &absolute),
            encoding,
        };
        merged = replace_span(merged, &span, echo);
    }
    merged
}

/// The echo spans of `text` under the body's encoding and written raw, the
/// longer where two overlap, in order.
fn longest_echoes(sample: &Sample<'_>, text: &str) -> Vec<(Range<usize>, Encoding)> {
    let raw: Encoding = BodyEncoding::None.into();
    let mut found: Vec<(Range<usize>, Encoding)> = Vec::new();
    for encoding in [sample.encoding, raw] {
        let encoded = encoding::encode(encoding, sample.content, sample.mark);
        found.extend(
            echo_spans(text, &encoded)
                .into_iter()
                .map(|s| (s, encoding)),
        );
    }
    found.sort_by_key(|(s, _)| (s.start, std::cmp::Reverse(s.end)));
    let mut kept: Vec<(Range<usize>, Encoding)> = Vec::new();
    for (span, encoding) in found {
        if kept.last().is_none_or(|(k, _)| span.start >= k.end) {
            kept.push((span, encoding));
        }
    }
    kept
}

/// `segments` with the pieces inside `span` replaced by one echo segment;
/// a segment reaching over an edge of it keeps its part outside.
fn replace_span(segments: Vec<Segment>, span: &Range<usize>, echo: Echo) -> Vec<Segment> {
    let mut out: Vec<Segment> = Vec::new();
    let mut placed = false;
    for s in segments {
        if s.range.start < span.start {
            out.push(Segment {
                range: s.range.start..s.range.end.min(span.start),
                ..s.clone()
            });
        }
        if s.range.end > span.start && !placed {
            out.push(Segment {
                range: span.clone(),
                changed: Some(true),
                echo: Some(echo),
            });
            placed = true;
        }
        if s.range.end > span.end {
            out.push(Segment {
                range: s.range.start.max(span.end)..s.range.end,
                ..s
            });
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    // Through the layout's own API (its `learn` and `probes`), as a user of
    // the module sees it: the learner imports this module.
    use crate::layout as api;

    fn profile() -> ResolvedProfile {
        ResolvedProfile::parse(
            "name: t\nadapter: { builtin: reference }\n\
             delimiters: { syntax: xml-tag, token: doc }\nheader: none\n\
             capabilities: [wrap]\n",
        )
        .unwrap()
    }

    fn html(text: &str) -> String {
        encoding::encode(BodyEncoding::HtmlEntities, text, "")
    }

    /// Learns the layout of `wrap` from the usual probes, and wraps `case`.
    fn learned(wrap: &dyn Fn(&str) -> String, case: &str) -> (api::Layout, String) {
        let profile = profile();
        let probes = api::probes(&profile);
        let wraps: Vec<String> = probes.requests().iter().map(|r| wrap(&r.content)).collect();
        let layout =
            api::learn(&profile, &probes, &wraps).expect("content written twice is learned");
        (layout, wrap(case))
    }

    fn preview(cut_after_escaping: bool) -> impl Fn(&str) -> String {
        move |c: &str| {
            let shown = match cut_after_escaping {
                true => html(c).chars().take(200).collect(),
                false => html(&c.chars().take(200).collect::<String>()),
            };
            format!(
                "<doc part=\"preview\">\n{shown}\n</doc>\n<doc>\n{}\n</doc>",
                html(c)
            )
        }
    }

    /// Issue 57: a preview frame over the full frame (the content written
    /// whole twice by short probes) is learned, not refused: the body is
    /// the last, the preview one framed echo part, and a case whose
    /// preview is cut matches the layout with no outer text.
    #[test]
    fn a_preview_frame_over_the_full_frame_is_one_framed_echo() {
        let long = "a & b ".repeat(60);
        let (layout, framed) = learned(&preview(false), &long);
        assert!(layout
            .template()
            .starts_with("<doc part=\"preview\">\n{derived:any×"));
        assert!(layout.echoes_whole());
        let m = layout.matches(&framed);
        assert_eq!(m.mismatch, None);
        assert!(m.outer_text.is_empty(), "{:?}", m.outer_text);
        assert_eq!(m.echoes.len(), 1);
        let (span, echo) = m.echoes[0].clone();
        assert!(echo.framed);
        assert_eq!(echo.encoding, BodyEncoding::HtmlEntities.into());
        assert!(echo.faithful(&framed[span], &long, Datamark::from("")));
        // The echo is input: the framing's own text stops at its edges.
        let own = m.own_text(&layout, framed.len());
        assert!(own
            .iter()
            .all(|r| r.end <= m.echoes[0].0.start || r.start >= m.echoes[0].0.end));
    }

    /// A preview cut after escaping can end inside an escape: the cut
    /// `&am` reads back as text the content never had, so the slot is not
    /// faithful, while the same cut made before escaping is.
    #[test]
    fn a_preview_cut_inside_an_escape_is_not_faithful() {
        // 197 characters, then `&`: its escape `&amp;` is cut after `&am`.
        let content = format!("{}& tail", "x".repeat(197));
        let (layout, framed) = learned(&preview(true), &content);
        let m = layout.matches(&framed);
        let (span, echo) = m.echoes[0].clone();
        assert!(
            framed[span.clone()].ends_with("&am"),
            "{}",
            &framed[span.clone()]
        );
        assert!(!echo.faithful(&framed[span], &content, Datamark::from("")));
        let (layout, framed) = learned(&preview(false), &content);
        let (span, echo) = layout.matches(&framed).echoes[0].clone();
        assert!(echo.faithful(&framed[span], &content, Datamark::from("")));
    }

    /// A title framed but written raw over an escaped body is an echo in no
    /// encoding (its transform the first line); one before the frame with
    /// no frame of its own is unframed.
    #[test]
    fn a_raw_title_is_an_echo_written_raw() {
        let framed_title = |c: &str| {
            let title = c.split('\n').next().unwrap_or(c);
            format!(
                "<doc part=\"title\">\n{title}\n</doc>\n<doc>\n{}\n</doc>",
                html(c)
            )
        };
        let (layout, framed) = learned(&framed_title, "one\ntwo");
        let (_, echo) = layout.matches(&framed).echoes[0].clone();
        assert!(echo.framed);
        assert!(echo.encoding.is_none());
        let bare_title = |c: &str| {
            let title = c.split('\n').next().unwrap_or(c);
            format!("Title: {title}\n<doc>\n{}\n</doc>", html(c))
        };
        let (layout, framed) = learned(&bare_title, "one\ntwo");
        let m = layout.matches(&framed);
        assert!(!m.echoes[0].1.framed);
        assert!(!m.outer_text.is_empty(), "an unframed echo is outer text");
    }

    #[test]
    fn echo_spans_take_the_longest_run_past_the_first_word() {
        assert_eq!(echo_spans("x fca1 b c| fca1q", "fca1 b c d"), vec![2..10]);
        assert_eq!(
            echo_spans("fca1\nalone", "fca1 b"),
            Vec::<Range<usize>>::new()
        );
    }
}
