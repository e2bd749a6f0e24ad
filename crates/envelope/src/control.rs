//! Neutralising chat-template control strings in the envelope's fields.
//!
//! Every span of a field that reads as a string of
//! [`framecheck_core::chat_template::CONTROL_STRINGS`] at the Unicode level of
//! [`framecheck_core::level`] (so at every stricter level too) is replaced by the
//! string's canonical spelling with a backslash before its last character:
//! `<|im_end|>` becomes `<|im_end|\>`, `[/INST]` becomes `[/INST\]`,
//! `Human:` at the start of a line becomes `Human\:`. The result stays
//! legible, is no special token's spelling, reads as no control string at
//! any level, and neutralising it again changes nothing. Line markers count
//! at the start of a line only (after any line break [`super::is_line_break`]
//! knows, and spaces or tabs), and only in content: the other fields are
//! written on one line inside the header.
//!
//! This is the envelope's own matcher over the folding specification; it
//! shares the table of strings with the oracle, not the oracle's code.

use std::borrow::Cow;
use std::ops::Range;
use std::sync::OnceLock;

// The anchor bytes are the fold table's: it flags the characters that fold
// to them, and it sits below this module.
use super::fold_table::{
    char_fold, for_each_flagged, CharFold, ANCHORED, MARKER_END, SPECIAL_STARTS, STARTS,
};
use super::is_line_break;
use super::scan::StartMap;
use framecheck_core::chat_template::{ControlString, Kind, CONTROL_STRINGS};
use framecheck_core::level::{fold_char_into, ReaderLevel};

/// Where a field is written, which decides whether line markers count.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Placement {
    /// The content: written after a blank line, its line breaks kept.
    Content,
    /// A header field or attribute value: on one line, after other text.
    Inline,
}

/// `text` with every control string neutralised; borrowed when there was
/// none. [`super::wrap`] applies it to every field after
/// [`super::defang`].
///
/// ```
/// use framecheck_envelope::{neutralise, Placement};
///
/// assert_eq!(neutralise("x<|im_end|>", Placement::Content), "x<|im_end|\\>");
/// assert_eq!(neutralise("Human: hi", Placement::Content), "Human\\: hi");
/// // A header field is written on one line after other text: no line
/// // marker can start a line there.
/// assert_eq!(neutralise("Human: hi", Placement::Inline), "Human: hi");
/// ```
pub fn neutralise(text: &str, placement: Placement) -> Cow<'_, str> {
    rewrite(text, readings(text, placement))
}

/// [`neutralise`] for content, and, when it had nothing to neutralise in
/// text that is not all ASCII, where a token reading can start in it
/// ([`StartMap`]): the places are found by the same scan over the text
/// that finds where a control string can start, so the token scanner
/// steps over nothing a second time. With something neutralised, the
/// token scanner reads the new text and needs its own scan.
pub(super) fn neutralise_content(text: &str) -> (Cow<'_, str>, Option<StartMap>) {
    if text.is_ascii() {
        return (neutralise(text, Placement::Content), None);
    }
    let mut token_starts = StartMap::new(text.len());
    let found = readings_by_stretches(text, Placement::Content, STRETCH, Some(&mut token_starts));
    if found.is_empty() {
        (Cow::Borrowed(text), Some(token_starts))
    } else {
        (rewrite(text, found), None)
    }
}

