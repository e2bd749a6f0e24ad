//! Inferring a framing's delimiters from its calibration wraps alone, for
//! `framecheck init -- CMD` (issue 31).
//!
//! Every guess is an experiment the framing cannot fake:
//!
//! - **Variable spans.** The same request is wrapped twice; the spans that
//!   differ are per-call values. They are masked with one placeholder
//!   character before any delimiter is looked for, so a nonce inside a
//!   token (`<untrusted-data-3f9a…>`) or a marker (`<<<END id="…">>>`)
//!   becomes `{nonce}` instead of a literal value taken for the token. The
//!   samples give the nonce's alphabet and length; a value that reads as a
//!   small counter or as the clock is said to be one.
//! - **Grammar and token.** Candidates are read from the text around the
//!   content: an element or bracket marker that closes after it, a fence
//!   line before it, or a pair of marker lines around it that share a name
//!   (`--- BEGIN X ---` / `--- END X ---`, `<<<X>>>` / `<<<END_X>>>`,
//!   `[TOOL RESULT 2]` / `[/TOOL RESULT 2]`).
//!
//! What each guess rests on is kept as a note for the proposal's comments.

use std::time::{SystemTime, UNIX_EPOCH};

use super::learn::FIELD_MARKS;
use super::matching::find_wrapped;
use super::tokens::segments;
use super::Alphabet;
use crate::encoding::codec::Reading;
use crate::grammar::shape::{self, Around, MASK};
use crate::grammar::token::{NonceAlphabet, NonceSpec, COUNTER, NONCE};
use crate::grammar::{begin_end, GrammarKind};
use crate::profile::{BodyEncoding, Delimiters, InvalidProfile, DEFAULT_DATAMARK};

/// The delimiters inferred, and what each part was inferred from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Inferred {
    /// Grammar, token, templates and nonce.
    pub delimiters: Delimiters,
    /// What each encoding's experiment ([`crate::encoding::Codec::experiment`])
    /// read off the output, in [`BodyEncoding::ALL`]'s order: the data
    /// mark between the content's words, the prefix every line of the
    /// content came back after.
    pub body: Vec<(BodyEncoding, Reading)>,
    /// One line per observation, for the proposal's comments.
    pub notes: Vec<String>,
    /// An element wrapping the frame's, the second reading: the frame
    /// could be that element, with the inferred one as its `inner`.
    pub outer: Option<String>,
}

/// A per-call value: its spelling in the first and the second wrap of one
/// request.
#[derive(Debug, Clone)]
struct Sample {
    first: String,
    second: String,
}

/// Why no delimiters were inferred.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum InferError {
    /// No shape reads the text around the content as its delimiters.
    #[error("no delimiters recognised around the content")]
    NoShape,
    /// A shape read delimiters that are no usable declaration (a token a
    /// profile cannot hold, a template that does not compile).
    #[error("the text around the content reads as grammar {grammar} with token {token:?}, but that is no usable declaration: {reason}")]
    Unusable {
        /// The shape that read it.
        grammar: GrammarKind,
        /// The token it read.
        token: String,
        /// Why the declaration is refused.
        reason: Box<InvalidProfile>,
    },
}

/// Infers the delimiters from two wraps of the same request (`first`,
/// `second`), whose content starts with `fcbodya` and ends with `fcbodyz`.
/// What is inferred always validates as a profile's delimiters.
pub fn infer(first: &str, second: &str, content: &str) -> Result<Inferred, InferError> {
    let inferred = infer_any(first, second, content).ok_or(InferError::NoShape)?;
    let d = &inferred.delimiters;
    d.validate().map_err(|reason| InferError::Unusable {
        grammar: d.grammar,
        token: d.token.clone(),
        reason: Box::new(reason),
    })?;
    Ok(inferred)
}

/// [`infer`], before the declaration is checked.
fn infer_any(first: &str, second: &str, content: &str) -> Option<Inferred> {
    let (masked, samples) = mask_variables(first, second);
    let (head, tail) = around_content(&masked, content)?;
    let body = read_body(&masked, content);
    // Text the body owns (a quoted body's first prefix) is no part of the
    // frame's delimiters: the shapes read the head without it.
    let head = body
        .iter()
        .filter_map(|(_, r)| r.head_suffix.as_deref())
        .fold(head, |h, suffix| h.strip_suffix(suffix).unwrap_or(h));
    // A body quoted line by line sets the content apart by itself.
    let quoted = body.iter().any(|(e, _)| e.codec().quotes_lines());
    let whole = Whole {
        output: &masked,
        content,
    };
    let mut delimiters = guess(head, tail, quoted, whole)
        .or_else(|| guess(unquoted(head, tail)?, tail, false, whole))?;
    let mut notes = Vec::new();
    let unmask = |s: &str| s.replace(MASK, NONCE);
    // A value is the nonce when a delimiter spelled with it is in the
    // first wrap: the mask marks where, the sample says which value.
    let spelled =
        |t: &str, s: &Sample| begin_end::spell(t, &delimiters.token).replace(MASK, &s.first);
    let in_delimiters = |s: &Sample| {
        [
            Some(delimiters.token.as_str()),
            delimiters.open.as_deref(),
            delimiters.close.as_deref(),
        ]
        .into_iter()
        .flatten()
        .any(|t| t.contains(MASK) && first.contains(&spelled(t, s)))
    };
    let marked = delimiters.token.contains(MASK)
        || [&delimiters.open, &delimiters.close]
            .iter()
            .any(|t| t.as_deref().is_some_and(|t| t.contains(MASK)));
    let nonce_samples: Vec<&Sample> = samples.iter().filter(|s| in_delimiters(s)).collect();
    if marked && counted(&delimiters, &nonce_samples) {
        declare_counter(&mut delimiters, nonce_samples[0], &mut notes);
    } else if marked && !nonce_samples.is_empty() {
        delimiters.nonce = Some(nonce_spec(&nonce_samples, &mut notes)?);
    } else if !marked {
        mark_constant_value(&mut delimiters, &mut notes);
    }
    let outer = take_outer_reading(&mut delimiters, &mut notes);
    delimiters.token = unmask(&delimiters.token);
    notes.insert(
        0,
        format!(
            "grammar {} and token {:?}: {}",
            delimiters.grammar.name(),
            delimiters.token,
            delimiters.grammar.shape().evidence()
        ),
    );
    delimiters.open = delimiters.open.as_deref().map(unmask);
    delimiters.close = delimiters.close.as_deref().map(unmask);
    let elsewhere = samples.len() - nonce_samples.len();
    if elsewhere > 0 {
        notes.push(format!(
            "{elsewhere} per-call value(s) outside the delimiters (an id or a counter in an \
             attribute or a header line): learned as variable parts of the layout, they do \
             not protect the frame"
        ));
    }
    notes.extend(body.iter().map(|(_, r)| r.note.clone()));
    Some(Inferred {
        delimiters,
        body,
        notes,
        outer,
    })
}

