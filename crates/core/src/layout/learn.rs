//! Learning a [`Layout`] from calibration wraps.
//!
//! Three benign requests ([`probes`]): content `C1` with markers in every
//! field, the same request again, and content `C2` (as long as `C1`) with
//! the same fields. The content slot is found in each output, trying the
//! declared encoding or every encoding in turn; the text around the slots
//! is diffed ([`super::tokens`]) into fixed and variable parts; the field
//! markers become field parts; the grammar's opener and closer around the
//! slot split the parts into regions.

use std::collections::BTreeMap;
use std::ops::Range;

use super::echo::merge_echoes;
use super::fields;
use super::tokens::{segments, Segment};
use super::{
    Alphabet, FieldContext, FieldName, Layout, Padding, Part, PartKind, Region, Sample, Variable,
};
use crate::encoding::codec::Spelling;
use crate::encoding::{self, Datamark};
use crate::grammar::json_document::Syntax;
use crate::grammar::{DelimiterKind, Form, LiveDelimiter, RunChars, Shape};
use crate::level::ReaderLevel;
use crate::profile::{BodyEncoding, EmptyContent, Encoding, EncodingChoice, ResolvedProfile};
use crate::reader::Reader;
use crate::target::WrapRequest;

const KIND_MARK: &str = "fckindq7";
pub(super) const ATTR_MARK: &str = "fcattrq7";
const PROV_MARK: &str = "fcprovq7";

/// The marker words calibration puts in the kind, attribute and provenance.
pub(super) const FIELD_MARKS: [&str; 3] = [KIND_MARK, ATTR_MARK, PROV_MARK];

/// Two contents of different lengths, each starting and ending with a marker
/// word, with the characters the encodings rewrite (quotes, `&`, angle
/// brackets, an apostrophe, a line break) and single spaces between words;
/// `pad` (plain words, see [`Probes::longer`]) after the first marker.
fn probe_content(n: u8, pad: &str) -> String {
    // The second content is longer, so a length written outside the body
    // shows up as content-derived.
    let more = if n == 2 { " and more" } else { "" };
    format!("fcbodya{n} {pad}He said \"ok\" & <i>left</i> it's\nnext line{more} fcbodyz{n}")
}

/// The content lengths calibration tries, in order, when a framing returns
/// the probes as they are, with no frame: one that frames only content
/// above some length (a few hundred characters, a few thousand) is
/// calibrated on content it frames (issue 57), and its shorter outputs are
/// judged case by case.
pub const LONGER_PROBES: [usize; 2] = [600, 6_000];

/// Plain words that lengthen a probe: nothing an encoding, a line rule or
/// a reader level changes or reads as structure.
const PAD_WORDS: &str = "plain padding words ";

/// The calibration requests: `W1`, `W1` again, `W2`.
#[derive(Debug, Clone)]
pub struct Probes {
    requests: [WrapRequest; 3],
    /// The plain words after each content's first marker (empty for the
    /// usual probes).
    pad: String,
}

impl Probes {
    /// The requests to wrap, in order; [`learn`] takes their outputs in the
    /// same order.
    pub fn requests(&self) -> &[WrapRequest] {
        &self.requests
    }

    /// The same requests with plain content: words and single spaces,
    /// nothing an encoding or a line-end rewrite would change. For `init`,
    /// when a framing rewrote the probe content in a way no encoding
    /// explains: its layout is still learned, and the rewrite is left to
    /// the run's findings.
    pub fn plain(&self) -> Probes {
        self.plain_joined(" ")
    }

    /// The plain requests on two lines: the same words with a line break
    /// between them. Tried only when one-line plain content comes back
    /// written whole twice: a framing that echoes the content's first line
    /// (a title) writes all of one-line content twice, and only content
    /// whose first line is not the whole tells the body from the echo.
    pub fn plain_lines(&self) -> Probes {
        self.plain_joined("\n")
    }

    /// [`Probes::plain`] with `between` between its two plain words.
    fn plain_joined(&self, between: &str) -> Probes {
        let mut plain = self.clone();
        for request in &mut plain.requests {
            let n = if request.content.contains("fcbodya2") {
                2
            } else {
                1
            };
            let more = if n == 2 { " and more" } else { "" };
            request.content = format!(
                "fcbodya{n} {}plain{between}words{more} fcbodyz{n}",
                self.pad
            );
        }
        plain
    }

    /// The same requests with each line break in the content made a space:
    /// content on one line, still with the characters the encodings
    /// rewrite. The usual probes span two lines; a framing that writes
    /// another frame for one-line content (a notice only above one line)
    /// shows it to these ([`Layout::learn_one_line`]).
    pub fn one_line(&self) -> Probes {
        let mut one = self.clone();
        for request in &mut one.requests {
            request.content = request.content.replace('\n', " ");
        }
        one
    }

    /// The same requests lengthened by the padding that brings the usual
    /// probes to at least `at_least` characters (plain probes, shorter,
    /// come out a few dozen characters below it): plain words after each
    /// first marker (in place of any such words
    /// they had), the same number in each, so the second content stays the
    /// longer and plain probes stay plain.
    pub fn longer(&self, at_least: usize) -> Probes {
        let short = probe_content(1, "").chars().count();
        let words = at_least.saturating_sub(short).div_ceil(PAD_WORDS.len());
        let pad = PAD_WORDS.repeat(words);
        let mut longer = self.clone();
        for request in &mut longer.requests {
            if let Some((marker, rest)) = request.content.split_once(' ') {
                let rest = rest.strip_prefix(self.pad.as_str()).unwrap_or(rest);
                request.content = format!("{marker} {pad}{rest}");
            }
        }
        longer.pad = pad;
        longer
    }

    /// The attribute key the probes carry, if any.
    fn probe_key(&self) -> Option<&str> {
        self.requests[0]
            .attributes
            .keys()
            .next()
            .map(String::as_str)
    }

    /// The first request with empty content, twice: what the framing writes
    /// for empty content ([`Layout::learn_empty`]). Optional: a framing may
    /// refuse empty content.
    pub fn empty_requests(&self) -> [WrapRequest; 2] {
        let mut empty = self.requests[0].clone();
        empty.content.clear();
        [empty.clone(), empty]
    }
}

/// The calibration requests for `profile`: the attribute key is one
/// `header.fields` maps to a line, else the profile's first declared
/// attribute name when it has a fixed set.
pub fn probes(profile: &ResolvedProfile) -> Probes {
    probes_with(profile, true)
}