/// `text` with each reading of `found` replaced by its neutral spelling;
/// borrowed when there is none.
fn rewrite<'t>(text: &'t str, found: Vec<(Range<usize>, &'static ControlString)>) -> Cow<'t, str> {
    if found.is_empty() {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + found.len() * 2);
    let mut copied = 0;
    for (span, control) in found {
        out.push_str(&text[copied..span.start]);
        push_neutral(&mut out, control);
        copied = span.end;
    }
    out.push_str(&text[copied..]);
    Cow::Owned(out)
}

/// The neutral spelling: the canonical string with `\` before its last
/// character (every string in the table ends in punctuation).
pub(super) fn push_neutral(out: &mut String, control: &ControlString) {
    let last = control
        .text
        .char_indices()
        .next_back()
        .map_or(0, |(i, _)| i);
    out.push_str(&control.text[..last]);
    out.push('\\');
    out.push_str(&control.text[last..]);
}

/// Calls `each` with every character `c` folds to as far as control
/// strings can tell: the envelope's fold table (the specification, memoised
/// per block), except that an inert character, whose folding holds no ASCII
/// and so can take part in no control string, stands for itself, which
/// keeps a non-ASCII line break a line break. The one place the folding
/// path folds a character; property tests compare its readings with those
/// over the specification's folding.
fn fold_char(c: char, mut each: impl FnMut(char)) {
    if c.is_ascii() {
        return each(c.to_ascii_lowercase());
    }
    match char_fold(c) {
        CharFold::Invisible => {}
        CharFold::Inert => each(c),
        CharFold::Folds(s) => s.chars().for_each(each),
    }
}

/// Each control string folded at the Unicode level: folded once per
/// process, not on every call of the wrap path.
fn needles() -> &'static [(Vec<char>, &'static ControlString)] {
    static NEEDLES: OnceLock<Vec<(Vec<char>, &'static ControlString)>> = OnceLock::new();
    NEEDLES.get_or_init(|| {
        CONTROL_STRINGS
            .iter()
            .map(|c| {
                let mut needle = String::new();
                for ch in c.text.chars() {
                    fold_char_into(ch, ReaderLevel::Unicode, &mut needle);
                }
                (needle.chars().collect(), c)
            })
            .collect()
    })
}

/// Every control-string reading in `text`, leftmost first, not overlapping.
fn readings(text: &str, placement: Placement) -> Vec<(Range<usize>, &'static ControlString)> {
    if text.is_ascii() {
        readings_ascii(text, placement)
    } else {
        readings_folded(text, placement)
    }
}

/// Whether `control` can be read in a field written at `placement`.
fn applies(control: &ControlString, placement: Placement) -> bool {
    control.kind != Kind::LineMarker || placement == Placement::Content
}

/// [`readings_folded`] for ASCII text, which folds byte for byte to its
/// lower case. A special or markup string starts with a [`SPECIAL_STARTS`]
/// byte (a test keeps the table to it), so one `memchr` pass over those
/// finds every place one can start, and only the strings starting with the
/// byte found, and with the byte after it as second character, are tried
/// there. A line marker ends with a colon and counts only at the start of
/// a line, so markers are tried from whichever of the two the text holds
/// fewer of ([`MarkerAnchor`]): not at every colon of a JSON document, nor
/// at every line of a table. Prose, source and tables cost a scan or two,
/// not a fold. Same readings, same order (a property test compares the two
/// paths).
fn readings_ascii(text: &str, placement: Placement) -> Vec<(Range<usize>, &'static ControlString)> {
    readings_ascii_by(text, placement, None)
}

/// [`readings_ascii`] with line markers found from `anchor`, or from the
/// one [`MarkerAnchor::choose`] picks (tests run both).
fn readings_ascii_by(
    text: &str,
    placement: Placement,
    anchor: Option<MarkerAnchor>,
) -> Vec<(Range<usize>, &'static ControlString)> {
    let bytes = text.as_bytes();
    let mut found = specials_ascii(bytes, placement);
    let markers = markers_ascii(bytes, placement, anchor);
    if !markers.is_empty() {
        // No special holds a line break or the start of a marker, and no
        // marker holds a special's first byte (a test keeps the table to
        // both), so the two never overlap and sorting merges them.
        found.extend(markers);
        found.sort_by_key(|(span, _)| span.start);
    }
    found
}

/// Where [`markers_ascii`] looks for line markers: at the colon each ends
/// with, or at the start of each line. Both find the same readings (a
/// property test runs both); they cost one step per colon or per line, so
/// JSON and logs, with several colons a line, are read from line starts,
/// and source code or Markdown tables, with more lines than colons, from
/// colons.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum MarkerAnchor {
    Colons,
    LineStarts,
}

impl MarkerAnchor {
    /// The anchor with fewer places to try in the first few KiB of `bytes`.
    fn choose(bytes: &[u8]) -> MarkerAnchor {
        let sample = &bytes[..bytes.len().min(4096)];
        let colons = sample.iter().filter(|&&b| b == MARKER_END).count();
        let lines = sample
            .iter()
            .filter(|b| ASCII_LINE_BREAKS.contains(b))
            .count();
        if colons <= lines {
            MarkerAnchor::Colons
        } else {
            MarkerAnchor::LineStarts
        }
    }
}

/// Whether the ASCII text `bytes` reads as needle `n` at `at`.
fn ascii_reads_at(bytes: &[u8], at: usize, n: usize) -> bool {
    let needle = &needles()[n].0;
    bytes.len() >= at + needle.len()
        && bytes[at..at + needle.len()]
            .iter()
            .zip(needle)
            .all(|(&b, &c)| char::from(b.to_ascii_lowercase()) == c)
}

/// The special and markup readings of ASCII text, leftmost first, not
/// overlapping.
fn specials_ascii(
    bytes: &[u8],
    placement: Placement,
) -> Vec<(Range<usize>, &'static ControlString)> {
    let mut found = Vec::new();
    let mut next = 0;
    for at in memchr::memchr2_iter(SPECIAL_STARTS[0], SPECIAL_STARTS[1], bytes) {
        if at < next {
            continue;
        }
        if let Some(reading) = special_at(bytes, at, placement) {
            next = reading.0.end;
            found.push(reading);
        }
    }
    found
}

/// The special or markup string that ASCII text `bytes` reads as at `at`,
/// if any applies at `placement`: the first in table order (none is a
/// prefix of another, so at most one can be read at one place).
pub(super) fn special_at(
    bytes: &[u8],
    at: usize,
    placement: Placement,
) -> Option<(Range<usize>, &'static ControlString)> {
    let index = ascii_index();
    let first = usize::from(*bytes.get(at)?);
    let second = bytes.get(at + 1).map(u8::to_ascii_lowercase)?;
    if first >= 128 || !index.second[first].has(second) {
        return None;
    }
    let &n = index.by_first[first]
        .iter()
        .find(|&&n| applies(needles()[n].1, placement) && ascii_reads_at(bytes, at, n))?;
    let (needle, control) = &needles()[n];
    Some((at..at + needle.len(), *control))
}

/// The ASCII line breaks [`is_line_break`] knows (a test keeps the two
/// together).
const ASCII_LINE_BREAKS: [u8; 4] = [b'\n', 0x0B, 0x0C, b'\r'];