/// What each encoding's experiment reads off the output, in
/// [`BodyEncoding::ALL`]'s order.
fn read_body(framed: &str, content: &str) -> Vec<(BodyEncoding, Reading)> {
    BodyEncoding::ALL
        .into_iter()
        .filter_map(|e| Some((e, e.codec().experiment()?(framed, content)?)))
        .collect()
}

/// The element around the frame, a second reading of the same output: taken
/// out of the reserved names and said in a note. It is left to the
/// reserved-name experiment, which sees it as fixed text.
fn take_outer_reading(delimiters: &mut Delimiters, notes: &mut Vec<String>) -> Option<String> {
    // A section grammar's reserved names are its other sections, not a
    // second reading.
    let outer = if delimiters.grammar.is_open_only() {
        None
    } else {
        delimiters.reserved.pop()
    };
    if let Some(outer) = &outer {
        notes.push(format!(
            "two readings fit: the frame is <{token}> inside <{outer}>, or <{outer}> with \
             `inner: {token}`; the second also runs the catalogue's inner-element cases. \
             Declare `token: {outer}` and `inner: {token}` if the whole <{outer}> block is \
             the untrusted frame",
            token = delimiters.token.replace(MASK, NONCE),
        ));
    }
    outer
}

/// The head without the opening quote of a string literal that holds the
/// content after a label (`Observation: "…"`, `Result: '…'`): the quote
/// is the body's encoding, the label before it the frame's marker. Only
/// when the same quote follows the content's last word.
fn unquoted<'a>(head: &'a str, tail: &str) -> Option<&'a str> {
    let quote = head
        .chars()
        .next_back()
        .filter(|c| matches!(c, '"' | '\''))?;
    let after = tail.trim_start_matches(|c: char| c.is_ascii_alphanumeric());
    after
        .starts_with(quote)
        .then(|| &head[..head.len() - quote.len_utf8()])
}

/// The text before and after the content: around its first and last
/// marker words (the last start marker: a preamble may quote the content's
/// first line), or around its spelling in an encoding that hides the
/// words (base64).
fn around_content<'a>(framed: &'a str, content: &str) -> Option<(&'a str, &'a str)> {
    if let Some(start) = framed.rfind("fcbodya") {
        let end = framed[start..].find("fcbodyz").map(|i| start + i)?;
        return Some((&framed[..start], &framed[end..]));
    }
    let (start, end) = BodyEncoding::ALL.into_iter().find_map(|e| {
        let encoded = e.codec().encode(content, DEFAULT_DATAMARK.into());
        let hidden = !encoded.contains("fcbodya");
        hidden.then(|| find_wrapped(framed, &encoded))?
    })?;
    Some((&framed[..start], &framed[end..]))
}

/// `first` with every span that differs from `second` replaced by [`MASK`],
/// and the values of those spans in both.
fn mask_variables(first: &str, second: &str) -> (String, Vec<Sample>) {
    let spans = |a: &str, b: &str| -> Vec<std::ops::Range<usize>> {
        segments(a, &[b], &[])
            .into_iter()
            .filter(|s| s.changed == Some(false))
            .map(|s| s.range)
            .collect()
    };
    let in_first = widen_to_uuids(first, spans(first, second));
    let in_second = widen_to_uuids(second, spans(second, first));
    if in_first.len() != in_second.len() {
        // The two wraps differ in a way that is not a set of aligned
        // values; nothing is masked, and inference works on the text as is.
        return (first.to_string(), Vec::new());
    }
    let mut masked = String::with_capacity(first.len());
    let mut at = 0;
    for span in &in_first {
        masked.push_str(&first[at..span.start]);
        masked.push(MASK);
        at = span.end;
    }
    masked.push_str(&first[at..]);
    let samples = in_first
        .iter()
        .zip(&in_second)
        .map(|(a, b)| Sample {
            first: first[a.clone()].to_string(),
            second: second[b.clone()].to_string(),
        })
        .collect();
    (masked, samples)
}

/// Each span widened to the UUID it sits in, if any: a UUID whose only
/// changing group is the last (a counter spelled as a UUID) is one value,
/// not a fixed prefix and a number.
fn widen_to_uuids(text: &str, spans: Vec<std::ops::Range<usize>>) -> Vec<std::ops::Range<usize>> {
    const GROUPS: [usize; 5] = [8, 4, 4, 4, 12];
    let is_uuid = |t: &str| {
        let parts: Vec<&str> = t.split('-').collect();
        parts.len() == 5
            && parts
                .iter()
                .zip(GROUPS)
                .all(|(p, n)| p.len() == n && p.chars().all(|c| c.is_ascii_hexdigit()))
    };
    let mut out: Vec<std::ops::Range<usize>> = Vec::new();
    for span in spans {
        // A UUID is 36 bytes: look for one starting up to 36 bytes back
        // (`get`: a window may end inside a character that is no UUID's).
        let widened = (span.start.saturating_sub(36)..=span.start)
            .map(|at| at..at + 36)
            .find(|r| span.end <= r.end && text.get(r.clone()).is_some_and(is_uuid))
            .unwrap_or(span);
        match out.last_mut() {
            Some(last) if last.end > widened.start => last.end = last.end.max(widened.end),
            _ => out.push(widened),
        }
    }
    out
}

/// The nonce's declaration from its samples, with a note on what it looks
/// like; `None` when its characters fit no nonce alphabet.
fn nonce_spec(samples: &[&Sample], notes: &mut Vec<String>) -> Option<NonceSpec> {
    let values = samples
        .iter()
        .flat_map(|s| [s.first.as_str(), s.second.as_str()]);
    let alphabet = match Alphabet::of(values.clone()) {
        Alphabet::Digits => NonceAlphabet::Digits,
        Alphabet::Hex => NonceAlphabet::Hex,
        Alphabet::Uuid => NonceAlphabet::Uuid,
        Alphabet::Alnum => NonceAlphabet::Alnum,
        Alphabet::Base64 => NonceAlphabet::Base64url,
        Alphabet::Fence | Alphabet::Level | Alphabet::Any => return None,
    };
    let min_length = values.clone().map(|v| v.chars().count()).min()?;
    let sample = &samples[0];
    notes.push(format!(
        "nonce: the delimiters carry a value that changed between two wraps of one request \
         ({:?}, then {:?}): alphabet {alphabet:?}, {min_length} characters at least",
        sample.first, sample.second
    ));
    if let Some(kind) = predictable_kind(&sample.first, &sample.second) {
        notes.push(format!(
            "the value reads as {kind}; the nonce probes judge whether it is predictable"
        ));
    }
    Some(NonceSpec {
        alphabet,
        min_length: Some(min_length),
    })
}

