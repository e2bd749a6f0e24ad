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

use super::{Alphabet, Echo, Layout, Part, PartKind, Region};

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
    /// The echo slots ([`super::echo`]): where the content is written
    /// again outside the body, and what calibration saw there.
    pub echoes: Vec<(Range<usize>, Echo)>,
}

impl Match {
    /// Spans outside the frame (before the opener, after the closer): the
    /// framing's constant text there is never a forged delimiter, even
    /// where it names one, and text there that is not the calibrated
    /// constant is judged by `frame.outer-text` alone.
    pub fn own_text(&self, layout: &Layout, len: usize) -> Vec<Range<usize>> {
        self.own_spans(layout, len, false)
    }

    /// [`Match::own_text`] for an open-only grammar (`section`), whose
    /// closer is the next section's marker the framing writes, not a
    /// delimiter the frame must have: that marker is the framing's own
    /// text too, so any other marker after the opener is a forged one.
    pub fn own_text_open_only(&self, layout: &Layout, len: usize) -> Vec<Range<usize>> {
        self.own_spans(layout, len, true)
    }

    /// The spans the request wrote: the content slot, the fields, and the
    /// spans that changed with the content. Everything else in a matched
    /// output (delimiters, constant text, per-call values) the framing
    /// wrote on its own, so nothing read there came from the input.
    pub fn input_spans(&self, layout: &Layout) -> Vec<Range<usize>> {
        let spans = self.head.iter().chain(self.tail.iter());
        let mut input: Vec<Range<usize>> = layout
            .parts()
            .zip(spans)
            .filter(|(part, _)| match &part.kind {
                PartKind::Field { .. } => true,
                PartKind::Variable(v) => v.content_dependent,
                PartKind::Fixed { .. } => false,
            })
            .map(|(_, span)| span.clone())
            .collect();
        input.push(self.content.clone());
        input
    }

