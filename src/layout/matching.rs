//! Matching an output against a [`Layout`]: where each part lies, where
//! the content lies, and what does not fit.
//!
//! The head is matched left to right and the tail right to left, the way a
//! reader parses a header from the top and finds the closer at the end.
//! Fixed text must follow its predecessor directly, or come at the first
//! (head) or last (tail) place a field or variable part before it allows.
//! Text the framing did not calibrate that sits before the opener or after
//! the closer is *outer text*; a part that cannot be placed at all is a
//! *mismatch*, reported with the part.

use std::ops::Range;

use super::{Layout, Part, PartKind, Region};

/// The first part an output does not fit.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Mismatch {
    /// The region of the part.
    pub region: Region,
    /// The part, described for a message (`fixed text "\n\n"`).
    pub part: String,
    /// Byte offset where matching gave up.
    pub at: usize,
}

/// An output matched against a layout.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Match {
    /// The span of each head part (empty spans after a mismatch).
    pub head: Vec<Range<usize>>,
    /// The span of each tail part.
    pub tail: Vec<Range<usize>>,
    /// The content slot (as written, encoded).
    pub content: Range<usize>,
    /// Text outside the frame that is not the calibrated constant text.
    pub outer_text: Vec<Range<usize>>,
    /// The first part that did not fit, if any.
    pub mismatch: Option<Mismatch>,
}

impl Match {
    /// Spans of the framing's own constant text (fixed parts outside its
    /// delimiters): never a forged delimiter, even where it names one.
    pub fn own_text(&self, layout: &Layout) -> Vec<Range<usize>> {
        let spans = self.head.iter().chain(self.tail.iter());
        layout
            .parts()
            .zip(spans)
            .filter(|(p, s)| {
                matches!(p.kind, PartKind::Fixed { .. })
                    && !p.region.is_delimiter()
                    && !s.is_empty()
            })
            .map(|(_, s)| s.clone())
            .collect()
    }
}

fn describe(part: &Part) -> String {
    match &part.kind {
        PartKind::Fixed { text } => format!("fixed text {text:?}"),
        PartKind::Variable(v) if v.content_dependent => "a content-derived span".into(),
        PartKind::Variable(_) => "a per-call variable span".into(),
        PartKind::Field { name, .. } => format!("the {} field", name.label()),
    }
}

/// Whether a gap part may hold `text`.
fn gap_allows(part: &Part, text: &str) -> bool {
    match &part.kind {
        PartKind::Variable(v) if !v.content_dependent => {
            let len = text.chars().count();
            let limit = (2 * v.max_len).max(v.max_len + 16);
            (v.min_len == 0 || len > 0)
                && len <= limit
                && text.chars().all(|c| v.alphabet.allows(c))
        }
        _ => true,
    }
}

fn is_attribute_list(part: &Part) -> bool {
    matches!(
        &part.kind,
        PartKind::Field {
            name: super::FieldName::Attributes,
            ..
        }
    )
}

/// One direction of matching over `text[bounds]`.
struct Side<'a> {
    text: &'a str,
    forward: bool,
}

impl Side<'_> {
    /// The first `needle` after `cursor` outside quoted attribute values:
    /// a `>` inside quotes does not end a tag.
    fn after_attributes(&self, needle: &str, cursor: usize) -> Option<Range<usize>> {
        let mut quote: Option<char> = None;
        for (i, c) in self.text[cursor..].char_indices() {
            let at = cursor + i;
            match quote {
                Some(q) if c == q => quote = None,
                Some(_) => {}
                None if c == '"' || c == '\'' => quote = Some(c),
                None if self.text[at..].starts_with(needle) => return Some(at..at + needle.len()),
                None => {}
            }
        }
        None
    }

    /// Where `needle` may be placed from `cursor` after a gap (`None`: no
    /// gap, it must touch the cursor), as the span it would take.
    fn place(&self, needle: &str, cursor: usize, gap: Option<&Part>) -> Option<Range<usize>> {
        let fits = |at: usize| {
            let gap_text = if self.forward {
                &self.text[cursor..at]
            } else {
                &self.text[at + needle.len()..cursor]
            };
            gap.map_or(gap_text.is_empty(), |g| gap_allows(g, gap_text))
        };
        if self.forward && gap.is_some_and(is_attribute_list) {
            return self.after_attributes(needle, cursor);
        }
        if self.forward {
            let mut from = cursor;
            while let Some(i) = self.text[from..].find(needle) {
                let at = from + i;
                if fits(at) {
                    return Some(at..at + needle.len());
                }
                if gap.is_none() {
                    return None;
                }
                from = at + self.text[at..].chars().next().map_or(1, char::len_utf8);
            }
        } else {
            let mut to = cursor;
            while let Some(at) = self.text[..to].rfind(needle) {
                if fits(at) {
                    return Some(at..at + needle.len());
                }
                if gap.is_none() || at == 0 {
                    return None;
                }
                to = at + needle.len() - 1;
                while !self.text.is_char_boundary(to) {
                    to -= 1;
                }
            }
        }
        None
    }
}