/// The calibration requests, with or without an attribute. Many framings
/// write an attribute only when the caller gives one (`title="…"` appears
/// with a title and not without): a layout learned with an attribute does
/// not fit their frame without one, so requests without attributes are
/// judged against a layout learned without one.
pub fn probes_with(profile: &ResolvedProfile, with_attribute: bool) -> Probes {
    // An attribute `header.fields` puts on a line is probed first, so the
    // line is learned; else the first of a fixed set of names.
    let names = profile.attributes.names.as_ref();
    let key = profile
        .header
        .fields
        .attributes
        .keys()
        .find(|k| names.is_none_or(|n| n.contains(k)))
        .or_else(|| names.and_then(|n| n.first()))
        .cloned()
        .unwrap_or_else(|| "source".to_string());
    let request = |n| WrapRequest {
        content: probe_content(n, ""),
        kind: KIND_MARK.into(),
        attributes: if with_attribute {
            BTreeMap::from([(key.clone(), ATTR_MARK.to_string())])
        } else {
            BTreeMap::new()
        },
        provenance: PROV_MARK.into(),
    };
    Probes {
        requests: [request(1), request(1), request(2)],
        pad: String::new(),
    }
}

/// Why a layout could not be learned; each message says what to declare.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum LayoutError {
    /// Not one output per probe.
    #[error("calibration needs {expected} wraps, got {got}")]
    WrongCount {
        /// Probes sent.
        expected: usize,
        /// Outputs given.
        got: usize,
    },
    /// The content is in no output under any encoding tried.
    #[error("the content does not appear in the output (encodings tried: {tried}): {advice}")]
    ContentNotFound {
        /// The encodings tried, by name.
        tried: String,
        /// What to do.
        advice: &'static str,
    },
    /// No live opening delimiter before the content.
    #[error("no live opening `{token}` delimiter before the content: check delimiters.grammar and delimiters.token")]
    NoOpener {
        /// The outer token.
        token: String,
    },
    /// A field `header.fields` maps to a line is not on that line.
    #[error("header.fields puts the {field} field on a `{line}:` line, but calibration did not find it there: check header.fields, or leave the field out of it")]
    HeaderField {
        /// The field, as the template names it.
        field: String,
        /// The declared line name.
        line: String,
    },
    /// No live closing delimiter after the content.
    #[error("no live closing `{token}` delimiter after the content: expected `{expected}`, found {after:?} after where the content was read; check delimiters.grammar, delimiters.token and delimiters.close, and body.encoding when the content is written in one (a JSON string, entities)")]
    NoCloser {
        /// The outer token.
        token: String,
        /// The closer the profile declares, as the framing would write it.
        expected: String,
        /// The start of the text after the content as calibration found
        /// it, so the user sees what stood where the closer was expected.
        after: String,
    },
}

/// Learns the layout of `profile`'s framing from the outputs of the
/// [`Probes`] requests, in order.
pub fn learn(
    profile: &ResolvedProfile,
    probes: &Probes,
    wraps: &[String],
) -> Result<Layout, LayoutError> {
    if wraps.len() != probes.requests.len() {
        return Err(LayoutError::WrongCount {
            expected: probes.requests.len(),
            got: wraps.len(),
        });
    }
    // A datamark, or a line-prefix body's prefix.
    let mark = profile.body.marker();
    let marking = Datamark {
        mark: &mark,
        replaces: profile.body.datamark_replaces,
    };
    let Slots {
        encoding,
        per_content,
        slots,
    } = find_slots(profile, probes, wraps, marking)?;
    let w1 = wraps[0].as_str();
    let slot = slots[0].clone();
    let heads: Vec<&str> = wraps
        .iter()
        .zip(&slots)
        .map(|(w, s)| &w[..s.start])
        .collect();
    let tails: Vec<&str> = wraps.iter().zip(&slots).map(|(w, s)| &w[s.end..]).collect();
    let echoed = super::echo::Sample {
        framed: w1,
        content: &probes.requests[0].content,
        encoding,
        mark: marking,
    };
    let head_segments = segments(heads[0], &[heads[1]], &[heads[2]]);
    let head_segments = merge_echoes(profile, &echoed, head_segments, (0, heads[0].len()));
    let tail_segments = segments(tails[0], &[tails[1]], &[tails[2]]);
    let tail_segments = merge_echoes(profile, &echoed, tail_segments, (slot.end, tails[0].len()));
    let (opener, token_end, closer) = frame_delimiters(profile, w1, &slot)?;
    let mut head = head_parts(profile, w1, &head_segments, &opener, token_end, slot.start);
    let tail = to_parts(w1, slot.end, &tail_segments, &|r| {
        region_of(r, &closer, [Region::Footer, Region::Closer, Region::After])
    });
    let shape = profile.delimiters.grammar.shape();
    let mut tail = content_sized_runs(shape, tail);
    super::declared::widen_nonce_parts(&mut head, profile);
    super::declared::widen_nonce_parts(&mut tail, profile);
    name_fields(profile, probes, &mut head, &mut tail)?;
    let padding = learned_padding(profile, &head, &tail);
    Ok(Layout {
        head,
        encoding,
        encoding_declared: profile.body.encoding.is_some(),
        per_content,
        datamark: mark.clone(),
        datamark_replaces: profile.body.datamark_replaces,
        tail,
        padding,
        sample: Sample {
            framed: w1.to_string(),
            slot,
        },
        empty: None,
        one_line: None,
    })
}

/// The parts of the first sample before its content slot (`slot_start`):
/// preamble, opener (spanning `opener`, its token ending at `token_end`)
/// and header.
fn head_parts(
    profile: &ResolvedProfile,
    w1: &str,
    head_segments: &[Segment],
    opener: &Range<usize>,
    token_end: usize,
    slot_start: usize,
) -> Vec<Part> {
    let head_region = |r: &Range<usize>| {
        region_of(
            r,
            opener,
            [Region::Preamble, Region::Opener, Region::Header],
        )
    };
    let mut head = to_parts(w1, 0, &window(head_segments, 0..opener.start), &head_region);
    let opener_parts = to_parts(w1, 0, &window(head_segments, opener.clone()), &head_region);
    let has_attributes = opener_parts.iter().any(|p| {
        matches!(
            &p.kind,
            PartKind::Field {
                context: FieldContext::AttributeValue,
                ..
            }
        )
    });
    if has_attributes && token_end < opener.end {
        // Which attributes a request has varies: the list is one field.
        let token_part = window(head_segments, opener.start..token_end);
        head.extend(to_parts(w1, 0, &token_part, &head_region));
        head.push(Part {
            region: Region::Opener,
            kind: PartKind::Field {
                name: FieldName::Attributes,
                context: FieldContext::AttributeValue,
            },
        });
        let bracket = w1[..opener.end]
            .char_indices()
            .last()
            .map_or(opener.end, |(i, _)| i);
        head.push(fixed(w1, bracket..opener.end, &head_region));
    } else {
        head.extend(opener_parts);
    }
    head.extend(to_parts(
        w1,
        0,
        &window(head_segments, opener.end..slot_start),
        &head_region,
    ));
    content_sized_runs(profile.delimiters.grammar.shape(), head)
}