    fn own_spans(&self, layout: &Layout, len: usize, with_closer: bool) -> Vec<Range<usize>> {
        let spans = self.head.iter().chain(self.tail.iter());
        let parts: Vec<(&Part, &Range<usize>)> = layout.parts().zip(spans).collect();
        // Fixed text inside the frame (a header notice) is not excluded: it
        // may hold the framing's own inner delimiters, which the census
        // must still find.
        let mut own: Vec<Range<usize>> = Vec::new();
        let located = |region: Region| {
            parts
                .iter()
                .filter(|(p, s)| p.region == region && !s.is_empty())
                .map(|(_, s)| (*s).clone())
                .reduce(|a, b| a.start.min(b.start)..a.end.max(b.end))
        };
        if let Some(opener) = located(Region::Opener) {
            own.push(0..opener.start);
        }
        if let Some(closer) = located(Region::Closer) {
            own.push(
                if with_closer {
                    closer.start
                } else {
                    closer.end
                }..len,
            );
        }
        // What the content writes in an echo slot is input, never the
        // framing's own text: a delimiter there is judged as in the body
        // (an unframed echo is outer text too).
        for (echo, _) in &self.echoes {
            own = own
                .into_iter()
                .flat_map(|r| [r.start..r.end.min(echo.start), r.start.max(echo.end)..r.end])
                .filter(|r| !r.is_empty())
                .collect();
        }
        own
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

/// Whether a gap part may hold `text`, before the fixed text `needle`. An
/// attribute list holds neither the bracket that ends its tag (`needle`)
/// nor its mirror outside quoted values: either would have ended the tag.
fn gap_allows(part: &Part, text: &str, needle: &str) -> bool {
    let mirror = |c: char| match c {
        '>' => '<',
        ']' => '[',
        other => other,
    };
    let closing: Vec<char> = needle.chars().collect();
    let barred = |c: char| closing.iter().any(|&b| c == b || c == mirror(b));
    match &part.kind {
        PartKind::Field {
            name: super::FieldName::Attributes,
            ..
        } => {
            let mut quote: Option<char> = None;
            text.chars().all(|c| {
                match quote {
                    Some(q) if c == q => quote = None,
                    Some(_) => {}
                    None if c == '"' || c == '\'' => quote = Some(c),
                    None if barred(c) => return false,
                    None => {}
                }
                true
            })
        }
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

/// A span that changes from call to call with the same input (a nonce),
/// not with the content.
fn is_per_call(part: &Part) -> bool {
    matches!(&part.kind, PartKind::Variable(v) if !v.content_dependent)
}

/// An echo slot a frame of its own encloses ([`super::echo`]): the
/// content is written again there, but inside a frame, not outside one.
fn is_framed_echo(part: &Part) -> bool {
    matches!(&part.kind, PartKind::Variable(v) if v.echo.is_some_and(|e| e.framed))
}

/// The most digits a count of the content has (`u64::MAX` has 20).
const MAX_COUNT_DIGITS: usize = 20;

/// Whether `text`, where a content-derived part lies, is a measure of the
/// content rather than text of it: a number (`[66 characters follow]`) or
/// a hex digest as long as calibration saw (`sha256: 3f2a…`). Either is
/// written by the framing from the content, but in an alphabet no content
/// chooses the characters of, so nothing the content says reaches the
/// reader there; a span of any other alphabet (a title taken from the
/// content) is still outer text.
fn is_measure(part: &Part, text: &str) -> bool {
    let PartKind::Variable(v) = &part.kind else {
        return false;
    };
    if !v.content_dependent || text.is_empty() {
        return false;
    }
    match v.alphabet {
        Alphabet::Digits => {
            text.len() <= MAX_COUNT_DIGITS && text.bytes().all(|b| b.is_ascii_digit())
        }
        Alphabet::Hex => {
            v.min_len == v.max_len
                && text.len() == v.max_len
                && text.bytes().all(|b| b.is_ascii_hexdigit())
        }
        _ => false,
    }
}

/// One direction of matching.
struct Side<'a> {
    text: &'a str,
    forward: bool,
}

/// A gap that may hold anything: text outside the frame skipped over.
fn skipped_text() -> Part {
    Part {
        region: Region::Preamble,
        kind: PartKind::Variable(super::Variable {
            alphabet: super::Alphabet::Any,
            min_len: 0,
            max_len: usize::MAX / 4,
            content_dependent: true,
            echo: None,
        }),
    }
}

impl<'a> Side<'a> {
    /// Where `needle` may be placed from `cursor`: touching the cursor when
    /// there is no gap, else the first (head) or last (tail) place the gap
    /// allows, preferring one that `next` (the following fixed text)
    /// directly continues, so a field value holding the fixed text after
    /// it, or a `>` in an attribute value, does not end the gap early.
    fn place(
        &self,
        needle: &str,
        cursor: usize,
        gap: Option<&Part>,
        next: Option<&str>,
    ) -> Option<Range<usize>> {
        if gap.is_none() {
            // Without a gap only the place touching the cursor fits.
            let touching = if self.forward {
                self.text[cursor..]
                    .starts_with(needle)
                    .then(|| cursor..cursor + needle.len())
            } else {
                self.text[..cursor]
                    .ends_with(needle)
                    .then(|| cursor - needle.len()..cursor)
            };
            return touching;
        }
        let candidates = self.candidates(needle, cursor);
        let gap_fits = |span: &Range<usize>| {
            let gap_text = if self.forward {
                &self.text[cursor..span.start]
            } else {
                &self.text[span.end..cursor]
            };
            gap.map_or(gap_text.is_empty(), |g| gap_allows(g, gap_text, needle))
        };
        let continued = |span: &Range<usize>| {
            next.is_none_or(|n| {
                if self.forward {
                    self.text[span.end..].starts_with(n)
                } else {
                    self.text[..span.start].ends_with(n)
                }
            })
        };
        // The first fitting place that `next` continues, else the first
        // fitting place: scanned lazily, nearest first, so the usual case
        // (the first place fits and is continued) costs one search, not a
        // list of every occurrence in a large content.
        let mut first_fitting = None;
        for span in candidates.filter(gap_fits) {
            if continued(&span) {
                return Some(span);
            }
            first_fitting.get_or_insert(span);
        }
        first_fitting
    }

    /// Every occurrence of `needle` on this side of `cursor`, nearest first.
    fn candidates<'n>(
        &self,
        needle: &'n str,
        cursor: usize,
    ) -> Box<dyn Iterator<Item = Range<usize>> + 'n>
    where
        'a: 'n,
    {
        let len = needle.len();
        if self.forward {
            let rest = &self.text[cursor..];
            Box::new(
                rest.match_indices(needle)
                    .map(move |(i, _)| cursor + i..cursor + i + len),
            )
        } else {
            Box::new(
                self.text[..cursor]
                    .rmatch_indices(needle)
                    .map(move |(i, _)| i..i + len),
            )
        }
    }
}

/// What one side's matching found.
struct SideMatch {
    spans: Vec<Range<usize>>,
    cursor: usize,
    outer: Vec<Range<usize>>,
    mismatch: Option<Mismatch>,
}

/// Matches the parts of one side (the head forward from `start`, the tail,
/// reversed, backward from `start`).
fn match_side(
    text: &str,
    parts: &[&Part],
    forward: bool,
    start: usize,
    restartable: bool,
) -> SideMatch {
    let side = Side { text, forward };
    let outside = outside_region(forward);
    let first_inside = parts.iter().position(|p| p.region != outside);
    let mut m = SideMatch {
        spans: vec![0..0; parts.len()],
        cursor: start,
        outer: Vec::new(),
        mismatch: None,
    };
    let mut gap: Option<usize> = None;
    let mut i = 0;
    while i < parts.len() {
        let part = parts[i];
        if !matches!(part.kind, PartKind::Fixed { .. }) {
            gap = Some(i);
            i += 1;
            continue;
        }
        let placed = place_fixed(&side, parts, i, gap, m.cursor, first_inside, restartable);
        if placed.is_none() && part.region == outside {
            // The constant text outside the frame is not there as
            // calibrated: skip to the frame itself, and what is skipped is
            // outer text.
            if let Some(j) = first_inside {
                gap = None;
                i = j;
                continue;
            }
        }
        let Some(span) = placed else {
            m.mismatch = Some(Mismatch {
                region: part.region,
                part: describe(part),
                at: m.cursor,
            });
            return m;
        };
        record_span(&mut m, text, parts, gap, i, span, forward);
        gap = None;
        i += 1;
    }
    if let Some(g) = gap {
        m.spans[g] = m.cursor..m.cursor;
    }
    m
}

/// The region outside the frame on a side: the preamble before the head,
/// the text after the tail.
fn outside_region(forward: bool) -> Region {
    if forward {
        Region::Preamble
    } else {
        Region::After
    }
}

/// Where the fixed part `i` is found from `cursor`, trying the calibrated
/// place first and then the places where text outside the frame may have
/// been skipped. `None` for a part that is not fixed text, or not found.
fn place_fixed(
    side: &Side<'_>,
    parts: &[&Part],
    i: usize,
    gap: Option<usize>,
    cursor: usize,
    first_inside: Option<usize>,
    restartable: bool,
) -> Option<Range<usize>> {
    let PartKind::Fixed { text: needle } = &parts[i].kind else {
        return None;
    };
    let forward = side.forward;
    let next = match parts.get(i + 1).map(|p| &p.kind) {
        Some(PartKind::Fixed { text }) => Some(text.as_str()),
        _ => None,
    };
    let mut placed = side.place(needle, cursor, gap.map(|g| parts[g]), next);
    if placed.is_none() && gap.is_none() && Some(i) == first_inside {
        // The frame's first fixed text further on: what lies before it
        // is outside the frame. Content quoted there may spell the
        // opener too, so take the first place the rest of the side fits.
        placed = side.place(needle, cursor, Some(&skipped_text()), next);
        if restartable {
            let fits = |span: &Range<usize>| {
                let from = if forward { span.start } else { span.end };
                match_side(side.text, &parts[i..], forward, from, false)
                    .mismatch
                    .is_none()
            };
            if let Some(span) = side.candidates(needle, cursor).into_iter().find(fits) {
                placed = Some(span);
            }
        }
    }
    if placed.is_none() && gap.is_none() && parts[i].region == outside_region(forward) {
        // Constant text outside the frame found further on: what it
        // skips is outer text.
        placed = side.place(needle, cursor, Some(&skipped_text()), next);
    }
    placed
}

/// Records fixed part `i` at `span`, gives what it skipped to the variable
/// part before it (`gap`) or to the outer text, and moves the cursor past it.
fn record_span(
    m: &mut SideMatch,
    text: &str,
    parts: &[&Part],
    gap: Option<usize>,
    i: usize,
    span: Range<usize>,
    forward: bool,
) {
    let skipped = if forward {
        m.cursor..span.start
    } else {
        span.end..m.cursor
    };
    match gap {
        Some(g) => {
            // A per-call variable part outside the frame (a preamble
            // naming the tag with its nonce) fits as it does inside the
            // frame, and so does a measure of the content (its length or
            // digest); anything else skipped there is outer text.
            if parts[g].region.is_outside()
                && !is_per_call(parts[g])
                && !is_measure(parts[g], &text[skipped.clone()])
                && !is_framed_echo(parts[g])
            {
                m.outer.push(skipped.clone());
            }
            m.spans[g] = skipped;
        }
        None if !skipped.is_empty() => m.outer.push(skipped),
        None => {}
    }
    m.cursor = if forward { span.end } else { span.start };
    m.spans[i] = span;
}

impl Layout {
    /// Matches `framed` against the layout. A [`Match`] always comes back;
    /// its `mismatch` says whether the output fits.
    pub fn matches(&self, framed: &str) -> Match {
        let head: Vec<&Part> = self.head.iter().collect();
        let h = match_side(framed, &head, true, 0, true);
        let tail: Vec<&Part> = self.tail.iter().rev().collect();
        let floor = if h.mismatch.is_some() { 0 } else { h.cursor };
        let t = match_side(&framed[floor..], &tail, false, framed.len() - floor, true);
        let shift = |r: Range<usize>| r.start + floor..r.end + floor;
        let mut tail_spans: Vec<Range<usize>> = t.spans.into_iter().map(shift).collect();
        tail_spans.reverse();
        let mut outer = h.outer;
        outer.extend(t.outer.into_iter().map(shift));
        let tail_start = t.cursor + floor;
        let echoes = self
            .parts()
            .zip(h.spans.iter().chain(tail_spans.iter()))
            .filter_map(|(part, span)| match &part.kind {
                PartKind::Variable(v) => v.echo.map(|e| (span.clone(), e)),
                _ => None,
            })
            .collect();
        Match {
            echoes,
            head: h.spans,
            tail: tail_spans,
            content: h.cursor.min(tail_start)..tail_start,
            outer_text: outer,
            mismatch: h.mismatch.or(t.mismatch.map(|m| Mismatch {
                at: m.at + floor,
                ..m
            })),
        }
    }
}

impl Layout {
    /// Matches `framed`, the output for empty content, against the learned
    /// empty frame ([`Layout::empty`]): the spans of its parts when the
    /// whole output fits it, else `None`.
    pub fn matches_empty(&self, framed: &str) -> Option<Vec<Range<usize>>> {
        let parts: Vec<&Part> = self.empty.as_ref()?.iter().collect();
        let mut m = match_side(framed, &parts, true, 0, false);
        if m.mismatch.is_some() || !m.outer.is_empty() {
            return None;
        }
        // What is left after the last fixed text must fit a trailing gap.
        let rest = &framed[m.cursor..];
        match parts.last() {
            Some(last) if !matches!(last.kind, PartKind::Fixed { .. }) => {
                if !gap_allows(last, rest, "") {
                    return None;
                }
                let end = m.spans.len() - 1;
                m.spans[end] = m.cursor..framed.len();
            }
            _ if !rest.is_empty() => return None,
            _ => {}
        }
        Some(m.spans)
    }
}

/// Where `encoded` (one line, as the codec writes it) stands in `framed`,
/// line breaks allowed between its characters: a writer may wrap a long
/// encoded line (MIME base64 at 76 characters, PEM at 64), which the
/// codec reads back the same. The span starts and ends on its characters.
pub(super) fn find_wrapped(framed: &str, encoded: &str) -> Option<(usize, usize)> {
    let first = encoded.chars().next()?;
    framed.match_indices(first).find_map(|(start, _)| {
        let mut rest = framed[start..].char_indices().peekable();
        for want in encoded.chars() {
            while rest.next_if(|&(_, c)| matches!(c, '\n' | '\r')).is_some() {}
            match rest.next() {
                Some((_, c)) if c == want => {}
                _ => return None,
            }
        }
        let end = rest.peek().map_or(framed.len(), |&(at, _)| start + at);
        Some((start, end))
    })
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
                echo: None,
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
            encoding: BodyEncoding::None.into(),
            encoding_declared: false,
            per_content: Vec::new(),
            datamark: "^".into(),
            datamark_replaces: Default::default(),
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
            empty: None,
            one_line: None,
        }
    }