/// The line-marker readings of ASCII text, in order, found from `anchor`
/// (chosen from the text when `None`, and only when a marker can be read
/// at `placement`). No two markers share a place, so none overlap.
fn markers_ascii(
    bytes: &[u8],
    placement: Placement,
    anchor: Option<MarkerAnchor>,
) -> Vec<(Range<usize>, &'static ControlString)> {
    let index = ascii_index();
    if !index
        .markers
        .iter()
        .any(|&n| applies(needles()[n].1, placement))
    {
        return Vec::new();
    }
    match anchor.unwrap_or_else(|| MarkerAnchor::choose(bytes)) {
        MarkerAnchor::Colons => markers_at_colons(bytes, placement),
        MarkerAnchor::LineStarts => markers_at_line_starts(bytes, placement),
    }
}

/// [`markers_ascii`] from line starts: tried at the start of the text and
/// after every line break, past the spaces and tabs there. Each place is
/// reached from one line start only (a line break stops the blanks).
fn markers_at_line_starts(
    bytes: &[u8],
    placement: Placement,
) -> Vec<(Range<usize>, &'static ControlString)> {
    let index = ascii_index();
    let mut found = Vec::new();
    let mut try_line = |line_start: usize| {
        let blanks = bytes[line_start..]
            .iter()
            .take_while(|&&b| b == b' ' || b == b'\t')
            .count();
        let at = line_start + blanks;
        // Most lines start with something no marker starts with.
        let first = bytes.get(at).map(u8::to_ascii_lowercase);
        if !first.is_some_and(|b| index.marker_first.has(b)) {
            return;
        }
        let hit = index
            .markers
            .iter()
            .find(|&&n| applies(needles()[n].1, placement) && ascii_reads_at(bytes, at, n));
        if let Some(&n) = hit {
            let (needle, control) = &needles()[n];
            found.push((at..at + needle.len(), *control));
        }
    };
    try_line(0);
    let [lf, vt, ff, cr] = ASCII_LINE_BREAKS;
    for brk in memchr::memchr3_iter(lf, vt, cr, bytes).chain(memchr::memchr_iter(ff, bytes)) {
        try_line(brk + 1);
    }
    found.sort_by_key(|(span, _)| span.start);
    found
}

/// [`markers_ascii`] from colons: tried where a marker would end.
fn markers_at_colons(
    bytes: &[u8],
    placement: Placement,
) -> Vec<(Range<usize>, &'static ControlString)> {
    memchr::memchr_iter(MARKER_END, bytes)
        .filter_map(|colon| marker_ending_at(bytes, colon, placement))
        .collect()
}

/// The line marker that ASCII text `bytes` reads as, ending with the colon
/// at `colon`, if one applies at `placement`: when the byte before the
/// colon is one a marker has there and only blanks stand between the
/// marker and the start of its line.
pub(super) fn marker_ending_at(
    bytes: &[u8],
    colon: usize,
    placement: Placement,
) -> Option<(Range<usize>, &'static ControlString)> {
    let index = ascii_index();
    // The byte before the colon filters out nearly every colon.
    let before = colon.checked_sub(1).map(|i| bytes[i].to_ascii_lowercase());
    if bytes.get(colon) != Some(&MARKER_END)
        || !before.is_some_and(|b| index.marker_before_end.has(b))
    {
        return None;
    }
    index.markers.iter().find_map(|&n| {
        let start = (colon + 1).checked_sub(needles()[n].0.len())?;
        (applies(needles()[n].1, placement)
            && ascii_reads_at(bytes, start, n)
            && line_start_ascii(bytes, start))
        .then_some((start..colon + 1, needles()[n].1))
    })
}

/// Whether only spaces and tabs stand between `at` and the start of its
/// line in ASCII text.
fn line_start_ascii(bytes: &[u8], at: usize) -> bool {
    let before = bytes[..at].iter().rposition(|&b| b != b' ' && b != b'\t');
    before.is_none_or(|j| ASCII_LINE_BREAKS.contains(&bytes[j]))
}

/// The control strings indexed for [`readings_ascii`], as indices into
/// [`needles`] in table order.
struct AsciiIndex {
    /// For each byte, the special and markup strings starting with it.
    by_first: [Vec<usize>; 128],
    /// For each byte, the second characters of the strings starting with it.
    second: [ByteSet; 128],
    /// The line markers.
    markers: Vec<usize>,
    /// The first characters of the line markers.
    marker_first: ByteSet,
    /// The characters line markers have before their final [`MARKER_END`].
    marker_before_end: ByteSet,
}

/// A set of ASCII bytes.
#[derive(Clone, Copy, Default)]
struct ByteSet(u128);

impl ByteSet {
    fn insert(&mut self, c: char) {
        if c.is_ascii() {
            self.0 |= 1 << c as u32;
        }
    }

    fn has(self, b: u8) -> bool {
        b < 128 && self.0 & (1 << b) != 0
    }
}