/// The padding around the content: the profile's declared padding, or the
/// whitespace the samples show on either side of the slot.
fn learned_padding(profile: &ResolvedProfile, head: &[Part], tail: &[Part]) -> Padding {
    match profile.padding_override() {
        Some(declared) => Padding {
            lead: declared.into(),
            trail: declared.into(),
            declared: true,
        },
        None => Padding {
            lead: trailing_space(head),
            trail: leading_space(tail),
            declared: false,
        },
    }
}

/// Names the field parts of the head and tail (the probes' attribute key,
/// the lines `header.fields` declares) and checks them against it.
fn name_fields(
    profile: &ResolvedProfile,
    probes: &Probes,
    head: &mut [Part],
    tail: &mut [Part],
) -> Result<(), LayoutError> {
    let probe_key = probes.probe_key();
    let declared = &profile.header.fields;
    fields::name_fields(head, probe_key, declared);
    fields::name_fields(tail, probe_key, declared);
    let all: Vec<Part> = head.iter().chain(tail.iter()).cloned().collect();
    fields::check_declared(&all, probe_key, declared)
}

/// What calibration found: the layout's encoding, the per-content choice
/// (empty when every output is judged in `encoding`), and the content slot
/// in each output.
struct Slots {
    encoding: Encoding,
    per_content: Vec<Encoding>,
    slots: Vec<Range<usize>>,
}

/// The lists of encodings calibration tries, in order; each output is
/// found under the first of a list that finds its content there. A framing
/// may write plain content as it is and encode the rest (issue 57: judged
/// per output), so a probe is also looked for as written: after the
/// declared encoding, and, undeclared, after each encoding alone has
/// failed.
fn slot_candidates(profile: &ResolvedProfile) -> Vec<Vec<Encoding>> {
    let raw = Encoding::from(BodyEncoding::None);
    match &profile.body.encoding {
        Some(EncodingChoice::PerContent(list)) => vec![list.clone()],
        Some(EncodingChoice::Always(declared)) => vec![vec![*declared, raw]],
        None => {
            let singles = Encoding::candidates();
            let pairs: Vec<Vec<Encoding>> = singles
                .iter()
                .filter(|e| !e.is_none())
                .map(|&e| vec![raw, e])
                .collect();
            singles.into_iter().map(|e| vec![e]).chain(pairs).collect()
        }
    }
}

/// The calibration outputs found under `choices` (one encoding and slot
/// each), read as the profile states them, or `None` when they contradict
/// it: a declared encoding must find one probe at least (a run is a misfit
/// only when every output contradicts it); an undeclared pair is a choice
/// per content only when the probes used both of it.
fn slots_of(
    profile: &ResolvedProfile,
    choices: &[Encoding],
    found: Vec<(Encoding, Range<usize>)>,
) -> Option<Slots> {
    let used = |e: &Encoding| found.iter().any(|(f, _)| f == e);
    let (encoding, per_content) = match &profile.body.encoding {
        Some(EncodingChoice::PerContent(list)) => (found[0].0, list.clone()),
        Some(EncodingChoice::Always(declared)) if declared.is_none() || used(declared) => {
            (*declared, Vec::new())
        }
        Some(EncodingChoice::Always(_)) => return None,
        None if choices.len() == 1 => (choices[0], Vec::new()),
        None if choices.iter().all(used) => (choices[1], choices.to_vec()),
        None => return None,
    };
    let slots = found.into_iter().map(|(_, slot)| slot).collect();
    Some(Slots {
        encoding,
        per_content,
        slots,
    })
}

/// The encoding and the content slot in each output.
fn find_slots(
    profile: &ResolvedProfile,
    probes: &Probes,
    wraps: &[String],
    mark: Datamark<'_>,
) -> Result<Slots, LayoutError> {
    for choices in &slot_candidates(profile) {
        let mut found: Vec<(Encoding, Range<usize>)> = Vec::new();
        for (request, framed) in probes.requests.iter().zip(wraps) {
            match find_slot_among(choices, framed, &request.content, mark)? {
                Some(slot) => found.push(slot),
                None => break,
            }
        }
        if found.len() < wraps.len() {
            continue;
        }
        if let Some(slots) = slots_of(profile, choices, found) {
            return Ok(slots);
        }
    }
    let tried = match &profile.body.encoding {
        Some(declared) => declared.to_string(),
        None => {
            let singles: Vec<&str> = BodyEncoding::ALL.iter().map(|e| e.name()).collect();
            format!("{}, and each two of them stacked", singles.join(", "))
        }
    };
    Err(LayoutError::ContentNotFound {
        tried,
        advice: if profile.body.encoding.is_some() {
            "check body.encoding (and body.datamark), and that the framing does not rewrite ordinary text"
        } else {
            "declare its encoding (body.encoding), or check that the framing does not rewrite ordinary text"
        },
    })
}

/// The first of `choices` under which `content` is found in `framed`, and
/// where.
fn find_slot_among(
    choices: &[Encoding],
    framed: &str,
    content: &str,
    mark: Datamark<'_>,
) -> Result<Option<(Encoding, Range<usize>)>, LayoutError> {
    for &encoding in choices {
        if let Some(slot) = find_slot(encoding, framed, content, mark)? {
            return Ok(Some((encoding, slot)));
        }
    }
    Ok(None)
}

/// Where `content`, written with `encoding`, sits in `framed`: the last
/// place it is written whole. A framing may write it more than once (a
/// title, a snippet or a preview before the page, which real framings
/// write last): the others are echo slots ([`super::echo`]), judged as
/// slots, not a reason to refuse the framing.
fn find_slot(
    encoding: Encoding,
    framed: &str,
    content: &str,
    mark: Datamark<'_>,
) -> Result<Option<Range<usize>>, LayoutError> {
    let Some(encoding) = encoding.single() else {
        return find_stacked_slot(encoding, framed, content, mark);
    };
    let encoded = encoding::encode(encoding, content, mark);
    if let Some((at, _)) = framed.rmatch_indices(&encoded).next() {
        return Ok(Some(at..at + encoded.len()));
    }
    // A writer may wrap a long encoded line (`base64.encodebytes` at 76
    // characters): the span with its line breaks, if it decodes to the
    // content (the codec reads it back the same).
    let wrapped = (!encoded.contains(['\n', '\r']))
        .then(|| super::matching::find_wrapped(framed, &encoded))
        .flatten()
        .filter(|&(start, end)| encoding::faithful(encoding, &framed[start..end], content, mark));
    if let Some((start, end)) = wrapped {
        return Ok(Some(start..end));
    }
    // Writers escape differently (`&#39;` or `&#x27;`, `\u00e9` or `é`,
    // `repr` or `ascii`):
    // take the span between the content's first and last words and decode it.
    let Spelling::Loose { quotes, .. } = encoding.codec().spelling() else {
        return Ok(None);
    };
    let first = content.split_whitespace().next().unwrap_or(content);
    let last = content.split_whitespace().last().unwrap_or(content);
    // The first word may be written elsewhere too (a title line echoing
    // the content's first line): the body is the last span from it that
    // decodes to the whole content.
    let spans = framed.match_indices(first).filter_map(|(start, _)| {
        let end = framed[start..].find(last).map(|i| start + i + last.len())?;
        // A string literal's slot takes its quotes; Python's is either quote.
        let quoted = quotes
            .iter()
            .any(|&q| framed[..start].ends_with(q) && framed[end..].starts_with(q));
        let span = if quoted {
            start - 1..end + 1
        } else {
            start..end
        };
        encoding::faithful(encoding, &framed[span.clone()], content, mark).then_some(span)
    });
    Ok(spans.last())
}