    #[test]
    fn an_output_is_judged_in_the_first_per_content_encoding_that_explains_it() {
        let mut layout = layout();
        let (none, json) = (BodyEncoding::None.into(), BodyEncoding::JsonString.into());
        assert_eq!(
            layout.encoding_for("\"a\"", "a"),
            none,
            "one encoding: always it"
        );
        layout.encoding = json;
        layout.per_content = vec![none, json];
        assert_eq!(layout.encoding_for("say \"hi\"", "say \"hi\""), none);
        assert_eq!(layout.encoding_for("\"a\\nb\"", "a\nb"), json);
        // Explained by neither: the encoding that decodes it (the writer's
        // attempt), else the first listed.
        assert_eq!(layout.encoding_for("\"a\\nc\"", "a\nb"), json);
        assert_eq!(layout.encoding_for("a \"b", "a b"), none);
        assert_eq!(
            layout.encoding_label(),
            "{ per-content: [none, json-string] }"
        );
        assert!(layout.template().contains("{content:none or json-string}"));
    }

    /// Issue 57, item 3: one declared encoding judges a body it cannot
    /// read at all as written when the body is the content (a raw output
    /// of a framing that encodes only some content), and in itself
    /// otherwise: a raw body that loses content, and a body it reads to
    /// other text, stay judged encoded (a fidelity finding).
    #[test]
    fn one_encoding_judges_a_body_it_cannot_read_that_is_the_content_as_raw() {
        let mut layout = layout();
        let (none, json) = (BodyEncoding::None.into(), BodyEncoding::JsonString.into());
        layout.encoding = json;
        // Raw one-line outputs no JSON string reader accepts.
        for content in ["{\"id\": 7}", "\\langle x \\rangle"] {
            assert_eq!(layout.encoding_for(content, content), none, "{content:?}");
        }
        // Raw control characters a lenient JSON reader takes as themselves
        // (`json.loads(strict=False)`): both shapes explain the output, so
        // it is judged as declared, and reads back whole either way.
        for content in ["   \t  ", "record\u{0}1\u{7}end"] {
            assert_eq!(layout.encoding_for(content, content), json, "{content:?}");
        }
        assert_eq!(layout.encoding_for("\"a\\nb\"", "a\nb"), json, "encoded");
        // Raw, but not the content: the loss is judged under the encoding.
        assert_eq!(layout.encoding_for("{\"id\": 7", "{\"id\": 7}"), json);
        // Readable as JSON, to other text than the content: judged in it.
        assert_eq!(layout.encoding_for("a\\nb", "a\\nb"), json);
        assert_eq!(
            layout.encoding_for("plain", "plain"),
            json,
            "readable either way"
        );
        // Written raw, but readable as JSON (`\f` is an escape): an output
        // both shapes explain is judged as declared.
        assert_eq!(layout.encoding_for("\\frac{a}", "\\frac{a}"), json);
    }