/// The index, built once per process from [`needles`]: every ASCII text a
/// wrap neutralises consults it.
fn ascii_index() -> &'static AsciiIndex {
    static INDEX: OnceLock<AsciiIndex> = OnceLock::new();
    INDEX.get_or_init(|| {
        let is_marker = |n: &usize| needles()[*n].1.kind == Kind::LineMarker;
        let specials: Vec<usize> = (0..needles().len()).filter(|n| !is_marker(n)).collect();
        let starting = |byte: usize| {
            specials
                .iter()
                .copied()
                .filter(move |&n| needles()[n].0.first() == Some(&char::from(byte as u8)))
        };
        let markers: Vec<usize> = (0..needles().len()).filter(is_marker).collect();
        let mut marker_first = ByteSet::default();
        let mut marker_before_end = ByteSet::default();
        for &n in &markers {
            let needle = &needles()[n].0;
            marker_first.insert(needle.first().copied().unwrap_or('\0'));
            marker_before_end.insert(needle[needle.len().saturating_sub(2)]);
        }
        AsciiIndex {
            by_first: std::array::from_fn(|b| starting(b).collect()),
            second: std::array::from_fn(|b| {
                let mut set = ByteSet::default();
                for n in starting(b) {
                    set.insert(needles()[n].0.get(1).copied().unwrap_or('\0'));
                }
                set
            }),
            markers,
            marker_first,
            marker_before_end,
        }
    })
}

/// Every control-string reading in `text`, folded, leftmost first, not
/// overlapping: the general path, for text with non-ASCII characters.
fn readings_folded(
    text: &str,
    placement: Placement,
) -> Vec<(Range<usize>, &'static ControlString)> {
    readings_by_stretches(text, placement, STRETCH, None)
}

/// The source bytes [`readings_folded`] reads at a time, give or take a
/// line.
const STRETCH: usize = 64 * 1024;

/// [`readings_in_stretch`] a stretch of lines at a time, so the places it
/// gathers are never held for a whole large text (issue 13, peak memory).
/// A stretch is cut after a line feed once it holds `stretch` bytes. No
/// reading holds a line break (a test keeps the table to it), and a line
/// marker may begin after a line feed as at the start of the text, so each
/// stretch reads alone what it reads within the whole. With
/// `token_starts`, the scan marks in it every character a token reading
/// can start at, as it goes.
fn readings_by_stretches(
    text: &str,
    placement: Placement,
    stretch: usize,
    mut token_starts: Option<&mut StartMap>,
) -> Vec<(Range<usize>, &'static ControlString)> {
    let mut found = Vec::new();
    let mut start = 0;
    while start < text.len() {
        let cut = (start + stretch.max(1)).min(text.len());
        let end =
            memchr::memchr(b'\n', &text.as_bytes()[cut..]).map_or(text.len(), |k| cut + k + 1);
        let marks = token_starts.as_deref_mut().map(|map| (map, start));
        let readings = readings_in_stretch(&text[start..end], placement, marks);
        found.extend(
            readings
                .into_iter()
                .map(|(r, c)| (r.start + start..r.end + start, c)),
        );
        start = end;
    }
    found
}

/// A place a reading may start: the `k`th character the source character
/// at byte `at` folds to, which starts a line (past its blanks) or not.
/// Ordered by place, and a line start after the same place that does not.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
struct Start {
    at: usize,
    k: usize,
    line: bool,
}

/// The readings of `text`, as [`readings_in`] finds them over its whole
/// folding, from the few places one can start. A special or markup string
/// folds to a [`SPECIAL_STARTS`] start, which only a character flagged
/// [`ANCHORED`] folds to; a line marker starts a line and ends with a
/// folded [`MARKER_END`], also from an [`ANCHORED`] character, on the
/// same line. So the places are the specials' starts among the anchored
/// characters, and the start of each line holding a folded colon (a test
/// keeps the table to all this). Text is folded only from those places,
/// as far as a control string compared with it reads ([`Window`]), and
/// the readings taken leftmost first, as the specification takes them.
fn readings_in_stretch(
    text: &str,
    placement: Placement,
    token_starts: Option<(&mut StartMap, usize)>,
) -> Vec<(Range<usize>, &'static ControlString)> {
    let mut found = Vec::new();
    let mut window = Window {
        text,
        folded: Vec::new(),
        next: 0,
    };
    let mut free = 0;
    for start in starts(text, placement, token_starts) {
        if start.at < free {
            continue;
        }
        window.restart(start);
        // Nearly every place differs from every needle in its first two
        // characters: compare those before anything else.
        let head = [window.get(0), window.get(1)];
        let hit = needles().iter().find(|(needle, control)| {
            head == [needle.first().copied(), needle.get(1).copied()]
                && applies(control, placement)
                && (control.kind != Kind::LineMarker || start.line)
                && needle
                    .iter()
                    .enumerate()
                    .all(|(i, &n)| window.get(i) == Some(n))
        });
        if let Some((needle, control)) = hit {
            let span = window.folded[0].1.start..window.folded[needle.len() - 1].1.end;
            // Past the whole source character the reading ends in, so
            // readings never share one (a ligature folds to several).
            free = span.end;
            found.push((span, *control));
        }
    }
    found
}