/// A value in the delimiters that looks drawn at random (16 or more hex
/// digits with letters and digits both, or a UUID) but was the same in both
/// wraps: a nonce drawn once and reused, not a name. It is declared as the
/// nonce, so the nonce probes judge it (a reused value is their finding),
/// instead of being taken for a literal token.
fn mark_constant_value(delimiters: &mut Delimiters, notes: &mut Vec<String>) {
    let texts = [
        Some(delimiters.token.as_str()),
        delimiters.open.as_deref(),
        delimiters.close.as_deref(),
    ];
    let Some(value) = texts.into_iter().flatten().find_map(random_looking) else {
        return;
    };
    let mask = MASK.to_string();
    delimiters.token = delimiters.token.replacen(&value, &mask, 1);
    for template in [&mut delimiters.open, &mut delimiters.close]
        .into_iter()
        .flatten()
    {
        *template = template.replacen(&value, &mask, 1);
    }
    let alphabet = if value.contains('-') {
        NonceAlphabet::Uuid
    } else {
        NonceAlphabet::Hex
    };
    notes.push(format!(
        "nonce: {value:?} in the delimiters looks drawn at random but was the same in two \
         wraps; declared as the nonce so the nonce probes judge it (a value reused across \
         calls is a finding)"
    ));
    delimiters.nonce = Some(NonceSpec {
        alphabet,
        min_length: Some(value.chars().count()),
    });
}

/// The first run of hex digits (and `-`) in `text` that reads as a random
/// value: a UUID, or 16 or more hex digits holding letters and digits.
fn random_looking(text: &str) -> Option<String> {
    let hexish = |c: char| c.is_ascii_hexdigit() || c == '-';
    text.split(|c: char| !hexish(c))
        .map(|run| run.trim_matches('-'))
        .find(|run| {
            let digits = run.chars().filter(char::is_ascii_digit).count();
            let letters = run.chars().filter(char::is_ascii_alphabetic).count();
            let hex = run.chars().filter(char::is_ascii_hexdigit).count();
            hex >= 16 && digits > 0 && letters > 0
        })
        .map(str::to_string)
}

/// Whether the per-call values in `delimiters` are a counter in its marker
/// templates (a shape that reads templates): the token holds none (a counter in a name stays a nonce the
/// nonce probes judge), and every value is a small decimal step.
fn counted(delimiters: &Delimiters, samples: &[&Sample]) -> bool {
    delimiters.grammar.shape().fields().templates
        && !delimiters.token.contains(MASK)
        && !samples.is_empty()
        && samples.iter().all(|s| is_counter(&s.first, &s.second))
}

/// Declares the masked value in `delimiters`' templates as `{counter}`,
/// saying so with the first `sample`.
fn declare_counter(delimiters: &mut Delimiters, sample: &Sample, notes: &mut Vec<String>) {
    for template in [&mut delimiters.open, &mut delimiters.close]
        .into_iter()
        .flatten()
    {
        *template = template.replace(MASK, COUNTER);
    }
    notes.push(format!(
        "counter: the marker lines carry a number that counts ({:?}, then {:?}): declared \
         as `{COUNTER}`, so a marker with any number is read as the framing's",
        sample.first, sample.second
    ));
}

/// Two decimal samples a small step apart.
fn is_counter(first: &str, second: &str) -> bool {
    let digits = |v: &str| !v.is_empty() && v.chars().all(|c| c.is_ascii_digit());
    digits(first) && digits(second) && predictable_kind(first, second) == Some(COUNTER_KIND)
}

/// What [`predictable_kind`] calls a counter.
const COUNTER_KIND: &str = "a counter (two wraps apart by a small step)";

/// "a counter" or "the clock" when two decimal samples read as one.
fn predictable_kind(first: &str, second: &str) -> Option<&'static str> {
    let (a, b) = (first.parse::<u128>().ok()?, second.parse::<u128>().ok()?);
    if a.abs_diff(b) <= 16 {
        return Some(COUNTER_KIND);
    }
    let now = SystemTime::now().duration_since(UNIX_EPOCH).ok()?;
    let day = 86_400u128;
    [
        (now.as_secs() as u128, day),
        (now.as_millis(), day * 1_000),
        (now.as_micros(), day * 1_000_000),
        (now.as_nanos(), day * 1_000_000_000),
    ]
    .iter()
    .any(|&(t, window)| a.abs_diff(t) <= window)
    .then_some("the clock (it is within a day of the current Unix time)")
}

/// The masked output and the content sent, which a document shape reads
/// back whole ([`Around::output`]).
#[derive(Clone, Copy)]
struct Whole<'a> {
    output: &'a str,
    content: &'a str,
}