/// Where `content`, written with a stack of two encodings, sits in
/// `framed`. The stack written in full is looked for first; an outer JSON
/// string is usually one value inside a larger string (a JSON-RPC result
/// holding a JSON document), so it is looked for without its own quotes
/// too. Writers escape differently, so at last the span between the
/// content's first and last words is widened, a byte at a time on each
/// side up to [`STACK_REACH`] bytes, to the narrowest span that decodes to
/// the content.
fn find_stacked_slot(
    encoding: Encoding,
    framed: &str,
    content: &str,
    mark: Datamark<'_>,
) -> Result<Option<Range<usize>>, LayoutError> {
    let encoded = encoding::encode(encoding, content, mark);
    let mut spellings = vec![encoded.as_str()];
    if let Some(quote) = nested_quote(encoding) {
        spellings.extend(
            encoded
                .strip_prefix(quote)
                .and_then(|e| e.strip_suffix(quote)),
        );
    }
    for spelled in spellings.into_iter().filter(|s| !s.is_empty()) {
        if let Some((at, _)) = framed.rmatch_indices(spelled).next() {
            return Ok(Some(at..at + spelled.len()));
        }
    }
    let first = content.split_whitespace().next().unwrap_or(content);
    let last = content.split_whitespace().last().unwrap_or(content);
    let mut starts = framed.match_indices(first);
    let (Some((start, _)), None) = (starts.next(), starts.next()) else {
        return Ok(None);
    };
    let Some(end) = framed[start..].find(last).map(|i| start + i + last.len()) else {
        return Ok(None);
    };
    let narrowest = (0..=2 * STACK_REACH).find_map(|widen| {
        (widen.saturating_sub(STACK_REACH)..=widen.min(STACK_REACH)).find_map(|before| {
            let span = start.checked_sub(before)?..end + (widen - before);
            let text = framed.get(span.clone())?;
            encoding::faithful(encoding, text, content, mark).then_some(span)
        })
    });
    Ok(narrowest.map(|span| quoted_stack(encoding, framed, span, mark)))
}

/// `span` widened to the quotes the stack writes around the content when
/// they are there (`\"…\"` for a JSON string in a JSON string), as a
/// single JSON string's slot takes its quotes: the body is then the
/// stacked value whole, whichever way its writer escaped the content.
fn quoted_stack(
    encoding: Encoding,
    framed: &str,
    span: Range<usize>,
    mark: Datamark<'_>,
) -> Range<usize> {
    let empty = encoding::encode(encoding, "", mark);
    let empty = match nested_quote(encoding) {
        Some(_) => empty.get(1..empty.len().saturating_sub(1)).unwrap_or(""),
        None => empty.as_str(),
    };
    let (open, close) = empty.split_at(empty.len() / 2);
    if open.is_empty() || open.len() != close.len() {
        return span;
    }
    match framed[..span.start].ends_with(open) && framed[span.end..].starts_with(close) {
        true => span.start - open.len()..span.end + close.len(),
        false => span,
    }
}

/// The quote a stack's outer layer drops when it is one value inside a
/// larger string of its own kind (`nests_unquoted` of [`Spelling::Loose`]).
fn nested_quote(encoding: Encoding) -> Option<char> {
    match encoding.outer.codec().spelling() {
        Spelling::Loose {
            quotes: &[quote],
            nests_unquoted: true,
        } => Some(quote),
        _ => None,
    }
}

/// How far past the content's first and last words a stacked body's span
/// may reach: the quotes and escapes two layers put around a word (`\"`
/// and the like).
const STACK_REACH: usize = 8;

/// A delimiter run the framing sizes to the content (a fence's backtick or
/// tilde run, lengthened past any run in the content: the shape says
/// which, [`Shape::content_sized_run`]) becomes a variable part.
fn content_sized_runs(shape: &dyn Shape, parts: Vec<Part>) -> Vec<Part> {
    let mut out = Vec::with_capacity(parts.len() + 2);
    for part in parts {
        let PartKind::Fixed { text } = &part.kind else {
            out.push(part);
            continue;
        };
        let run = match shape.content_sized_run(text) {
            Some(run) if part.region.is_delimiter() => run,
            _ => {
                out.push(part);
                continue;
            }
        };
        let fixed = |text: &str| Part {
            region: part.region,
            kind: PartKind::Fixed { text: text.into() },
        };
        if run.at.start > 0 {
            out.push(fixed(&text[..run.at.start]));
        }
        out.push(Part {
            region: part.region,
            kind: PartKind::Variable(Variable {
                alphabet: match run.chars {
                    RunChars::Fence => Alphabet::Fence,
                    RunChars::Level => Alphabet::Level,
                },
                min_len: run.min,
                max_len: 256,
                content_dependent: false,
                echo: None,
            }),
        });
        if run.at.end < text.len() {
            out.push(fixed(&text[run.at.end..]));
        }
    }
    out
}

/// Clips segments to `range`.
fn window(segments: &[Segment], range: Range<usize>) -> Vec<Segment> {
    segments
        .iter()
        .filter_map(|s| {
            let start = s.range.start.max(range.start);
            let end = s.range.end.min(range.end);
            (start < end).then_some(Segment {
                range: start..end,
                changed: s.changed,
                echo: s.echo,
            })
        })
        .collect()
}