/// Every place of `text` a reading can start, in order, each once. With
/// `token_starts` (a map and the offset of `text` in the text it maps),
/// every character a token reading can start at is marked in the map too,
/// in the same scan.
fn starts(
    text: &str,
    placement: Placement,
    mut token_starts: Option<(&mut StartMap, usize)>,
) -> Vec<Start> {
    let markers = needles()
        .iter()
        .any(|(_, c)| c.kind == Kind::LineMarker && applies(c, placement));
    let mut starts = Vec::new();
    let mut lines = LineStarts {
        text,
        scanned: 0,
        line_start: 0,
    };
    let mut last_line = None;
    let flags = match token_starts {
        Some(_) => ANCHORED | STARTS,
        None => ANCHORED,
    };
    for_each_flagged(text, flags, |at, c, class| {
        if let Some((map, offset)) = token_starts.as_mut() {
            if class & STARTS != 0 {
                map.insert(*offset + at);
            }
            if class & ANCHORED == 0 {
                return;
            }
        }
        if c.is_ascii() && !ascii_anchor_may_read(text.as_bytes(), at) {
            return;
        }
        let mut k = 0;
        fold_char(c, |f| {
            if f.is_ascii() && SPECIAL_STARTS.contains(&(f as u8)) {
                starts.push(Start { at, k, line: false });
            }
            if markers && f == char::from(MARKER_END) {
                let line_start = lines.before(at);
                if last_line != Some(line_start) {
                    last_line = Some(line_start);
                    starts.extend(past_blanks(text, line_start));
                }
            }
            k += 1;
        });
    });
    // A line's start comes after specials found before its colon.
    starts.sort_unstable();
    starts.dedup_by(|later, kept| {
        let same = (later.at, later.k) == (kept.at, kept.k);
        kept.line |= same && later.line;
        same
    });
    starts
}

/// False when the ASCII anchor at byte `at` of `bytes` can be no reading's
/// anchor: a special's first byte followed by an ASCII byte that no special
/// starting with it has second, or a colon after an ASCII byte that no line
/// marker has before its colon. Every ASCII character folds to its own
/// lower case alone and none is ignorable, so that byte is the anchor's
/// neighbour in the folded text; anything else next to it (a character
/// outside ASCII, which may fold to anything or to nothing, or the text's
/// edge) may still read. In a log, no timestamp's colon is looked at
/// further.
fn ascii_anchor_may_read(bytes: &[u8], at: usize) -> bool {
    let index = ascii_index();
    let anchor = bytes[at];
    let (neighbour, allowed) = if anchor == MARKER_END {
        let before = at.checked_sub(1).map(|i| bytes[i]);
        (before, index.marker_before_end)
    } else {
        (
            bytes.get(at + 1).copied(),
            index.second[usize::from(anchor)],
        )
    };
    match neighbour {
        Some(b) if b.is_ascii() => allowed.has(b.to_ascii_lowercase()),
        _ => true,
    }
}

/// Where the line holding a place starts, for places asked about in
/// increasing order: each byte is looked at once.
struct LineStarts<'a> {
    text: &'a str,
    /// Line breaks before this byte are accounted for.
    scanned: usize,
    /// Just past the last line break before `scanned`, or 0.
    line_start: usize,
}

impl LineStarts<'_> {
    fn before(&mut self, at: usize) -> usize {
        let last_break = self.text[self.scanned..at]
            .char_indices()
            .rev()
            .find(|&(_, c)| is_line_break(c));
        if let Some((i, c)) = last_break {
            self.line_start = self.scanned + i + c.len_utf8();
        }
        self.scanned = at;
        self.line_start
    }
}

/// The place past the blanks (folded spaces and tabs) at `line_start`,
/// where a line marker can start; none at the end of the text.
fn past_blanks(text: &str, line_start: usize) -> Option<Start> {
    for (i, c) in text[line_start..].char_indices() {
        let mut first = None;
        let mut k = 0;
        fold_char(c, |f| {
            if first.is_none() && f != ' ' && f != '\t' {
                first = Some(k);
            }
            k += 1;
        });
        if let Some(k) = first {
            let at = line_start + i;
            return Some(Start { at, k, line: true });
        }
    }
    None
}

/// The folded characters of a text from a [`Start`], and the source range
/// of each, folded only as far as a needle compared with them reads: most
/// places differ from every needle within a character or two.
struct Window<'a> {
    text: &'a str,
    folded: Vec<(char, Range<usize>)>,
    /// The source character folded next.
    next: usize,
}

impl Window<'_> {
    fn restart(&mut self, start: Start) {
        self.folded.clear();
        self.next = start.at;
        self.fold_next();
        self.folded.drain(..start.k.min(self.folded.len()));
    }

    /// Folded character `i`, folding more of the text if need be; `None`
    /// past its end.
    fn get(&mut self, i: usize) -> Option<char> {
        while self.folded.len() <= i && self.next < self.text.len() {
            self.fold_next();
        }
        self.folded.get(i).map(|&(f, _)| f)
    }

    fn fold_next(&mut self) {
        let Some(c) = self.text[self.next..].chars().next() else {
            return;
        };
        let range = self.next..self.next + c.len_utf8();
        fold_char(c, |f| self.folded.push((f, range.clone())));
        self.next = range.end;
    }
}