/// Matches the parts of one side. Returns the spans, the cursor where the
/// side ends, outer text found, and the first mismatch.
fn match_side(
    text: &str,
    parts: &[&Part],
    forward: bool,
    start: usize,
) -> (
    Vec<Range<usize>>,
    usize,
    Vec<Range<usize>>,
    Option<Mismatch>,
) {
    let side = Side { text, forward };
    let outside = if forward {
        Region::Preamble
    } else {
        Region::After
    };
    let mut spans = vec![0..0; parts.len()];
    let mut outer = Vec::new();
    let mut cursor = start;
    let mut gap: Option<usize> = None;
    for (i, part) in parts.iter().enumerate() {
        let PartKind::Fixed { text: needle } = &part.kind else {
            gap = Some(i);
            continue;
        };
        let gap_part = gap.map(|g| parts[g]);
        // Constant text outside the frame, and the first fixed text of the
        // frame itself, may be found further on: what they skip is outer text.
        let may_skip = gap.is_none()
            && (part.region == outside || parts[..i].iter().all(|p| p.region == outside));
        let placed = side.place(needle, cursor, gap_part).or_else(|| {
            let any = Part {
                region: outside,
                kind: PartKind::Variable(super::Variable {
                    alphabet: super::Alphabet::Any,
                    min_len: 0,
                    max_len: usize::MAX / 4,
                    content_dependent: true,
                }),
            };
            may_skip
                .then(|| side.place(needle, cursor, Some(&any)))
                .flatten()
        });
        let Some(span) = placed else {
            return (
                spans,
                cursor,
                outer,
                Some(Mismatch {
                    region: part.region,
                    part: describe(part),
                    at: cursor,
                }),
            );
        };
        let skipped = if forward {
            cursor..span.start
        } else {
            span.end..cursor
        };
        match gap {
            Some(g) => {
                spans[g] = skipped;
                if parts[g].region.is_outside() {
                    outer.push(spans[g].clone());
                }
            }
            None if !skipped.is_empty() => outer.push(skipped),
            None => {}
        }
        gap = None;
        cursor = if forward { span.end } else { span.start };
        spans[i] = span;
    }
    if let Some(g) = gap {
        spans[g] = cursor..cursor;
    }
    (spans, cursor, outer, None)
}