    #[test]
    fn a_fitting_output_yields_the_content_and_own_text() {
        let l = layout();
        let out = "Data in <d> tags.\n<d id=\"00ff00ff\">\nSource: web\n---\nhi </d> there\n</d id=\"00ff00ff\">\nEnd.";
        let m = l.matches(out);
        assert_eq!(m.mismatch, None);
        assert_eq!(&out[m.content.clone()], "hi </d> there");
        assert!(m.outer_text.is_empty());
        assert_eq!(
            &out[m.own_text(&l, out.len())[0].clone()],
            "Data in <d> tags.\n"
        );
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

    /// A preamble naming the tag with the call's nonce: the nonce there is
    /// a per-call part like the opener's, not outer text; a span that
    /// changed with the content there still is (here text of any
    /// alphabet, as a title taken from the content is).
    #[test]
    fn a_nonce_outside_the_frame_is_matched_and_derived_text_is_not() {
        let variable = |content_dependent| Part {
            region: Region::Preamble,
            kind: PartKind::Variable(Variable {
                alphabet: if content_dependent {
                    Alphabet::Any
                } else {
                    Alphabet::Hex
                },
                min_len: 8,
                max_len: 8,
                content_dependent,
                echo: None,
            }),
        };
        let mut l = layout();
        l.head.splice(
            0..1,
            [
                fixed(Region::Preamble, "Data in <d id=\""),
                variable(false),
                fixed(Region::Preamble, "\"> tags.\n"),
            ],
        );
        let out = "Data in <d id=\"0a0b0c0d\"> tags.\n<d id=\"00ff00ff\">\nSource: web\n---\nhi\n</d id=\"00ff00ff\">\nEnd.";
        let m = l.matches(out);
        assert_eq!((m.mismatch, m.outer_text), (None, vec![]));
        l.head[1] = variable(true);
        let m = l.matches(out);
        let outer: Vec<&str> = m.outer_text.iter().map(|r| &out[r.clone()]).collect();
        assert_eq!(outer, vec!["0a0b0c0d"]);
    }

    /// A count or a digest of the content outside the frame is a measure
    /// of it, not text of it: it fits; the same place holding anything
    /// else (a word, a digest of another length, a number too long to be
    /// a count) is outer text.
    #[test]
    fn a_count_or_digest_outside_the_frame_is_not_outer_text() {
        let derived = |region, alphabet, len| Part {
            region,
            kind: PartKind::Variable(Variable {
                alphabet,
                min_len: len,
                max_len: len,
                content_dependent: true,
                echo: None,
            }),
        };
        let mut l = layout();
        l.head.splice(
            0..1,
            [
                fixed(Region::Preamble, "["),
                derived(Region::Preamble, Alphabet::Digits, 2),
                fixed(Region::Preamble, " characters]\n"),
            ],
        );
        l.tail.extend([
            fixed(Region::After, "\nsha: "),
            derived(Region::After, Alphabet::Hex, 8),
        ]);
        let frame = "<d id=\"00ff00ff\">\nSource: web\n---\nhi\n</d id=\"00ff00ff\">\nEnd.\nsha: ";
        let outer = |out: &str| {
            let m = l.matches(out);
            assert_eq!(m.mismatch, None, "{out}");
            m.outer_text
                .iter()
                .map(|r| out[r.clone()].to_string())
                .collect::<Vec<_>>()
        };
        // Another count than calibration's, of another width, fits.
        assert!(outer(&format!("[1234 characters]\n{frame}9f86d081")).is_empty());
        let words = format!("[the end characters]\n{frame}9f86d081");
        assert_eq!(outer(&words), vec!["the end"]);
        let long = format!("[{} characters]\n{frame}9f86d081", "1".repeat(21));
        assert_eq!(outer(&long), vec!["1".repeat(21)]);
        let short_digest = format!("[12 characters]\n{frame}9f86d0");
        assert_eq!(outer(&short_digest), vec!["9f86d0"]);
        let not_hex = format!("[12 characters]\n{frame}</d>xyzw");
        assert_eq!(outer(&not_hex), vec!["</d>xyzw"]);
    }

    /// The frame for empty content matches only as a whole.
    #[test]
    fn the_empty_frame_matches_whole_outputs_only() {
        let mut l = layout();
        l.empty = Some(vec![fixed(Region::Opener, "<d />")]);
        let whole: Vec<Range<usize>> = std::iter::once(0..5).collect();
        assert_eq!(l.matches_empty("<d />"), Some(whole));
        assert_eq!(l.matches_empty("<d /> and more"), None);
        assert_eq!(l.matches_empty("x<d />"), None);
        assert_eq!(layout().matches_empty("<d />"), None);
    }
}