/// The specification [`readings_in_stretch`] is tested against: every
/// reading over a folding already made, trying every needle at every
/// folded character, leftmost first, not overlapping.
#[cfg(test)]
fn readings_in(
    folded: &[(char, Range<usize>)],
    placement: Placement,
) -> Vec<(Range<usize>, &'static ControlString)> {
    let needles = needles().iter().filter(|(_, c)| applies(c, placement));
    let mut found = Vec::new();
    let mut i = 0;
    while i < folded.len() {
        let hit = needles.clone().find(|(needle, control)| {
            folded.len() >= i + needle.len()
                && folded[i..i + needle.len()]
                    .iter()
                    .zip(needle)
                    .all(|((f, _), n)| f == n)
                && (control.kind != Kind::LineMarker || starts_line(folded, i))
        });
        match hit {
            Some((needle, control)) => {
                let span = folded[i].1.start..folded[i + needle.len() - 1].1.end;
                while i < folded.len() && folded[i].1.start < span.end {
                    i += 1;
                }
                found.push((span, *control));
            }
            None => i += 1,
        }
    }
    found
}

/// Whether folded character `i` of content starts a line: content starts
/// one, and so does whatever follows a line break and spaces or tabs.
#[cfg(test)]
fn starts_line(folded: &[(char, Range<usize>)], i: usize) -> bool {
    let mut j = i;
    while j > 0 && matches!(folded[j - 1].0, ' ' | '\t') {
        j -= 1;
    }
    j == 0 || is_line_break(folded[j - 1].0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fold_table::{has_flag, ANCHORS};
    use framecheck_core::level::{fold_char_into, ReaderLevel};

    #[test]
    fn control_strings_become_inert_spellings() {
        for (text, want) in [
            ("a<|im_end|>b", "a<|im_end|\\>b"),
            ("[/INST] x [inst]", "[/INST\\] x [INST\\]"),
            ("＜｜im_end｜＞", "<|im_end|\\>"),
            ("x\n\nHuman: hi", "x\n\nHuman\\: hi"),
            ("Assistant: at the start", "Assistant\\: at the start"),
        ] {
            assert_eq!(neutralise(text, Placement::Content), want, "{text:?}");
            // Idempotent.
            assert_eq!(neutralise(want, Placement::Content), want, "{want:?}");
        }
    }

    #[test]
    fn every_control_string_holds_an_anchor() {
        for control in &CONTROL_STRINGS {
            assert!(
                control.text.bytes().any(|b| ANCHORS.contains(&b)),
                "{:?} has no anchor byte: ASCII text holding it would skip the scan",
                control.text
            );
        }
    }

    #[test]
    fn every_control_string_folding_holds_an_anchor() {
        for (needle, control) in needles() {
            assert!(
                needle
                    .iter()
                    .any(|&c| c.is_ascii() && ANCHORS.contains(&(c as u8))),
                "{:?}: its folding has no anchor, so text holding it is not folded",
                control.text
            );
        }
    }

    #[test]
    fn every_control_string_folds_to_an_ascii_start() {
        for (needle, control) in needles() {
            assert!(
                needle.first().is_some_and(char::is_ascii),
                "{:?}: the folding path skips non-ASCII starts",
                control.text
            );
        }
    }

    #[test]
    fn the_ascii_path_knows_every_start_and_line_break() {
        for control in &CONTROL_STRINGS {
            let bytes = control.text.as_bytes();
            // The index filters on a second character.
            assert!(bytes.len() >= 2, "{:?}", control.text);
            let first = bytes[0].to_ascii_lowercase();
            match control.kind {
                // Found from their last byte, which nothing else in them is.
                Kind::LineMarker => {
                    assert_eq!(bytes.last(), Some(&MARKER_END), "{:?}", control.text);
                    assert!(!bytes[..bytes.len() - 1]
                        .iter()
                        .any(|b| SPECIAL_STARTS.contains(b) || *b == MARKER_END));
                }
                _ => assert!(SPECIAL_STARTS.contains(&first), "{:?}", control.text),
            }
        }
        let ascii_breaks: Vec<u8> = (0u8..128)
            .filter(|&b| is_line_break(char::from(b)))
            .collect();
        let mut known = ASCII_LINE_BREAKS.to_vec();
        known.sort();
        assert_eq!(ascii_breaks, known);
        // Why specials and markers never overlap: a marker starts a line,
        // so a special holding its start would hold a line break.
        for (needle, control) in needles() {
            if control.kind != Kind::LineMarker {
                assert!(
                    !needle.iter().any(|&c| is_line_break(c)),
                    "{:?}",
                    control.text
                );
            }
        }
    }

    proptest::proptest! {
        /// The ASCII path finds what the folding path finds, in the same
        /// order, on text dense in control strings, case changes, line
        /// breaks and blanks.
        #[test]
        fn the_ascii_path_matches_the_folding_path(
            pieces in proptest::collection::vec(ascii_piece(), 0..24),
            content in proptest::bool::ANY,
        ) {
            let text = pieces.concat();
            let placement = if content { Placement::Content } else { Placement::Inline };
            let folded = readings_folded(&text, placement);
            for anchor in [MarkerAnchor::Colons, MarkerAnchor::LineStarts] {
                proptest::prop_assert_eq!(&readings_ascii_by(&text, placement, Some(anchor)), &folded);
            }
        }
    }

    /// The specification's folding, character by character, for the
    /// property below.
    fn spec_fold(text: &str) -> Vec<(char, Range<usize>)> {
        let mut folded = Vec::new();
        for (start, c) in text.char_indices() {
            let mut buffer = String::new();
            fold_char_into(c, ReaderLevel::Unicode, &mut buffer);
            let range = start..start + c.len_utf8();
            folded.extend(buffer.chars().map(|f| (f, range.clone())));
        }
        folded
    }

    proptest::proptest! {
        /// The fold table path finds what the specification's folding
        /// finds, on text mixing control strings with lookalikes,
        /// ignorables, fullwidth forms and non-ASCII line breaks.
        #[test]
        fn the_table_folding_reads_what_the_specification_reads(
            pieces in proptest::collection::vec(unicode_piece(), 0..24),
        ) {
            let text = pieces.concat();
            for placement in [Placement::Content, Placement::Inline] {
                proptest::prop_assert_eq!(
                    readings_folded(&text, placement),
                    readings_in(&spec_fold(&text), placement)
                );
            }
        }
    }

    proptest::proptest! {
        /// Folding a stretch of lines at a time reads what folding the
        /// whole text reads, wherever the stretches are cut.
        #[test]
        fn stretches_read_what_the_whole_reads(
            pieces in proptest::collection::vec(unicode_piece(), 0..24),
            stretch in 0usize..40,
        ) {
            let text = pieces.concat();
            for placement in [Placement::Content, Placement::Inline] {
                proptest::prop_assert_eq!(
                    readings_by_stretches(&text, placement, stretch, None),
                    readings_in(&spec_fold(&text), placement)
                );
            }
        }
    }

    proptest::proptest! {
        /// Content neutralised with the token's places marked reads what
        /// [`neutralise`] reads, and, when nothing was neutralised, marks
        /// exactly the characters whose class has [`STARTS`].
        #[test]
        fn content_scan_marks_every_token_start(
            pieces in proptest::collection::vec(
                proptest::prop_oneof![
                    unicode_piece(),
                    lookalike_piece(),
                    token_start_piece(),
                ],
                0..24,
            ),
        ) {
            let text = pieces.concat();
            let (neutral, token_starts) = neutralise_content(&text);
            proptest::prop_assert_eq!(&neutral, &neutralise(&text, Placement::Content));
            let expected = (!text.is_ascii() && matches!(neutral, Cow::Borrowed(_))).then(|| {
                let mut map = StartMap::new(text.len());
                for (at, _) in text.char_indices().filter(|&(_, c)| has_flag(c, STARTS)) {
                    map.insert(at);
                }
                map
            });
            proptest::prop_assert_eq!(token_starts, expected);
        }
    }

    /// Token starts in and outside ASCII, and anchors next to what no
    /// control string has there.
    fn token_start_piece() -> impl proptest::strategy::Strategy<Value = String> {
        use proptest::prelude::*;
        proptest::sample::select(vec!["f", "F", "\u{FB01}", "\u{FF46}", "12:30", "a<b"])
            .prop_map(String::from)
    }

    /// Colons and brackets whose ASCII neighbour no control string has
    /// there are no places: a log's timestamps cost no line a look.
    #[test]
    fn ascii_anchors_with_impossible_neighbours_are_no_places() {
        let line = "2026-11-30T08:57:15Z GET /a[0] x<y 200\u{200B}\n";
        assert!(starts(&line.repeat(3), Placement::Content, None).is_empty());
        // The same anchors next to what a control string has there are.
        let start = |at, k, line| Start { at, k, line };
        assert_eq!(
            starts("\u{200B}Human: <|x [INST", Placement::Content, None),
            vec![start(3, 0, true), start(10, 0, false), start(14, 0, false)]
        );
        // Next to a character outside ASCII, an anchor is always a place.
        assert_eq!(
            starts("\u{E9}: \u{E9}[\u{E9}", Placement::Content, None),
            vec![start(0, 0, true), start(6, 0, false)]
        );
    }

    /// Control strings spelled with anchors from outside ASCII, among text
    /// with no anchor at all (CJK, emoji, mathematical letters, long ASCII
    /// runs): what the text-without-anchors shortcut must not skip.
    fn lookalike_piece() -> impl proptest::strategy::Strategy<Value = String> {
        use proptest::prelude::*;
        let respell = |text: &str, k: usize| -> String {
            const LT: [char; 5] = ['\u{FF1C}', '\u{FE64}', '\u{3008}', '\u{27E8}', '\u{2039}'];
            const BRACKET: [char; 4] = ['\u{FF3B}', '\u{2045}', '\u{3014}', '\u{FE5D}'];
            const COLON: [char; 3] = ['\u{FF1A}', '\u{FE55}', '\u{FE13}'];
            text.chars()
                .map(|c| match c {
                    '<' => LT[k % LT.len()],
                    '[' => BRACKET[k % BRACKET.len()],
                    ':' => COLON[k % COLON.len()],
                    c => c,
                })
                .collect()
        };
        let controls: Vec<&'static str> = CONTROL_STRINGS.iter().map(|c| c.text).collect();
        prop_oneof![
            (proptest::sample::select(controls), 0usize..60).prop_map(move |(c, k)| respell(c, k)),
            proptest::sample::select(vec![
                "\u{4E2D}\u{6587}",
                "\u{1F680}\u{200D}",
                "\u{1D400}\u{1D41F}",
                "\n",
                "\u{2028}",
                " ",
                "the quarterly report lists shipping delays in three regions",
            ])
            .prop_map(String::from),
        ]
    }

    proptest::proptest! {
        /// Text whose only anchors are outside ASCII is folded and read,
        /// and text without any reads nothing: the same readings as the
        /// specification's folding.
        #[test]
        fn anchors_outside_ascii_are_not_skipped(
            pieces in proptest::collection::vec(lookalike_piece(), 0..16),
        ) {
            let text = pieces.concat();
            for placement in [Placement::Content, Placement::Inline] {
                proptest::prop_assert_eq!(
                    readings_folded(&text, placement),
                    readings_in(&spec_fold(&text), placement)
                );
            }
        }
    }

    /// What [`starts`] relies on: every special or markup string folds to
    /// a string starting with a [`SPECIAL_STARTS`] byte, and every line
    /// marker to one ending with [`MARKER_END`].
    #[test]
    fn every_folded_control_string_has_a_place_starts_finds() {
        for (needle, control) in needles() {
            let anchor = match control.kind {
                Kind::LineMarker => needle.last() == Some(&char::from(MARKER_END)),
                _ => needle
                    .first()
                    .is_some_and(|&c| c.is_ascii() && SPECIAL_STARTS.contains(&(c as u8))),
            };
            assert!(anchor, "{:?}", control.text);
        }
    }

    #[test]
    fn a_text_without_anchors_has_no_place_to_start() {
        let long_run = "x".repeat(100);
        for text in ["\u{4E2D}\u{6587}", "\u{1D400} \u{1D401}", &long_run, ""] {
            assert!(
                starts(text, Placement::Content, None).is_empty(),
                "{text:?}"
            );
        }
        let start = |at, k, line| Start { at, k, line };
        for (text, want) in [
            ("\u{4E2D}\u{FF1C}", vec![start(3, 0, false)]),
            ("\u{4E2D}<", vec![start(3, 0, false)]),
            // A colon stands for the start of its line (after a byte a
            // line marker can have before its colon).
            (&format!("\u{4E2D}{long_run}n:"), vec![start(0, 0, true)]),
            (
                &format!("\n \u{4E2D}{long_run}\u{FE55}"),
                vec![start(2, 0, true)],
            ),
            // A line start that is also a special's start is one place.
            ("x\n\t<|im_end|>n:", vec![start(3, 0, true)]),
        ] {
            assert_eq!(starts(text, Placement::Content, None), want, "{text:?}");
        }
        // Outside content a colon starts nothing.
        assert!(starts("Human:", Placement::Inline, None).is_empty());
    }

    /// Why stretches may be cut after a line feed, and a marker is looked
    /// for only at the start of the line holding its colon: no control
    /// string folds to a line break, or to something starting with a blank
    /// (a marker starting with one could start before the first place past
    /// a line's blanks). And a line break stands for itself: no other
    /// character folds to one.
    #[test]
    fn no_control_string_holds_a_line_break_or_starts_blank() {
        for (needle, control) in needles() {
            assert!(
                !needle.iter().any(|&c| is_line_break(c)),
                "{:?}",
                control.text
            );
            assert!(
                !matches!(needle.first(), Some(' ' | '\t')),
                "{:?}",
                control.text
            );
        }
        for c in (0..=0x10_FFFFu32).filter_map(char::from_u32) {
            let mut breaks = Vec::new();
            fold_char(c, |f| breaks.push(is_line_break(f)));
            if breaks.contains(&true) {
                assert_eq!(breaks, [true], "U+{:04X}", c as u32);
                assert!(is_line_break(c), "U+{:04X}", c as u32);
            }
        }
    }

    fn unicode_piece() -> impl proptest::strategy::Strategy<Value = String> {
        use proptest::prelude::*;
        prop_oneof![
            ascii_piece(),
            proptest::sample::select(vec![
                "\u{FF1C}",
                "\u{FF5C}",
                "\u{FF1E}",
                "\u{200B}",
                "\u{2028}",
                "\u{85}",
                "\u{2029}",
                "\u{0456}",
                "\u{0430}",
                "\u{FB01}",
                "\u{00DF}",
                "\u{212A}",
                "\u{3000}",
                "\u{FF3B}",
                "\u{1D400}",
                "\u{E0041}",
                "\u{4E2D}",
                "\u{1F600}",
            ])
            .prop_map(String::from),
            any::<char>().prop_map(String::from),
        ]
    }

    fn ascii_piece() -> impl proptest::strategy::Strategy<Value = String> {
        use proptest::prelude::*;
        let controls: Vec<String> = CONTROL_STRINGS.iter().map(|c| c.text.to_string()).collect();
        prop_oneof![
            proptest::sample::select(controls.clone()),
            proptest::sample::select(controls).prop_map(|c| c.to_uppercase()),
            proptest::sample::select(vec![
                "\n", "\r", "\r\n", "\u{b}", "\u{c}", " ", "\t", "  \t"
            ])
            .prop_map(String::from),
            "[ -~]{0,6}",
            proptest::sample::select(vec!["<", "[", "<|", "Hu", "man:", "###", " Instruction:"])
                .prop_map(String::from),
        ]
    }

    #[test]
    fn ordinary_text_is_borrowed() {
        for text in [
            "the Human: label mid-line",
            "im_end, INST and end_of_turn as words",
            "",
        ] {
            assert!(matches!(
                neutralise(text, Placement::Content),
                Cow::Borrowed(_)
            ));
        }
        // Outside content there are no lines for a marker to start.
        assert!(matches!(
            neutralise("Human: x", Placement::Inline),
            Cow::Borrowed(_)
        ));
    }
}