/// The framing's own opener before the slot (bracket to bracket, and where
/// its token ends) and closer after it: the opener nearest the content (a
/// preamble may name the delimiter before it) and the first closer after it.
fn frame_delimiters(
    profile: &ResolvedProfile,
    framed: &str,
    slot: &Range<usize>,
) -> Result<(Range<usize>, usize, Range<usize>), LayoutError> {
    let token = profile.delimiters.token.as_str();
    let grammar = profile.grammar();
    let folded = Reader::new(ReaderLevel::Exact).fold(framed);
    let live: Vec<LiveDelimiter> = grammar
        .live(&folded)
        .into_iter()
        .filter(|d| d.token == 0)
        .collect();
    let span = |d: &LiveDelimiter| {
        grammar
            .delimiter_end(&folded, d)
            .map_or(d.start..d.end, |e| d.start..e.max(d.end))
    };
    let (opener, token_end) = live
        .iter()
        .filter(|d| d.kind == DelimiterKind::Open && d.end <= slot.start)
        .map(|d| (span(d), d.end))
        .rfind(|(s, _)| s.end <= slot.start)
        .or_else(|| {
            let bracket = document_bound(profile, framed, slot, Bound::Start)?;
            let end = bracket.end;
            Some((bracket, end))
        })
        .ok_or_else(|| LayoutError::NoOpener {
            token: token.into(),
        })?;
    // In an open-only grammar any marker after the content ends its
    // section, its own name's too (`Document 3:` after `Document 2:`).
    let open_only = profile.delimiters.grammar.is_open_only();
    let closer = live
        .iter()
        .find(|d| (d.kind == DelimiterKind::Close || open_only) && d.start >= slot.end)
        .map(span)
        .or_else(|| bare_closer(profile, &folded, slot))
        // An open-only grammar writes no closer: the section ends where
        // the next marker begins, or at the end of the text.
        .or_else(|| {
            let end = framed.len();
            open_only.then_some(end..end)
        })
        .or_else(|| document_bound(profile, framed, slot, Bound::End))
        .ok_or_else(|| LayoutError::NoCloser {
            token: token.into(),
            expected: grammar.render(Form::Close, 0).plain(),
            after: framed[slot.end..].chars().take(AFTER_EXCERPT).collect(),
        })?;
    Ok((opener, token_end, closer))
}

/// How many characters after the content a missing closer's error quotes.
const AFTER_EXCERPT: usize = 60;

/// Which edge of a document [`document_bound`] finds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Bound {
    Start,
    End,
}

/// A document's own first or last bracket, for a document grammar whose
/// content string is the document's first or last string: every quote is
/// a live delimiter there, but a content string that comes first (`['…',
/// 1]`) or last (`str()` of `[{'id': 1, 'body': '…'}]`, `{"content":
/// "…"}`) has no quote beyond it, and the document, which is the frame
/// (`grammar::json_document`), ends at its bracket. A document that is
/// one string (`json.dumps(c)`, pointer `""`) is all body once its encoding
/// is read: its bounds are its start and the text's end, with no character
/// of their own. `None` for another grammar, an output with no document,
/// or a bracket inside the slot.
fn document_bound(
    profile: &ResolvedProfile,
    framed: &str,
    slot: &Range<usize>,
    bound: Bound,
) -> Option<Range<usize>> {
    let syntax = profile.grammar().document()?.syntax;
    let (lead, value) = syntax.locate(framed).ok()?;
    // A YAML document has no bracket of its own, and its content may be a
    // plain scalar, with no quote either: it is bounded by the text's
    // edges, as a document that is one string is.
    if value.is_string() || syntax == Syntax::Yaml {
        return match bound {
            Bound::Start => (lead <= slot.start).then_some(lead..lead),
            Bound::End => (framed.len() >= slot.end).then_some(framed.len()..framed.len()),
        };
    }
    // The document parses from `lead` to the end; what ends the text may
    // be a comment (a Python literal's), no bracket, and not one byte.
    let range = match bound {
        Bound::Start => lead..lead + 1,
        Bound::End => {
            let end = framed.trim_end().len();
            end.checked_sub(1)?..end
        }
    };
    let outside = match bound {
        Bound::Start => range.end <= slot.start,
        Bound::End => range.start >= slot.end,
    };
    let bracket = framed
        .get(range.clone())?
        .starts_with(['{', '[', '(', '}', ']', ')']);
    (outside && bracket).then_some(range)
}

/// The first closer after the slot spelled without the nonce, for a nonce
/// framing whose closer carries none (`<t-{nonce}>…</t>`): the layout
/// records what the framing writes, and `nonce.matched` judges it, rather
/// than calibration failing and every case then failing the frame's shape.
fn bare_closer(
    profile: &ResolvedProfile,
    folded: &crate::reader::Folded<'_>,
    slot: &Range<usize>,
) -> Option<Range<usize>> {
    profile.delimiters.nonce?;
    let grammar = profile.delimiters.bare().try_grammar().ok()?;
    let d = grammar
        .live(folded)
        .into_iter()
        .find(|d| d.token == 0 && d.kind == DelimiterKind::Close && d.start >= slot.end)?;
    let end = grammar.delimiter_end(folded, &d).unwrap_or(d.end);
    Some(d.start..end.max(d.end))
}

fn region_of(piece: &Range<usize>, delimiter: &Range<usize>, regions: [Region; 3]) -> Region {
    if piece.start < delimiter.start {
        regions[0]
    } else if piece.start < delimiter.end {
        regions[1]
    } else {
        regions[2]
    }
}

/// Turns diff segments of `framed[offset..]` into parts: fixed segments are
/// cut at the delimiters' edges and around field markers.
fn to_parts(
    framed: &str,
    offset: usize,
    segments: &[Segment],
    region: &dyn Fn(&Range<usize>) -> Region,
) -> Vec<Part> {
    let mut parts: Vec<Part> = Vec::new();
    for segment in segments {
        let range = segment.range.start + offset..segment.range.end + offset;
        let Some(content_dependent) = segment.changed else {
            fixed_parts(framed, range, region, &mut parts);
            continue;
        };
        let text = &framed[range.clone()];
        let len = text.chars().count();
        // An echo holds whatever the content writes there.
        let alphabet = match segment.echo {
            Some(_) => Alphabet::Any,
            None => Alphabet::of([text]),
        };
        parts.push(Part {
            region: region(&range),
            kind: PartKind::Variable(Variable {
                alphabet,
                min_len: len,
                max_len: len,
                content_dependent,
                echo: segment.echo,
            }),
        });
    }
    parts
}

fn fixed_parts(
    framed: &str,
    range: Range<usize>,
    region: &dyn Fn(&Range<usize>) -> Region,
    parts: &mut Vec<Part>,
) {
    // A framing may write the kind upper-cased (`[FCKINDQ7]`, a `{kind:upper}`
    // name): it is the kind field still.
    let upper_kind = KIND_MARK.to_ascii_uppercase();
    let markers = [
        (KIND_MARK, FieldName::Kind),
        (upper_kind.as_str(), FieldName::Kind),
        (PROV_MARK, FieldName::Provenance),
        (ATTR_MARK, FieldName::Attribute(String::new())),
    ];
    let mut cuts: Vec<(Range<usize>, FieldName)> = Vec::new();
    for (marker, name) in markers {
        for (at, _) in framed[range.clone()].match_indices(marker) {
            let at = range.start + at;
            cuts.push((at..at + marker.len(), name.clone()));
        }
    }
    cuts.sort_by_key(|(r, _)| r.start);
    let mut from = range.start;
    for (cut, name) in cuts {
        push_fixed(framed, from..cut.start, region, parts);
        let name = match name {
            FieldName::Attribute(_) => FieldName::Attribute(attribute_key(framed, cut.start)),
            other => other,
        };
        parts.push(Part {
            region: region(&cut),
            kind: PartKind::Field {
                name,
                context: field_context(framed, cut.start),
            },
        });
        from = cut.end;
    }
    push_fixed(framed, from..range.end, region, parts);
}