/// The grammar and token read from the masked text around the content:
/// every shape's experiments, in their order, the first that reads one.
fn guess(head: &str, tail: &str, quoted: bool, whole: Whole<'_>) -> Option<Delimiters> {
    let around = Around {
        head,
        tail,
        field_marks: &FIELD_MARKS,
        quoted,
        output: whole.output,
        content: whole.content,
    };
    shape::guesses().iter().find_map(|g| (g.read)(&around))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grammar::SectionMarker;
    use crate::profile::DatamarkReplaces;

    fn delimiters(first: &str, second: &str) -> Delimiters {
        infer(first, second, "fcbodya1 x fcbodyz1")
            .expect("inferred")
            .delimiters
    }

    #[test]
    fn a_nonce_in_the_token_is_a_nonce_not_a_token() {
        let d = delimiters(
            "<untrusted-3f9a0c1d2e3f4a5b>\nfcbodya1 x fcbodyz1\n</untrusted-3f9a0c1d2e3f4a5b>",
            "<untrusted-77aa01bc9d8e7f60>\nfcbodya1 x fcbodyz1\n</untrusted-77aa01bc9d8e7f60>",
        );
        assert_eq!(d.grammar, GrammarKind::XmlTag);
        assert_eq!(d.token, "untrusted-{nonce}");
        let nonce = d.nonce.unwrap();
        assert_eq!(nonce.alphabet, NonceAlphabet::Hex);
        assert_eq!(nonce.min_length, Some(16));
    }

    #[test]
    fn marker_lines_with_a_uuid_attribute_are_begin_end_with_a_nonce() {
        let frame = |id: &str| {
            format!(
                "Notice: external text.\n<<<EXTERNAL_CONTENT id=\"{id}\">>>\nSource: fcprovq7\n---\n\
                 fcbodya1 x fcbodyz1\n<<<END_EXTERNAL_CONTENT id=\"{id}\">>>"
            )
        };
        let d = delimiters(
            &frame("0f8fad5b-d9cb-469f-a165-70867728950e"),
            &frame("7c9e6679-7425-40de-944b-e07fc1f90ae7"),
        );
        assert_eq!(d.grammar, GrammarKind::BeginEnd);
        assert_eq!(d.token, "EXTERNAL_CONTENT");
        assert_eq!(d.open.as_deref(), Some("<<<{token} id=\"{nonce}\">>>"));
        assert_eq!(d.close.as_deref(), Some("<<<END_{token} id=\"{nonce}\">>>"));
        assert_eq!(d.nonce.unwrap().alphabet, NonceAlphabet::Uuid);
    }

    #[test]
    fn marker_lines_whose_name_has_spaces_keep_the_other_words_in_the_templates() {
        let text = "--- BEGIN TOOL OUTPUT ---\nfcbodya1 x fcbodyz1\n--- END TOOL OUTPUT ---";
        let d = delimiters(text, text);
        assert_eq!(d.grammar, GrammarKind::BeginEnd);
        assert_eq!(d.token, "OUTPUT");
        assert_eq!(d.open.as_deref(), Some("--- BEGIN TOOL {token} ---"));
        assert_eq!(d.close.as_deref(), Some("--- END TOOL {token} ---"));
        assert_eq!(d.nonce, None);
        let text = "[TOOL RESULT 2]\nfcbodya1 x fcbodyz1\n[/TOOL RESULT 2]";
        let d = delimiters(text, text);
        assert_eq!(d.grammar, GrammarKind::BeginEnd);
        assert_eq!(d.open.as_deref(), Some("[TOOL {token} 2]"));
        assert_eq!(d.close.as_deref(), Some("[/TOOL {token} 2]"));
    }

    #[test]
    fn a_marker_after_the_rest_of_the_contents_line_is_found() {
        let text = "History:\n<CONVERSATION HISTORY>\n1. {\"output\": \"fcbodya1 x fcbodyz1\"}\n\
                    </CONVERSATION HISTORY>";
        let d = delimiters(text, text);
        assert_eq!(d.grammar, GrammarKind::BeginEnd);
        assert_eq!(d.open.as_deref(), Some("<{token} HISTORY>"));
        assert_eq!(d.close.as_deref(), Some("</{token} HISTORY>"));
    }

    #[test]
    fn a_footer_line_before_the_end_marker_is_passed_over() {
        let text = "=== BEGIN PAGE ===\nfcbodya1 x fcbodyz1\nRetrieved today\n=== END PAGE ===";
        let d = delimiters(text, text);
        assert_eq!(d.open.as_deref(), Some("=== BEGIN {token} ==="));
        assert_eq!(d.close.as_deref(), Some("=== END {token} ==="));
    }

    #[test]
    fn boundary_lines_sharing_a_word_are_begin_end_markers() {
        // A MIME-style boundary: the per-call value is the whole word.
        let frame =
            |b: &str| format!("--{b}\nContent-Type: text/plain\n\nfcbodya1 x fcbodyz1\n--{b}--");
        let d = delimiters(
            &frame("3f9a0c1d2e3f4a5b6c7d8e9f"),
            &frame("77aa01bc9d8e7f6051e2d3c4"),
        );
        assert_eq!(d.grammar, GrammarKind::BeginEnd);
        assert_eq!(d.token, "{nonce}");
        assert_eq!(d.open.as_deref(), Some("--{token}"));
        assert_eq!(d.close.as_deref(), Some("--{token}--"));
        assert_eq!(d.nonce.unwrap().alphabet, NonceAlphabet::Hex);
        // A constant boundary is its token, with no nonce.
        let text = frame("frontier");
        let d = delimiters(&text, &text);
        assert_eq!(
            (d.grammar, d.token.as_str()),
            (GrammarKind::BeginEnd, "frontier")
        );
        assert_eq!(d.nonce, None);
        // Lines that are the word alone are no markers; the same line
        // with punctuation is one line opening and closing (issue 57).
        let text = "frontier\nfcbodya1 x fcbodyz1\nfrontier";
        assert_eq!(
            infer(text, text, "fcbodya1 x fcbodyz1").err(),
            Some(InferError::NoShape),
            "{text}"
        );
        let text = "==frontier==\nfcbodya1 x fcbodyz1\n==frontier==";
        let d = delimiters(text, text);
        assert_eq!(
            (d.grammar, d.token.as_str()),
            (GrammarKind::BeginEnd, "frontier")
        );
        assert_eq!(d.open.as_deref(), Some("=={token}=="));
        assert_eq!(d.close, d.open);
    }

    #[test]
    fn the_classic_shapes_are_still_read() {
        let tag = "Data: <x-data id=\"1\">\nfcbodya1 … fcbodyz1\n</x-data>";
        let d = delimiters(tag, tag);
        assert_eq!(
            (d.grammar, d.token.as_str()),
            (GrammarKind::XmlTag, "x-data")
        );
        let marker = "[PEER]\nfcbodya1 x fcbodyz1\n[/PEER]";
        assert_eq!(
            delimiters(marker, marker).grammar,
            GrammarKind::BracketMarker
        );
        let fence = "````text\nfcbodya1 x fcbodyz1\n````";
        let d = delimiters(fence, fence);
        assert_eq!((d.grammar, d.token.as_str()), (GrammarKind::Fence, "text"));
        let be = "<<<EXTERNAL>>>\nfcbodya1 x fcbodyz1\n<<<END_EXTERNAL>>>";
        let d = delimiters(be, be);
        assert_eq!(d.grammar, GrammarKind::BeginEnd);
        assert_eq!(d.open.as_deref(), Some("<<<{token}>>>"));
        assert_eq!(d.close.as_deref(), Some("<<<END_{token}>>>"));
        assert!(infer(
            "fcbodya1 x fcbodyz1",
            "fcbodya1 x fcbodyz1",
            "fcbodya1 x fcbodyz1"
        )
        .is_err_and(|e| e == InferError::NoShape));
    }

    #[test]
    fn a_random_looking_value_reused_across_wraps_is_declared_as_the_nonce() {
        let text = "<<<EXTERNAL_CONTENT id=\"926c7ec68ab44b481697763eeec0c315\">>>\nfcbodya1 x \
                    fcbodyz1\n<<<END_EXTERNAL_CONTENT id=\"926c7ec68ab44b481697763eeec0c315\">>>";
        let inferred = infer(text, text, "fcbodya1 x fcbodyz1").unwrap();
        let d = inferred.delimiters;
        assert_eq!(d.token, "EXTERNAL_CONTENT");
        assert_eq!(d.open.as_deref(), Some("<<<{token} id=\"{nonce}\">>>"));
        assert_eq!(d.nonce.unwrap().min_length, Some(32));
        assert!(inferred.notes.iter().any(|n| n.contains("same in two")));
        // A name with digits is no random value.
        assert_eq!(random_looking("TOOL-RESULT-2"), None);
        assert_eq!(random_looking("deadbeefcafe"), None);
    }

    #[test]
    fn a_counter_spelled_as_a_uuid_is_one_uuid_nonce() {
        let frame = |n: u32| {
            let id = format!("00000000-0000-4000-8000-{n:012}");
            format!("<data-{id}>\nfcbodya1 x fcbodyz1\n</data-{id}>")
        };
        let inferred = infer(&frame(1), &frame(2), "fcbodya1 x fcbodyz1").unwrap();
        assert_eq!(inferred.delimiters.token, "data-{nonce}");
        let nonce = inferred.delimiters.nonce.unwrap();
        assert_eq!(
            (nonce.alphabet, nonce.min_length),
            (NonceAlphabet::Uuid, Some(36))
        );
    }

    impl Inferred {
        /// The marker `encoding`'s experiment read, if it read one.
        fn marker(&self, encoding: BodyEncoding) -> Option<&str> {
            let (_, reading) = self.body.iter().find(|(e, _)| *e == encoding)?;
            reading.marker.as_deref()
        }

        /// The data mark read, and what it replaces.
        fn datamark(&self) -> Option<(String, DatamarkReplaces)> {
            let (_, reading) = self
                .body
                .iter()
                .find(|(e, _)| *e == BodyEncoding::Datamark)?;
            Some((reading.marker.clone()?, reading.replaces))
        }
    }

    #[test]
    fn a_base64_body_is_found_by_its_spelling_and_a_datamark_by_its_mark() {
        let content = "fcbodya1 He said it\nnext fcbodyz1";
        let encoded = crate::encoding::encode(BodyEncoding::Base64, content, "^");
        let text = format!("<encoded kind=\"k\">\n{encoded}\n</encoded>");
        let inferred = infer(&text, &text, content).unwrap();
        assert_eq!(inferred.delimiters.token, "encoded");
        assert_eq!(inferred.datamark(), None);
        let marked =
            "<marked>\nfcbodya1\u{2c6}He\u{2c6}said\u{2c6}it\nnext\u{2c6}fcbodyz1\n</marked>";
        let inferred = infer(marked, marked, content).unwrap();
        let (mark, replaces) = inferred.datamark().unwrap();
        assert_eq!(
            (mark.as_str(), replaces),
            ("\u{2c6}", DatamarkReplaces::Spaces)
        );
        let all = marked.replace("it\nnext", "it\u{2c6}next");
        let (_, replaces) = infer(&all, &all, content).unwrap().datamark().unwrap();
        assert_eq!(replaces, DatamarkReplaces::Whitespace);
    }

    /// Seen in a blind audit: `base64.encodebytes` wraps its lines at 76
    /// characters, and `init` found no delimiters around a body it looked
    /// for on one line.
    #[test]
    fn a_base64_body_wrapped_in_lines_is_found() {
        let content = "fcbodya1 He said \"ok\" & <i>left</i> it's\nnext line fcbodyz1";
        let encoded = crate::encoding::encode(BodyEncoding::Base64, content, "^");
        let (a, b) = encoded.split_at(76);
        let text = format!("<attachment encoding=\"base64\">\n{a}\n{b}\n</attachment>");
        let inferred = infer(&text, &text, content).unwrap();
        assert_eq!(inferred.delimiters.token, "attachment");
        assert_eq!(find_wrapped("x ab\ncd y", "abcd"), Some((2, 7)));
        assert_eq!(find_wrapped("x ab cd y", "abcd"), None);
    }

    #[test]
    fn a_closer_without_the_openers_nonce_still_names_the_frame() {
        let frame = |n: &str| format!("<data-{n} kind=\"fckindq7\">\nfcbodya1 x fcbodyz1\n</data>");
        let d = delimiters(
            &frame("0f8fad5b-d9cb-469f-a165-70867728950e"),
            &frame("7c9e6679-7425-40de-944b-e07fc1f90ae7"),
        );
        assert_eq!(
            (d.grammar, d.token.as_str()),
            (GrammarKind::XmlTag, "data-{nonce}")
        );
        assert_eq!(d.nonce.unwrap().alphabet, NonceAlphabet::Uuid);
    }

    #[test]
    fn a_counter_outside_the_delimiters_is_no_nonce() {
        let inferred = infer(
            "<result call=\"1\">\nfcbodya1 x fcbodyz1\n</result>",
            "<result call=\"2\">\nfcbodya1 x fcbodyz1\n</result>",
            "fcbodya1 x fcbodyz1",
        )
        .unwrap();
        assert_eq!(inferred.delimiters.token, "result");
        assert_eq!(inferred.delimiters.nonce, None);
        assert!(inferred
            .notes
            .iter()
            .any(|n| n.contains("outside the delimiters")));
    }

    #[test]
    fn a_counter_in_marker_lines_is_declared_as_a_counter() {
        let framed = |n: u32| {
            format!("-----[EXTRACT #{n}]-----\nfcbodya1 x fcbodyz1\n-----[END EXTRACT #{n}]-----")
        };
        let inferred = infer(&framed(4), &framed(5), "fcbodya1 x fcbodyz1").unwrap();
        let d = &inferred.delimiters;
        assert_eq!(
            (d.token.as_str(), d.open.as_deref(), d.close.as_deref()),
            (
                "EXTRACT",
                Some("-----[{token} #{counter}]-----"),
                Some("-----[END {token} #{counter}]-----")
            )
        );
        assert_eq!(d.nonce, None);
        assert!(inferred.notes.iter().any(|n| n.starts_with("counter:")));
        // A value that does not count stays a nonce.
        let random =
            |v: &str| format!("--- BEGIN DOC {v} ---\nfcbodya1 x fcbodyz1\n--- END DOC {v} ---");
        let inferred = infer(
            &random("8f3a9c0e1d2b4f67"),
            &random("0c1d2e3f4a5b6c7d"),
            "fcbodya1 x fcbodyz1",
        )
        .unwrap();
        assert!(inferred.delimiters.nonce.is_some());
        assert!(!inferred.delimiters.close.unwrap().contains("{counter}"));
    }

    #[test]
    fn a_length_in_the_opener_is_a_counter_and_the_end_line_the_closer() {
        let content = "fcbodya1 x fcbodyz1";
        let framed = format!("Tool result (19 characters follow):\n{content}\nEnd of tool result.");
        // The length does not change between two wraps of one request.
        let inferred = infer(&framed, &framed, content).unwrap();
        let d = &inferred.delimiters;
        assert_eq!(
            (d.grammar, d.open.as_deref(), d.close.as_deref()),
            (
                GrammarKind::BeginEnd,
                Some("Tool result ({counter} characters follow):"),
                Some("End of tool result.")
            )
        );
        assert_eq!(d.nonce, None);
        // A per-call value on the end line is its nonce.
        let end = |v: &str| framed.replace("result.", &format!("result {v}."));
        let inferred = infer(&end("3f9a0c1d2e3f4a5b"), &end("77aa01bc9d8e7f60"), content).unwrap();
        let d = &inferred.delimiters;
        assert_eq!(d.close.as_deref(), Some("End of tool result {nonce}."));
        assert!(d.nonce.is_some());
    }

    #[test]
    fn a_string_literal_after_a_label_is_read_without_its_quote() {
        for framed in [
            "Observation: \"fcbodya1 x fcbodyz1\"\nThought:",
            "Observation: 'fcbodya1 x fcbodyz1'\nThought:",
        ] {
            let d = delimiters(framed, framed);
            assert_eq!(d.grammar, GrammarKind::Section, "{framed}");
            assert_eq!(
                (d.token.as_str(), d.reserved.as_slice()),
                ("Observation", &["Thought".to_string()][..])
            );
        }
        // A quote that does not also close the content is no string's.
        assert!(infer(
            "Observation: \"fcbodya1 x fcbodyz1\nThought:",
            "Observation: \"fcbodya1 x fcbodyz1\nThought:",
            "fcbodya1 x fcbodyz1"
        )
        .is_err());
    }

    #[test]
    fn a_body_quoted_line_by_line_is_a_line_prefix_inside_its_frame() {
        let content = "fcbodya1 said\nnext fcbodyz1";
        let quoted =
            |prefix: &str| format!("Email:\n{prefix}fcbodya1 said\n{prefix}next fcbodyz1\nReply:");
        for prefix in ["> ", "| ", "    ", "# "] {
            let inferred = infer(&quoted(prefix), &quoted(prefix), content).unwrap();
            assert_eq!(
                inferred.marker(BodyEncoding::LinePrefix),
                Some(prefix),
                "{prefix:?}"
            );
            // The labels around the quote are read without its first prefix.
            let d = &inferred.delimiters;
            assert_eq!(
                (d.grammar, d.token.as_str()),
                (GrammarKind::Section, "Email")
            );
            assert_eq!(d.reserved, ["Reply"]);
        }
        // Inside tags too.
        let tagged = "<email>\n> fcbodya1 said\n> next fcbodyz1\n</email>";
        let inferred = infer(tagged, tagged, content).unwrap();
        assert_eq!(inferred.delimiters.token, "email");
        assert_eq!(inferred.marker(BodyEncoding::LinePrefix), Some("> "));
        // A prefix on the first line only, or a word before the content, is
        // no quote.
        for framed in [
            "<email>\n> fcbodya1 said\nnext fcbodyz1\n</email>",
            "<email>\nText: fcbodya1 said\nText: next fcbodyz1\n</email>",
            "<email>\nfcbodya1 said\nnext fcbodyz1\n</email>",
        ] {
            assert_eq!(
                infer(framed, framed, content)
                    .unwrap()
                    .marker(BodyEncoding::LinePrefix),
                None,
                "{framed:?}"
            );
        }
    }

    #[test]
    fn a_json_list_under_a_section_marker_is_the_section_with_a_json_string_body() {
        // `json.dumps` of a list of passages, the content the second, under
        // a `[[ ## name ## ]]` marker (issue 57: refused as "no delimiters
        // recognised" before the json-string experiment read the list).
        let content = "fcbodya1 said \"ok\"\nnext fcbodyz1";
        let framed =
            "[[ ## sources ## ]]\n[\"First.\", \"fcbodya1 said \\\"ok\\\"\\nnext fcbodyz1\", \
                      \"Last.\"]\n\n[[ ## query ## ]]\nWho?";
        let inferred = infer(framed, framed, content).unwrap();
        let d = &inferred.delimiters;
        assert_eq!(
            (d.grammar, d.token.as_str(), d.marker),
            (
                GrammarKind::Section,
                "sources",
                Some(SectionMarker::FieldMarker)
            )
        );
        assert_eq!(d.reserved, ["query"]);
        assert!(inferred
            .body
            .iter()
            .any(|(e, _)| *e == BodyEncoding::JsonString));
        // The same list as the whole output is grammar json-document's.
        let whole = "[\"First.\", \"fcbodya1 said \\\"ok\\\"\\nnext fcbodyz1\"]";
        let d = infer(whole, whole, content).unwrap().delimiters;
        assert_eq!(d.grammar, GrammarKind::JsonDocument);
    }

    /// Seen in a blind audit (issue 57): three JSON lines, the content a
    /// string in the second, were refused as "no delimiters recognised".
    #[test]
    fn json_lines_are_a_stream_of_documents_not_one_after_a_lead() {
        let content = "fcbodya1 He said \"ok\"\nnext fcbodyz1";
        let data = serde_json::json!({"event": "data", "text": content});
        let stream = format!("{{\"event\": \"begin\"}}\n{data}\n{{\"event\": \"end\"}}");
        let d = infer(&stream, &stream, content).unwrap().delimiters;
        assert_eq!(
            (d.grammar, d.token.as_str()),
            (GrammarKind::JsonLines, "/1/text")
        );
        // The content's line last: its line alone parses as a document
        // after the others, which are no lead text but the stream's lines.
        let last = format!("{{\"event\": \"begin\"}}\n{data}");
        let d = infer(&last, &last, content).unwrap().delimiters;
        assert_eq!(
            (d.grammar, d.token.as_str()),
            (GrammarKind::JsonLines, "/1/text")
        );
        // One line is one document; pretty-printed JSON is one too.
        let one = data.to_string();
        assert_eq!(
            infer(&one, &one, content).unwrap().delimiters.grammar,
            GrammarKind::JsonDocument
        );
        let pretty = serde_json::to_string_pretty(&data).unwrap();
        assert_eq!(
            infer(&pretty, &pretty, content).unwrap().delimiters.grammar,
            GrammarKind::JsonDocument
        );
    }

    #[test]
    fn a_counter_or_clock_in_the_token_is_said_to_be_one() {
        let inferred = infer(
            "<call-41>\nfcbodya1 x fcbodyz1\n</call-41>",
            "<call-42>\nfcbodya1 x fcbodyz1\n</call-42>",
            "fcbodya1 x fcbodyz1",
        )
        .unwrap();
        assert_eq!(inferred.delimiters.token, "call-{nonce}");
        assert!(inferred.notes.iter().any(|n| n.contains("a counter")));
        let now = SystemTime::now().duration_since(UNIX_EPOCH).unwrap();
        let (a, b) = (now.as_millis(), now.as_millis() + 5_000);
        assert_eq!(
            predictable_kind(&a.to_string(), &b.to_string()),
            Some("the clock (it is within a day of the current Unix time)")
        );
        assert_eq!(predictable_kind("8812031", "1209934"), None);
    }

    #[test]
    fn the_frame_is_the_innermost_element_that_holds_the_fields_too() {
        let docs = "<documents>\n<document index=\"1\">\n<source>fcprovq7</source>\n\
                    <document_content>\nfcbodya1 x fcbodyz1\n</document_content>\n\
                    </document>\n</documents>";
        let d = delimiters(docs, docs);
        assert_eq!(d.token, "document");
        assert_eq!(d.inner.as_deref(), Some("document_content"));
        let own = "<outer>\n<doc source=\"fcprovq7\">\nfcbodya1 x fcbodyz1\n</doc>\n</outer>";
        let d = delimiters(own, own);
        assert_eq!((d.token.as_str(), d.inner), ("doc", None));
        let after = "<item><body>fcbodya1 x fcbodyz1</body><from>fcprovq7</from></item>";
        let d = delimiters(after, after);
        assert_eq!(
            (d.token.as_str(), d.inner.as_deref()),
            ("item", Some("body"))
        );
    }

    #[test]
    fn open_only_section_markers_are_the_section_grammar() {
        let dspy = "[[ ## question ## ]]\nWhy?\n\n[[ ## context ## ]]\nfcbodya1 x fcbodyz1\n\n\
                    Respond with `[[ ## answer ## ]]`.\n\n[[ ## answer ## ]]\n";
        let d = delimiters(dspy, dspy);
        assert_eq!(d.grammar, GrammarKind::Section);
        assert_eq!(d.marker, Some(SectionMarker::FieldMarker));
        assert_eq!(d.token, "context");
        // The marker after the content, its section's end, comes first.
        assert_eq!(d.reserved, vec!["answer", "question"]);
        let heading = "### Task\nSummarise.\n\n### Context\nfcbodya1 x fcbodyz1\n";
        let d = delimiters(heading, heading);
        assert_eq!(
            (d.grammar, d.marker, d.token.as_str(), d.reserved),
            (
                GrammarKind::Section,
                Some(SectionMarker::Heading),
                "Context",
                vec!["Task".to_string()]
            )
        );
        let label = "Question: why?\nContext: fcbodya1 x fcbodyz1\nAnswer:";
        let d = delimiters(label, label);
        assert_eq!(
            (d.marker, d.token.as_str()),
            (Some(SectionMarker::Label), "Context")
        );
        assert_eq!(d.reserved, vec!["Answer", "Question"]);
        // A sentence that ends in a colon names no section.
        assert!(infer(
            "The text said: fcbodya1 x fcbodyz1",
            "The text said: fcbodya1 x fcbodyz1",
            "fcbodya1 x fcbodyz1"
        )
        .is_err_and(|e| e == InferError::NoShape));
    }

    /// A marker line spelled with braces (`{{BEGIN DOC}}`) has a template:
    /// its braces are escaped, so they are not read as placeholders (this
    /// proposal once panicked `init`).
    #[test]
    fn a_marker_with_braces_is_a_template_with_escaped_braces() {
        let frame = "{{BEGIN DOC}}\nfcbodya1 x fcbodyz1\n{{END DOC}}\n";
        let inferred = infer(frame, frame, "fcbodya1 x fcbodyz1").expect("inferred");
        let d = &inferred.delimiters;
        assert_eq!(d.grammar, GrammarKind::BeginEnd);
        assert_eq!(d.open.as_deref(), Some("{{{{BEGIN {token}}}}}"));
        assert_eq!(d.close.as_deref(), Some("{{{{END {token}}}}}"));
        let grammar = d.try_grammar().expect("the templates compile");
        let folded = crate::reader::Reader::new(crate::level::ReaderLevel::Exact).fold(frame);
        let live = grammar.live(&folded);
        assert_eq!(live.len(), 2, "{live:?}");
        assert_eq!(&frame[live[1].start..live[1].end], "{{END DOC}}");
    }

    /// Arbitrary text around the content, with a per-call value or not:
    /// inference never panics, and what it answers validates as a
    /// profile's delimiters and builds its grammar.
    mod never_panics {
        use super::*;
        use proptest::prelude::*;

        /// Text shaped like what framings write around content: markers,
        /// brackets, braces, quotes, line breaks, words.
        fn around() -> impl Strategy<Value = String> {
            proptest::collection::vec(
                prop_oneof![
                    Just("<".to_string()),
                    Just(">".to_string()),
                    Just("</".to_string()),
                    Just("[".to_string()),
                    Just("]".to_string()),
                    Just("{".to_string()),
                    Just("}".to_string()),
                    Just("\n".to_string()),
                    Just(" ".to_string()),
                    Just("```".to_string()),
                    Just("###".to_string()),
                    Just("[[ ## ".to_string()),
                    Just(" ## ]]".to_string()),
                    Just(":".to_string()),
                    Just("=".to_string()),
                    Just("\"".to_string()),
                    // A string with nothing around it (`repr(c)`).
                    Just("'".to_string()),
                    Just("-----".to_string()),
                    Just("END".to_string()),
                    Just("BEGIN".to_string()),
                    Just("/".to_string()),
                    "[A-Za-z_][A-Za-z0-9_.-]{0,6}",
                    "[ -~]{1,4}",
                    Just("é".to_string()),
                    // Inline pairs' marks and their mirror images.
                    Just("«".to_string()),
                    Just("»".to_string()),
                    Just("“".to_string()),
                    Just("”".to_string()),
                    Just("<|".to_string()),
                    Just("|>".to_string()),
                    Just("(".to_string()),
                    Just(")".to_string()),
                    Just("text=\"".to_string()),
                    // Record lists' markers: numbered, named, bulleted.
                    Just("[2] ".to_string()),
                    Just("3. ".to_string()),
                    Just("tool: ".to_string()),
                    Just("[user] ".to_string()),
                    Just("- ".to_string()),
                    "[0-9]{1,3}",
                    // The request's kind in a name (`<{kind}_output>`), as
                    // the probe's and the second wrap's kinds, and a
                    // literal placeholder a framing might write.
                    Just("fckindq7".to_string()),
                    Just("FCKINDQ7".to_string()),
                    Just("fc-kind-r2".to_string()),
                    Just("{kind}".to_string()),
                    // Markdown table rows: bars, escapes and delimiter rows.
                    Just("| ".to_string()),
                    Just(" |".to_string()),
                    Just("\\".to_string()),
                    Just("|---|:--:|\n".to_string()),
                    Just("｜".to_string()),
                ],
                0..24,
            )
            .prop_map(|pieces| pieces.concat())
        }

        proptest! {
            #![proptest_config(ProptestConfig::with_cases(512))]
            #[test]
            fn inference_answers_a_valid_declaration_or_an_error(
                head in around(),
                tail in around(),
                value in "[0-9a-f]{16}",
                other in "[0-9a-f]{16}",
                varies in any::<bool>(),
            ) {
                let content = "fcbodya1 x fcbodyz1";
                let wrap = |v: &str| {
                    let head = if varies { head.replacen('{', &format!("{{{v}"), 1) } else { head.clone() };
                    format!("{head}{content}{tail}")
                };
                if let Ok(inferred) = infer(&wrap(&value), &wrap(&other), content) {
                    let d = &inferred.delimiters;
                    prop_assert!(d.validate().is_ok(), "{d:?}");
                    prop_assert!(d.try_grammar().is_ok(), "{d:?}");
                    // `init`'s kind experiment, with the other wrap as
                    // the second kind's output: a `{kind}` it writes
                    // validates too.
                    if let Some(named) = d.naming_kind("fckindq7", "fc-kind-r2", &wrap(&other)) {
                        prop_assert!(named.try_grammar().is_ok(), "{named:?}");
                        prop_assert!(named.token.contains("{kind"), "{named:?}");
                    }
                }
            }
        }
    }

    /// From two calibration wraps to an `inline-pair` declaration that
    /// validates, and whose grammar finds the framing's own two marks (the
    /// grammar's own module cannot call inference: layout comes after
    /// grammar).
    #[test]
    fn init_infers_an_inline_pair_that_validates() {
        use crate::grammar::DelimiterKind;
        use crate::level::ReaderLevel;
        use crate::reader::Reader;
        let content = "fcbodya1 x fcbodyz1";
        for (framed, open, close) in [
            ("Document: «fcbodya1 x fcbodyz1» (end)", "«", "»"),
            (
                "<d source=\"web\" text=\"fcbodya1 x fcbodyz1\"/>",
                "text=\"",
                "\"",
            ),
            ("Context: <|fcbodya1 x fcbodyz1|> Answer.", "<|", "|>"),
        ] {
            let d = infer(framed, framed, content).unwrap().delimiters;
            assert_eq!(d.grammar, GrammarKind::InlinePair, "{framed}");
            assert_eq!(
                (d.open.as_deref(), d.close.as_deref()),
                (Some(open), Some(close))
            );
            d.validate().unwrap();
            let grammar = d.try_grammar().unwrap();
            let found = grammar.live(&Reader::new(ReaderLevel::Exact).fold(framed));
            let last = found.last().expect("a live mark");
            assert_eq!(
                (last.kind, &framed[last.start..last.end]),
                (DelimiterKind::Close, close),
                "{framed}"
            );
        }
    }

    /// From two calibration wraps to a `record-list` declaration that
    /// validates, and whose grammar reads the content's record as opened
    /// by its own marker and ended by the next record's.
    #[test]
    fn init_infers_a_record_list_that_validates() {
        use crate::grammar::DelimiterKind;
        use crate::level::ReaderLevel;
        use crate::reader::Reader;
        let content = "fcbodya1 x fcbodyz1";
        for (framed, open, token) in [
            (
                "Search results:\n[1] sunny\n[2] fcbodya1 x fcbodyz1\n[3] news\nEnd of results.",
                "[{counter}] ",
                "RECORD",
            ),
            (
                "1. user: hi\r\n2. tool: fcbodya1 x fcbodyz1\r\n3. assistant:",
                "{counter}. {token}: ",
                "tool",
            ),
            (
                "[user] hi\n[tool] fcbodya1 x fcbodyz1\n[assistant]",
                "[{token}] ",
                "tool",
            ),
        ] {
            let d = infer(framed, framed, content).unwrap().delimiters;
            assert_eq!(d.grammar, GrammarKind::RecordList, "{framed}");
            assert_eq!((d.open.as_deref(), d.token.as_str()), (Some(open), token));
            d.validate().unwrap();
            let grammar = d.try_grammar().unwrap();
            let found = grammar.live(&Reader::new(ReaderLevel::Exact).fold(framed));
            let slot = framed.find("fcbodya1").unwrap();
            let own = found
                .iter()
                .rfind(|m| m.end <= slot)
                .expect("the content's marker");
            assert_eq!(own.kind, DelimiterKind::Open, "{framed}");
            assert!(
                found.iter().any(|m| m.start > slot),
                "{framed}: the next record"
            );
        }
    }

    /// From two calibration wraps to a `table-cell` declaration named by
    /// the content's column, which validates and whose grammar reads the
    /// bar before the content as its cell's start and the bar after it as
    /// the next cell's.
    #[test]
    fn init_infers_a_table_cell_that_validates() {
        use crate::grammar::DelimiterKind;
        use crate::level::ReaderLevel;
        use crate::reader::Reader;
        let content = "fcbodya1 x fcbodyz1";
        for (framed, token) in [
            (
                "| source | content |\n|---|---|\n| a | b |\n| web | fcbodya1 x fcbodyz1 |\n| c | d |",
                "content",
            ),
            (
                "Results:\n\nid | Tool output\n:-- | --:\n7 | fcbodya1 x fcbodyz1",
                "Tool output",
            ),
        ] {
            let d = infer(framed, framed, content).unwrap().delimiters;
            assert_eq!(d.grammar, GrammarKind::TableCell, "{framed}");
            assert_eq!(d.token, token);
            d.validate().unwrap();
            let grammar = d.try_grammar().unwrap();
            let found = grammar.live(&Reader::new(ReaderLevel::Exact).fold(framed));
            let slot = framed.find("fcbodya1").unwrap();
            let own = found
                .iter()
                .rfind(|m| m.end <= slot)
                .expect("the content's cell's bar");
            assert_eq!(own.kind, DelimiterKind::Open, "{framed}");
            assert_eq!(&framed[own.start..own.end], "|");
        }
    }
}