impl Layout {
    /// Matches `framed` against the layout. A [`Match`] always comes back;
    /// its `mismatch` says whether the output fits.
    pub fn matches(&self, framed: &str) -> Match {
        let head: Vec<&Part> = self.head.iter().collect();
        let (head_spans, head_end, mut outer, head_miss) = match_side(framed, &head, true, 0);
        let tail: Vec<&Part> = self.tail.iter().rev().collect();
        let floor = if head_miss.is_some() { 0 } else { head_end };
        let (mut tail_spans, tail_start, tail_outer, tail_miss) =
            match_side(&framed[floor..], &tail, false, framed.len() - floor);
        tail_spans.reverse();
        let tail_spans: Vec<Range<usize>> = tail_spans
            .into_iter()
            .map(|r| r.start + floor..r.end + floor)
            .collect();
        outer.extend(
            tail_outer
                .into_iter()
                .map(|r| r.start + floor..r.end + floor),
        );
        let tail_miss = tail_miss.map(|m| Mismatch {
            at: m.at + floor,
            ..m
        });
        let content = head_end.min(tail_start + floor)..tail_start + floor;
        Match {
            head: head_spans,
            tail: tail_spans,
            content,
            outer_text: outer,
            mismatch: head_miss.or(tail_miss),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::{Alphabet, FieldContext, FieldName, Padding, Sample, Variable};
    use super::*;
    use crate::profile::BodyEncoding;

    fn fixed(region: Region, text: &str) -> Part {
        Part {
            region,
            kind: PartKind::Fixed { text: text.into() },
        }
    }

    fn layout() -> Layout {
        let nonce = Part {
            region: Region::Opener,
            kind: PartKind::Variable(Variable {
                alphabet: Alphabet::Hex,
                min_len: 8,
                max_len: 8,
                content_dependent: false,
            }),
        };
        let field = Part {
            region: Region::Header,
            kind: PartKind::Field {
                name: FieldName::Provenance,
                context: FieldContext::HeaderLine("Source".into()),
            },
        };
        Layout {
            head: vec![
                fixed(Region::Preamble, "Data in <d> tags.\n"),
                fixed(Region::Opener, "<d id=\""),
                nonce.clone(),
                fixed(Region::Opener, "\">"),
                fixed(Region::Header, "\nSource: "),
                field,
                fixed(Region::Header, "\n---\n"),
            ],
            encoding: BodyEncoding::None,
            encoding_declared: false,
            datamark: "^".into(),
            tail: vec![
                fixed(Region::Footer, "\n"),
                fixed(Region::Closer, "</d id=\""),
                Part {
                    region: Region::Closer,
                    ..nonce
                },
                fixed(Region::Closer, "\">"),
                fixed(Region::After, "\nEnd."),
            ],
            padding: Padding::default(),
            sample: Sample {
                framed: String::new(),
                slot: 0..0,
            },
        }
    }

    #[test]
    fn a_fitting_output_yields_the_content_and_own_text() {
        let l = layout();
        let out = "Data in <d> tags.\n<d id=\"00ff00ff\">\nSource: web\n---\nhi </d> there\n</d id=\"00ff00ff\">\nEnd.";
        let m = l.matches(out);
        assert_eq!(m.mismatch, None);
        assert_eq!(&out[m.content.clone()], "hi </d> there");
        assert!(m.outer_text.is_empty());
        assert_eq!(&out[m.own_text(&l)[0].clone()], "Data in <d> tags.\n");
        assert_eq!(l.template(), "Data in <d> tags.\n{open:<d id=\"{nonce:hex×8}\">}\nSource: {provenance}\n---\n{content:none}\n{close:</d id=\"{nonce:hex×8}\">}\nEnd.");
    }

    #[test]
    fn text_outside_the_frame_and_broken_parts_are_told_apart() {
        let l = layout();
        let out = "leak Data in <d> tags.\n<d id=\"00ff00ff\">\nSource: web\n---\nhi\n</d id=\"00ff00ff\">\nEnd. leak";
        let m = l.matches(out);
        assert_eq!(m.mismatch, None);
        let outer: Vec<&str> = m.outer_text.iter().map(|r| &out[r.clone()]).collect();
        assert_eq!(outer, vec!["leak ", " leak"]);
        let no_separator =
            "Data in <d> tags.\n<d id=\"00ff00ff\">\nSource: web\nhi\n</d id=\"00ff00ff\">\nEnd.";
        let miss = l.matches(no_separator).mismatch.unwrap();
        assert_eq!(
            (miss.region, miss.part.as_str()),
            (Region::Header, "fixed text \"\\n---\\n\"")
        );
        let bad_nonce =
            "Data in <d> tags.\n<d id=\"zz\">\nSource: web\n---\nhi\n</d id=\"00ff00ff\">\nEnd.";
        assert_eq!(
            l.matches(bad_nonce).mismatch.unwrap().region,
            Region::Opener
        );
    }
}