/// Pushes `framed[range]` as fixed parts, split where the region changes.
/// A named header line left empty in calibration (`From: `) is a field the
/// probes did not fill: its value becomes a field part.
fn push_fixed(
    framed: &str,
    range: Range<usize>,
    region: &dyn Fn(&Range<usize>) -> Region,
    parts: &mut Vec<Part>,
) {
    if let Some(at) = empty_header_value(framed, range.clone(), region) {
        push_fixed(framed, range.start..at, region, parts);
        let name = field_context(framed, at);
        parts.push(Part {
            region: Region::Header,
            kind: PartKind::Field {
                name: FieldName::Attribute(match &name {
                    FieldContext::HeaderLine(n) => n.clone(),
                    _ => String::new(),
                }),
                context: name,
            },
        });
        push_fixed(framed, at..range.end, region, parts);
        return;
    }
    let mut start = range.start;
    for (i, _) in framed[range.clone()].char_indices() {
        let at = range.start + i;
        if at > start && region(&(at..at)) != region(&(start..start)) {
            parts.push(fixed(framed, start..at, region));
            start = at;
        }
    }
    if start < range.end {
        parts.push(fixed(framed, start..range.end, region));
    }
}

/// The end of the first `Name: ` header line with an empty value in
/// `framed[range]`, when the range lies in the header.
fn empty_header_value(
    framed: &str,
    range: Range<usize>,
    region: &dyn Fn(&Range<usize>) -> Region,
) -> Option<usize> {
    if range.is_empty() || region(&range) != Region::Header {
        return None;
    }
    let text = &framed[range.clone()];
    let mut offset = 0;
    for line in text.split_inclusive('\n') {
        let at = range.start + offset + line.trim_end_matches(['\n', '\r']).len();
        offset += line.len();
        let bare = line.trim_end_matches(['\n', '\r']);
        let starts_line = range.start + offset - line.len() == 0
            || framed[..range.start + offset - line.len()].ends_with('\n');
        if starts_line && bare.ends_with(": ") && line.ends_with('\n') && at < range.end {
            if let FieldContext::HeaderLine(_) = field_context(framed, at) {
                return Some(at);
            }
        }
    }
    None
}

fn fixed(framed: &str, range: Range<usize>, region: &dyn Fn(&Range<usize>) -> Region) -> Part {
    Part {
        region: region(&range),
        kind: PartKind::Fixed {
            text: framed[range].to_string(),
        },
    }
}

/// The attribute that carries the kind in a calibration frame, if any.
pub fn kind_attribute(framed: &str) -> Option<String> {
    marked_attribute(framed, KIND_MARK)
}

/// The attribute that carries the provenance in a calibration frame, if
/// any (`<document source="...">`): the framing's own name for a request
/// field, as the kind's is.
pub fn provenance_attribute(framed: &str) -> Option<String> {
    marked_attribute(framed, PROV_MARK)
}

/// The attribute whose value holds `mark` in a calibration frame.
fn marked_attribute(framed: &str, mark: &str) -> Option<String> {
    let at = framed.find(mark)?;
    (field_context(framed, at) == FieldContext::AttributeValue)
        .then(|| attribute_key(framed, at))
        .filter(|k| !k.is_empty())
}

/// The attribute name written just before a value at `at` (`name="`), or
/// the header line name; empty when neither can be read.
fn attribute_key(framed: &str, at: usize) -> String {
    let before = framed[..at].trim_end_matches(['"', '\'']);
    let before = before.trim_end_matches(['=', ' ']);
    let name: String = before
        .chars()
        .rev()
        .take_while(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.'))
        .collect();
    name.chars().rev().collect()
}

fn field_context(framed: &str, at: usize) -> FieldContext {
    let before = &framed[..at];
    if before.ends_with(['"', '\'']) {
        return FieldContext::AttributeValue;
    }
    let line = &before[before.rfind('\n').map_or(0, |i| i + 1)..];
    match line.trim_end().strip_suffix(':') {
        Some(name)
            if !name.trim().is_empty()
                && name
                    .trim()
                    .chars()
                    .all(|c| c.is_alphanumeric() || matches!(c, ' ' | '-' | '_')) =>
        {
            FieldContext::HeaderLine(name.trim().to_string())
        }
        _ => FieldContext::Text,
    }
}

/// The whitespace the head ends with: the padding before the content.
fn trailing_space(head: &[Part]) -> String {
    match head.last().map(|p| &p.kind) {
        Some(PartKind::Fixed { text }) => {
            let trimmed = text.trim_end_matches([' ', '\t', '\r', '\n']);
            let mut pad = text[trimmed.len()..].to_string();
            // A blank line ends a header: the padding is what follows it.
            if let Some(i) = pad.find("\n\n").or_else(|| pad.find("\r\n\r\n")) {
                pad = pad[i + pad[i..].find('\n').map_or(0, |j| j + 1)..].to_string();
            }
            pad
        }
        _ => String::new(),
    }
}

/// The whitespace the tail starts with: the padding after the content.
fn leading_space(tail: &[Part]) -> String {
    match tail.first().map(|p| &p.kind) {
        Some(PartKind::Fixed { text }) => {
            let trimmed = text.trim_start_matches([' ', '\t', '\r', '\n']);
            text[..text.len() - trimmed.len()].to_string()
        }
        _ => String::new(),
    }
}

impl Layout {
    /// Learns the frame the framing writes for empty content from two wraps
    /// of [`Probes::empty_requests`], when it is not the usual frame with an
    /// empty body: a self-closing `<document />`, or an element without its
    /// inner one. Nothing is learned when the empty output fits the layout
    /// as it is, is empty, or is no complete frame (the frame's opener, with
    /// every opener closed or the one opener self-closing: then it is judged
    /// like any output); and nothing when the
    /// profile declares that empty content yields nothing (`frame.empty`).
    pub fn learn_empty(&mut self, profile: &ResolvedProfile, probes: &Probes, wraps: &[String]) {
        let [e1, e2] = wraps else {
            return;
        };
        if profile.frame.empty != EmptyContent::Frame || e1.trim().is_empty() {
            return;
        }
        let fits = self.matches(e1);
        if fits.mismatch.is_none() && fits.content.is_empty() && fits.outer_text.is_empty() {
            return;
        }
        if !is_complete_frame(profile, e1) {
            return;
        }
        let segments = segments(e1, &[e2], &[]);
        let mut parts = to_parts(e1, 0, &segments, &|_| Region::Opener);
        fields::name_fields(&mut parts, probes.probe_key(), &profile.header.fields);
        self.empty = Some(parts);
    }
}

/// Whether `framed` is a complete frame of its own: it opens the frame
/// (the outer token's opener, at the exact level) and every opener is
/// closed or closes itself (`<document />`: the tag's last character
/// before its closing bracket is `/`). Self-closing openers are counted
/// apart, so a rendered chat history whose other messages are full
/// elements and whose empty one is `<message role="user" />` is complete.
fn is_complete_frame(profile: &ResolvedProfile, framed: &str) -> bool {
    let grammar = profile.grammar();
    let folded = Reader::new(ReaderLevel::Exact).fold(framed);
    let live = grammar.live(&folded);
    let outer = |kind| live.iter().filter(move |d| d.token == 0 && d.kind == kind);
    let opens = outer(DelimiterKind::Open).count();
    let closes = outer(DelimiterKind::Close).count();
    let self_closing = |d: &&LiveDelimiter| {
        grammar.delimiter_end(&folded, d).is_some_and(|end| {
            let tag = &framed[d.start..end];
            let inner = tag.char_indices().last().map_or("", |(i, _)| &tag[..i]);
            inner.trim_end().ends_with('/')
        })
    };
    match (opens, closes) {
        (0, _) => false,
        // A section is complete once opened: it ends at the next marker.
        _ if profile.delimiters.grammar.is_open_only() => true,
        (o, c) => o == c + outer(DelimiterKind::Open).filter(self_closing).count(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::profile::TestTarget as TargetProfile;

    fn profile() -> TargetProfile {
        TargetProfile::parse(
            "name: t\nadapter: { builtin: reference }\n\
             delimiters: { grammar: xml-tag, token: data }\ncapabilities: [wrap]\n",
        )
        .unwrap()
    }

    fn document_profile(grammar: &str, pointer: &str) -> TargetProfile {
        TargetProfile::parse(&format!(
            "name: t\nadapter: {{ builtin: reference }}\n\
             delimiters: {{ grammar: {grammar}, token: \"{pointer}\" }}\ncapabilities: [wrap]\n"
        ))
        .unwrap()
    }

    /// A run the shape sizes to the content becomes a variable part where
    /// it stands: a fence's at the start of its line, a long bracket's
    /// level between its two brackets (none at level zero). The learner
    /// once took a run at the start of the text alone, where a long
    /// bracket has none: its level stayed fixed text.
    #[test]
    fn a_content_sized_run_is_variable_where_it_stands() {
        use crate::grammar::GrammarKind;
        let fixed = |text: &str| Part {
            region: Region::Opener,
            kind: PartKind::Fixed { text: text.into() },
        };
        let read = |kind: GrammarKind, text: &str| -> Vec<String> {
            content_sized_runs(kind.shape(), vec![fixed(text)])
                .into_iter()
                .map(|p| match p.kind {
                    PartKind::Fixed { text } => text,
                    PartKind::Variable(v) => format!("{:?}{}", v.alphabet, v.min_len),
                    other => format!("{other:?}"),
                })
                .collect()
        };
        assert_eq!(read(GrammarKind::Fence, "````text"), ["Fence3", "text"]);
        assert_eq!(read(GrammarKind::LongBracket, "[==["), ["[", "Level0", "["]);
        assert_eq!(read(GrammarKind::LongBracket, "]]"), ["]", "Level0", "]"]);
        // Not a long bracket: left as it is.
        assert_eq!(read(GrammarKind::LongBracket, "[=x["), ["[=x["]);
    }

    /// The fixed text of the parts in `region`, joined.
    fn text_in(parts: &[Part], region: Region) -> String {
        parts
            .iter()
            .filter(|p| p.region == region)
            .filter_map(|p| match &p.kind {
                PartKind::Fixed { text } => Some(text.as_str()),
                _ => None,
            })
            .collect()
    }

    /// A document whose content string is its last (`str()` of a list of
    /// dicts, the reference SQLite MCP server's answer; a JSON object
    /// ending with the content) or first string has no quote beyond the
    /// content's: the document's own bracket bounds the frame there.
    /// Seen in a blind audit: `base64.encodebytes` wraps at 76
    /// characters; the body was not found, the layout was learned from
    /// plain content and every benign case failed on fidelity.
    #[test]
    fn a_base64_body_wrapped_in_lines_is_its_slot() {
        let content = "fcbodya1 He said \"ok\" & <i>left</i> it's\nnext line fcbodyz1";
        let encoded = encoding::encode(BodyEncoding::Base64, content, "^");
        let (a, b) = encoded.split_at(76);
        let framed = format!("<t>\n{a}\n{b}\n</t>");
        let slot = find_slot(BodyEncoding::Base64.into(), &framed, content, "^".into()).unwrap();
        assert_eq!(slot, Some(4..framed.len() - 5));
        // Plain text is not found across a line break it does not have.
        let split = "<t>\nfcbodya1 one\ntwo fcbodyz1\n</t>";
        let plain = find_slot(
            BodyEncoding::None.into(),
            split,
            "fcbodya1 onetwo fcbodyz1",
            "^".into(),
        );
        assert_eq!(plain.unwrap(), None);
    }

    #[test]
    fn a_content_string_first_or_last_in_its_document_is_bounded_by_the_bracket() {
        let probes = probes(&profile());
        let wraps_of = |encoding: BodyEncoding, around: &dyn Fn(&str) -> String| -> Vec<String> {
            probes
                .requests()
                .iter()
                .map(|r| around(&encoding::encode(encoding, &r.content, "")))
                .collect()
        };
        // Python chose `'` (the probe holds both quotes), escaping its own.
        let rows = wraps_of(BodyEncoding::PythonLiteral, &|s| {
            format!("[{{'id': 1, 'body': {s}}}]")
        });
        assert!(rows[0].contains(r"it\'s"), "{}", rows[0]);
        let layout = learn(
            &document_profile("python-document", "/0/body"),
            &probes,
            &rows,
        )
        .expect("the list's bracket closes the frame");
        assert_eq!(text_in(&layout.tail, Region::Closer), "]");
        assert_eq!(text_in(&layout.tail, Region::Footer), "}");
        let object = wraps_of(BodyEncoding::JsonString, &|s| {
            format!("Result: {{\"url\": \"u\", \"content\": {s}}}\n")
        });
        let layout = learn(
            &document_profile("json-document", "/content"),
            &probes,
            &object,
        )
        .expect("the object's brace closes the frame");
        assert_eq!(text_in(&layout.tail, Region::Closer), "}");
        let first = wraps_of(BodyEncoding::PythonLiteral, &|s| format!("[{s}, 1]"));
        let layout = learn(&document_profile("python-document", "/0"), &probes, &first)
            .expect("the list's bracket opens the frame");
        assert_eq!(text_in(&layout.head, Region::Opener), "[");
        // Text after the document is no document, and a comment ending in
        // a character of two bytes is no bracket: still no closer.
        for after in [" (1 row)", " # r\u{e9}sum\u{e9}"] {
            let trailing: Vec<String> = rows.iter().map(|w| format!("{w}{after}")).collect();
            let error = learn(
                &document_profile("python-document", "/0/body"),
                &probes,
                &trailing,
            )
            .unwrap_err();
            assert!(matches!(error, LayoutError::NoCloser { .. }));
            // The refusal names what stood after the content, so a user
            // can compare it with what the profile declares.
            let message = error.to_string();
            assert!(message.contains(after), "{message}");
            assert!(message.contains("expected `"), "{message}");
        }
    }

    /// A title line echoing the content's first line before the frame
    /// (issue 57): the content's first word is written twice, and the body
    /// is the one span from it that decodes to the whole content, under
    /// whichever encoding the framing used (here HTML entities, found after
    /// JSON strings' loose reading has looked at both).
    #[test]
    fn an_echoed_first_line_is_not_the_body() {
        let profile = profile();
        let probes = probes(&profile);
        let framed = |title: &dyn Fn(&str) -> String| -> Vec<String> {
            probes
                .requests()
                .iter()
                .map(|r| {
                    let body = encoding::encode(BodyEncoding::HtmlEntities, &r.content, "");
                    format!("Title: {}\n<data>\n{body}\n</data>", title(&r.content))
                })
                .collect()
        };
        let first_line = |c: &str| c.split('\n').next().unwrap_or(c).to_string();
        let echoed = framed(&first_line);
        let layout = learn(&profile, &probes, &echoed).expect("the body is found");
        let body = &echoed[0][layout.sample.slot.clone()];
        assert!(
            body.contains("&lt;i&gt;") && body.contains("next line"),
            "{body}"
        );
        // The whole content written twice is learned too (issue 57): the
        // body is the last, and the title an echo slot no frame encloses.
        let whole = |c: &str| encoding::encode(BodyEncoding::HtmlEntities, c, "");
        let twice = framed(&whole);
        let layout = learn(&profile, &probes, &twice).expect("the body is the last");
        assert!(twice[0][..layout.sample.slot.start].ends_with("<data>\n"));
        assert!(layout.echoes_whole());
        let echo = layout.matches(&twice[0]).echoes[0].1;
        assert!(!echo.framed);
    }

    /// A YAML record whose content comes back as a plain scalar has no
    /// quote and no bracket around it: the document is bounded by the
    /// text's edges (`init` learns `yaml-document` on plain probes).
    #[test]
    fn a_plain_yaml_scalar_is_bounded_by_the_text() {
        let profile = document_profile("yaml-document", "/result");
        let plain = probes(&profile).plain();
        let wraps: Vec<String> = plain
            .requests()
            .iter()
            .map(|r| format!("tool: fetch\nresult: {}\nchars: 9\n", r.content))
            .collect();
        let layout = learn(&profile, &plain, &wraps).expect("the text's edges bound it");
        assert_eq!(text_in(&layout.head, Region::Opener), "");
        assert!(text_in(&layout.head, Region::Header).ends_with("result: "));
    }

    /// Issue 57, item 4: calibration outputs some of which are written
    /// as they are and the others as a JSON string (a framing that
    /// encodes only some content). Declared `json-string`, the layout
    /// keeps it (each output is then judged in the shape it has,
    /// `Layout::encoding_for`); undeclared, the layout is the choice per
    /// content; declared, with every probe raw, it is refused: every
    /// output contradicts it.
    #[test]
    fn probes_written_raw_and_encoded_make_one_layout() {
        let with = |body: &str| {
            TargetProfile::parse(&format!(
                "name: t\nadapter: {{ builtin: reference }}\n\
                 delimiters: {{ grammar: xml-tag, token: data }}\n{body}capabilities: [wrap]\n"
            ))
            .unwrap()
        };
        let (declared, undeclared) = (with("body: { encoding: json-string }\n"), with(""));
        let frame = |body: &str| format!("<data>\n{body}\n</data>");
        let probes = probes(&undeclared);
        let contents: Vec<&str> = probes
            .requests()
            .iter()
            .map(|r| r.content.as_str())
            .collect();
        // The shorter two as they are, the longer one as a JSON string.
        let json = serde_json::to_string(contents[2]).unwrap();
        let mixed = [frame(contents[0]), frame(contents[1]), frame(&json)];
        let (raw, json): (Encoding, Encoding) =
            (BodyEncoding::None.into(), BodyEncoding::JsonString.into());
        let layout = learn(&declared, &probes, &mixed).unwrap();
        assert_eq!((layout.encoding, layout.per_content), (json, vec![]));
        let layout = learn(&undeclared, &probes, &mixed).unwrap();
        assert_eq!(
            (layout.encoding, layout.per_content),
            (json, vec![raw, json])
        );
        let all_raw: Vec<String> = contents.iter().map(|c| frame(c)).collect();
        assert!(learn(&declared, &probes, &all_raw).is_err());
        let layout = learn(&undeclared, &probes, &all_raw).unwrap();
        assert_eq!((layout.encoding, layout.per_content), (raw, vec![]));
    }

    /// Longer probes reach the length asked for, keep the marker words at
    /// both ends and the special characters, keep the second content the
    /// longer by as much, and `plain` keeps their length.
    #[test]
    fn longer_probes_reach_the_length_and_keep_what_calibration_reads() {
        let short = probes(&profile());
        for at_least in LONGER_PROBES {
            let longer = short.longer(at_least);
            let contents: Vec<&str> = longer
                .requests()
                .iter()
                .map(|r| r.content.as_str())
                .collect();
            assert!(contents[0].chars().count() >= at_least, "{}", contents[0]);
            assert_eq!(contents[0], contents[1]);
            assert_eq!(
                contents[2].len() - contents[0].len(),
                short.requests()[2].content.len() - short.requests()[0].content.len()
            );
            for (request, n) in longer.requests().iter().zip([1, 1, 2]) {
                assert!(request.content.starts_with(&format!("fcbodya{n} ")));
                assert!(request.content.ends_with(&format!(" fcbodyz{n}")));
                assert!(request.content.contains("\"ok\" & <i>left</i> it's\nnext"));
            }
            let plain = longer.plain();
            assert!(plain.requests()[0].content.chars().count() >= at_least - 40);
            assert!(!plain.requests()[0].content.contains('\n'));
            // Plain probes made longer stay plain, at the new length.
            let again = plain.longer(LONGER_PROBES[1] * 2);
            let content = &again.requests()[2].content;
            // The padding is sized on the usual probe; plain content is
            // shorter than it by less than 40 characters.
            assert!(
                content.chars().count() >= LONGER_PROBES[1] * 2 - 40,
                "{content}"
            );
            assert!(
                !content.contains('\n') && !content.contains('"'),
                "{content}"
            );
            assert!(content.starts_with("fcbodya2 ") && content.ends_with(" fcbodyz2"));
        }
    }
}
