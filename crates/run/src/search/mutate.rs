//! Mutation operators: small edits to a wrap request's delimiters that a
//! careless framing may not neutralise, and the random stream that picks
//! them.
//!
//! Every operator works on the spans where a target token occurs (ASCII case
//! folded), so mutants stay close to the catalogue payloads they grew from.
//! The control-character operators splice NUL, C0 and C1 controls, DEL, ESC
//! and ANSI/OSC sequences next to and inside delimiters: a framing that
//! strips controls *after* neutralising delimiters rebuilds a live one, and a
//! framing that chokes on NUL shows up as a target error.

use std::ops::Range;
use std::sync::OnceLock;

use crate::adapter::WrapRequest;
use framecheck_core::grammar::{Form, Grammar};
use framecheck_core::level::ReaderLevel;
use framecheck_launch::profile::{Capability, TargetProfile};

/// A mutation operator. Closed set; [`Operator::name`] is the stable name
/// written into reports and found cases.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Operator {
    /// ASCII case flips inside a token.
    CaseFlip,
    /// An invisible character spliced into a token.
    SpliceInvisible,
    /// A letter replaced by a lookalike a Unicode reader folds back.
    LookalikeLetter,
    /// The opening bracket replaced by a lookalike.
    BracketLookalike,
    /// Whitespace before or after a token.
    WhitespaceInDelimiter,
    /// A line feed replaced by another line break (lone CR, U+2028…).
    LineBreak,
    /// The field wrapped in a frame of its own.
    Nest,
    /// A delimiter written twice.
    Duplicate,
    /// The start of a delimiter moved from the content into an attribute.
    SplitAcrossAttribute,
    /// A C0 or C1 control, DEL or NUL spliced into or next to a delimiter.
    ControlSplice,
    /// An ANSI CSI or OSC escape sequence written before a delimiter.
    AnsiSequence,
    /// Two to four tricks stacked on one delimiter span (`super::stack`);
    /// picked by the search loop, not by the single-edit mutator, so not in
    /// [`Operator::ALL`].
    StackedDelimiter,
    /// A nonce framing's marker without its nonce (`super::nonce_ops`, as
    /// are the three below; picked only for a profile with a nonce).
    NonceBare,
    /// A marker's nonce replaced by one harvested from an earlier frame.
    NonceReplay,
    /// A marker's nonce replaced by a near miss of a harvested one.
    NonceNearMiss,
    /// An attribute added to a marker after its nonce.
    NonceExtraAttribute,
    /// A marker line of another section put at a line start of the content
    /// (`super::section_ops`, as is the one below; picked only for a
    /// section profile).
    SectionMarkerLine,
    /// A marker naming a role (`system`) in the framing's marker style.
    SectionRolePrefix,
    /// A line break, then a forged record (`super::record_ops`, as is the
    /// one below; picked only for a reader answering with segments).
    RecordForgery,
    /// A character XML 1.0 cannot carry, pushing a parser into its fallback.
    ParserFallback,
    /// A field padded by 2^k bytes (`super::length`; picked by the search
    /// loop, not by the single-edit mutator).
    Pad,
}

impl Operator {
    /// Every single-edit operator, in the order the mutator indexes them.
    pub const ALL: [Operator; 11] = [
        Operator::CaseFlip,
        Operator::SpliceInvisible,
        Operator::LookalikeLetter,
        Operator::BracketLookalike,
        Operator::WhitespaceInDelimiter,
        Operator::LineBreak,
        Operator::Nest,
        Operator::Duplicate,
        Operator::SplitAcrossAttribute,
        Operator::ControlSplice,
        Operator::AnsiSequence,
    ];

    /// Every operator the search loop picks itself (not in [`Operator::ALL`]).
    pub const LOOP_PICKED: [Operator; 10] = [
        Operator::StackedDelimiter,
        Operator::NonceBare,
        Operator::NonceReplay,
        Operator::NonceNearMiss,
        Operator::NonceExtraAttribute,
        Operator::SectionMarkerLine,
        Operator::SectionRolePrefix,
        Operator::RecordForgery,
        Operator::ParserFallback,
        Operator::Pad,
    ];

    /// The single-edit operators that apply to `grammar`, in the order of
    /// [`Operator::ALL`]: the bracket lookalike only for a grammar whose
    /// opening bracket has lookalikes. Every other operator works from the
    /// grammar's anchors ([`Grammar::anchor`]) and renderings, with or
    /// without brackets. A tag or bracket-marker grammar keeps every
    /// operator, so its searches draw the same stream as before.
    pub fn for_grammar(grammar: &dyn Grammar) -> Vec<Operator> {
        let bracketed = grammar
            .brackets()
            .is_some_and(|(open, _)| !punct_lookalikes(open).is_empty());
        Operator::ALL
            .into_iter()
            .filter(|o| *o != Operator::BracketLookalike || bracketed)
            .collect()
    }

    /// The stable name.
    pub fn name(self) -> &'static str {
        match self {
            Operator::CaseFlip => "case-flip",
            Operator::SpliceInvisible => "splice-invisible",
            Operator::LookalikeLetter => "lookalike-letter",
            Operator::BracketLookalike => "bracket-lookalike",
            Operator::WhitespaceInDelimiter => "whitespace-in-delimiter",
            Operator::LineBreak => "line-break",
            Operator::Nest => "nest",
            Operator::Duplicate => "duplicate",
            Operator::SplitAcrossAttribute => "split-across-attribute",
            Operator::ControlSplice => "control-splice",
            Operator::AnsiSequence => "ansi-sequence",
            Operator::StackedDelimiter => "stacked-delimiter",
            Operator::NonceBare => "nonce-bare",
            Operator::NonceReplay => "nonce-replay",
            Operator::NonceNearMiss => "nonce-near-miss",
            Operator::NonceExtraAttribute => "nonce-extra-attribute",
            Operator::SectionMarkerLine => "section-marker-line",
            Operator::SectionRolePrefix => "section-role-prefix",
            Operator::RecordForgery => "record-forgery",
            Operator::ParserFallback => "parser-fallback",
            Operator::Pad => "pad",
        }
    }

    /// The family a failure signature groups operators by.
    pub fn family(self) -> &'static str {
        match self {
            Operator::CaseFlip => "case",
            Operator::SpliceInvisible => "invisible",
            Operator::LookalikeLetter => "lookalike",
            Operator::BracketLookalike => "bracket",
            Operator::WhitespaceInDelimiter => "whitespace",
            Operator::LineBreak => "line-break",
            Operator::Nest => "nest",
            Operator::Duplicate => "duplicate",
            Operator::SplitAcrossAttribute => "split",
            Operator::ControlSplice | Operator::AnsiSequence => "control",
            Operator::StackedDelimiter => "stacked",
            Operator::NonceBare
            | Operator::NonceReplay
            | Operator::NonceNearMiss
            | Operator::NonceExtraAttribute => "nonce",
            Operator::SectionMarkerLine | Operator::SectionRolePrefix => "section",
            Operator::RecordForgery | Operator::ParserFallback => "record",
            Operator::Pad => "length",
        }
    }
}

/// Controls a framing may drop, mangle or choke on: NUL, other C0 controls
/// (BEL, backspace, ESC, unit separator), DEL, and C1 controls (CSI, OSC,
/// string terminator, a private-use control). Tab and line breaks are the
/// other operators' business.
pub(super) const CONTROLS: &[char] = &[
    '\u{00}', '\u{01}', '\u{07}', '\u{08}', '\u{1B}', '\u{1F}', '\u{7F}', '\u{80}', '\u{8D}',
    '\u{9B}', '\u{9C}', '\u{9D}',
];

/// Escape sequences a terminal acts on: erase line and return, conceal,
/// cursor up, an OSC window title ended by BEL, an OSC 8 hyperlink ended by
/// ST, and the 8-bit CSI form.
pub(super) const ANSI_SEQUENCES: &[&str] = &[
    "\u{1B}[2K\r",
    "\u{1B}[8m",
    "\u{1B}[1A",
    "\u{1B}]0;framecheck\u{07}",
    "\u{1B}]8;;https://example.test/\u{1B}\\",
    "\u{9B}2K",
];

const INVISIBLES: &[char] = &[
    '\u{200B}',
    '\u{200C}',
    '\u{200D}',
    '\u{2060}',
    '\u{00AD}',
    '\u{FEFF}',
    '\u{034F}',
    '\u{180B}',
    '\u{FE0F}',
    '\u{200E}',
    '\u{202E}',
    '\u{2066}',
    '\u{E0020}',
    '\u{E0061}',
    '\u{E007F}',
    '\u{3164}',
];
const LINE_BREAKS: &[&str] = &[
    "\r\n", "\r", "\u{2028}", "\u{2029}", "\u{85}", "\u{0B}", "\n\n", "\u{0C}",
];
const SPACES: &[char] = &[' ', '\t', '\u{A0}', '\u{3000}', '\u{2009}', '\n'];

/// Lookalikes for an ASCII letter, any of which a Unicode reader folds back;
/// none for any other character, since every lookalike reads as ASCII
/// (tested). Computed once per character: the operator asks for every
/// letter of a span, and each answer folds some eighty candidates.
pub(super) fn letter_lookalikes(c: char) -> &'static [char] {
    static TABLE: OnceLock<Vec<Vec<char>>> = OnceLock::new();
    let table = TABLE.get_or_init(|| (0..128u8).map(|b| lookalikes_of(b as char)).collect());
    if c.is_ascii() {
        &table[c as usize]
    } else {
        &[]
    }
}

/// Non-ASCII characters that may read as an ASCII letter or hyphen.
const LOOKALIKE_CANDIDATES: &str = "аеорсхуіјѕһԁԛԝАЕОРСХУІЈЅВКМНТαιονρυΑΕΙΟΚΡΤΧΖΒıɑɡ‐−ſK";

/// [`letter_lookalikes`], computed.
fn lookalikes_of(c: char) -> Vec<char> {
    let mut out = Vec::new();
    if c.is_ascii_graphic() {
        out.push(char::from_u32(c as u32 + 0xFEE0).unwrap_or(c)); // fullwidth
    }
    if c.is_ascii_alphabetic() {
        let (upper_base, lower_base) = (c.is_ascii_uppercase(), c as u32);
        // Mathematical alphanumeric blocks that NFKC folds to ASCII.
        for block in [0x1D400u32, 0x1D434, 0x1D468, 0x1D5A0, 0x1D5D4, 0x1D670] {
            let offset = if upper_base {
                lower_base - 'A' as u32
            } else {
                26 + lower_base - 'a' as u32
            };
            if let Some(m) = char::from_u32(block + offset) {
                if framecheck_core::level::fold_char(m, ReaderLevel::Unicode)
                    == c.to_ascii_lowercase().to_string()
                {
                    out.push(m);
                }
            }
        }
        let circled = if upper_base {
            0x24B6 + lower_base - 'A' as u32
        } else {
            0x24D0 + lower_base - 'a' as u32
        };
        out.extend(char::from_u32(circled));
    }
    // Any non-ASCII character whose reading is this letter (Cyrillic, Greek…).
    for candidate in LOOKALIKE_CANDIDATES.chars() {
        if framecheck_core::level::fold_char(candidate, ReaderLevel::Unicode)
            == c.to_ascii_lowercase().to_string()
        {
            out.push(candidate);
        }
    }
    out
}

pub(super) fn bracket_lookalikes(c: char) -> &'static [char] {
    match c {
        '<' => &['‹', '❮', '⟨', '〈', '＜', '﹤', '˂', 'ᐸ'],
        '>' => &['›', '❯', '⟩', '〉', '＞', '﹥', '˃', 'ᐳ'],
        '[' => &['［', '⟦', '〔', '⁅'],
        ']' => &['］', '⟧', '〕', '⁆'],
        '/' => &['∕', '⁄', '／', '⧸', '╱'],
        _ => &[],
    }
}

/// Lookalikes of a delimiter's punctuation, brackets or not (a begin/end
/// marker's dashes): the bracket lookalikes, else the forms a Unicode
/// reader folds back to `c` (fullwidth, dash lookalikes).
pub(super) fn punct_lookalikes(c: char) -> &'static [char] {
    match c {
        '-' => &['‐', '‑', '−', '－', '﹣'],
        '=' => &['＝', '﹦'],
        '#' => &['＃', '﹟'],
        '*' => &['＊', '﹡'],
        '|' => &['｜'],
        ':' => &['：', '﹕'],
        '_' => &['＿'],
        '`' => &['｀'],
        '~' => &['～'],
        _ => bracket_lookalikes(c),
    }
}

/// Byte ranges of ASCII case-insensitive token occurrences in `text`.
fn token_spans(text: &str, tokens: &[String]) -> Vec<std::ops::Range<usize>> {
    let lower = text.to_ascii_lowercase();
    let mut spans = Vec::new();
    for token in tokens {
        // `memmem` finds the same leftmost, non-overlapping occurrences
        // as repeated `str::find`, with a vectorised search (the two-way
        // searcher was 4 % of a search's samples, issue 37).
        let needle = token.to_ascii_lowercase();
        spans.extend(
            memchr::memmem::find_iter(lower.as_bytes(), needle.as_bytes())
                .map(|start| start..start + needle.len()),
        );
    }
    spans.sort_by_key(|r| r.start);
    spans
}

/// Applies one random operator to one field of `request`; returns its name,
/// or `None` when it found nothing to change.
pub(super) fn mutate(
    request: &mut WrapRequest,
    tokens: &[String],
    profile: &TargetProfile,
    rng: &mut SplitMix64,
) -> Option<Operator> {
    let grammar = profile.grammar();
    // The operators come from the grammar: a fence or a begin/end marker
    // without brackets gets no bracket lookalike, and the operators that
    // place an edit by the bracket place it by the anchor instead.
    let brackets = grammar.brackets();
    let operators = Operator::for_grammar(&*grammar);
    let operator = operators[rng.below(operators.len())];
    if operator == Operator::SplitAcrossAttribute {
        return split_across_attribute(request, tokens, profile, rng);
    }
    let text = pick_field(request, tokens, rng);
    let spans = token_spans(text, tokens);
    match operator {
        Operator::CaseFlip => case_flip(text, &spans, rng),
        Operator::SpliceInvisible => splice_invisible(text, &spans, rng),
        Operator::LookalikeLetter => lookalike_letter(text, &spans, rng),
        Operator::BracketLookalike => bracket_lookalike(text, &spans, brackets, rng),
        Operator::WhitespaceInDelimiter => whitespace_in_delimiter(text, &spans, rng),
        Operator::LineBreak => line_break(text, rng),
        Operator::Nest => {
            let token = rng.below(tokens.len());
            let (open, close) = (
                grammar.render(Form::Open, token).plain(),
                grammar.render(Form::Close, token).plain(),
            );
            *text = format!("{open}\n{text}\n{close}");
            Some(Operator::Nest)
        }
        Operator::Duplicate => duplicate(text, &spans, brackets, rng),
        Operator::ControlSplice => control_splice(text, &spans, brackets, rng),
        Operator::AnsiSequence => ansi_sequence(text, &spans, brackets, rng),
        Operator::SplitAcrossAttribute
        | Operator::StackedDelimiter
        | Operator::NonceBare
        | Operator::NonceReplay
        | Operator::NonceNearMiss
        | Operator::NonceExtraAttribute
        | Operator::SectionMarkerLine
        | Operator::SectionRolePrefix
        | Operator::RecordForgery
        | Operator::ParserFallback
        | Operator::Pad => {
            unreachable!("handled before picking a field, or not in Operator::ALL")
        }
    }
}

/// Picks the field to mutate: one that mentions a token (content most of
/// the time), else the content.
fn pick_field<'a>(
    request: &'a mut WrapRequest,
    tokens: &[String],
    rng: &mut SplitMix64,
) -> &'a mut String {
    let mut fields = super::fields_mut(request);
    let candidates: Vec<usize> = (0..fields.len())
        .filter(|&i| !token_spans(fields[i], tokens).is_empty())
        .collect();
    let field = if candidates.is_empty() {
        0
    } else {
        candidates[rng.below(candidates.len())]
    };
    fields.swap_remove(field)
}

/// One token span picked at random; `None` (after one draw) when there is none.
fn pick_span(spans: &[Range<usize>], rng: &mut SplitMix64) -> Option<Range<usize>> {
    spans.get(rng.below(spans.len().max(1))).cloned()
}

/// [`Operator::CaseFlip`]; `None` when the random flips changed nothing.
fn case_flip(text: &mut String, spans: &[Range<usize>], rng: &mut SplitMix64) -> Option<Operator> {
    let span = pick_span(spans, rng)?;
    let flipped: String = text[span.clone()]
        .chars()
        .map(|c| {
            if rng.below(2) == 0 {
                c.to_ascii_uppercase()
            } else {
                c.to_ascii_lowercase()
            }
        })
        .collect();
    if flipped == text[span.clone()] {
        return None;
    }
    text.replace_range(span, &flipped);
    Some(Operator::CaseFlip)
}

/// [`Operator::SpliceInvisible`]: an invisible character after a token's first byte.
fn splice_invisible(
    text: &mut String,
    spans: &[Range<usize>],
    rng: &mut SplitMix64,
) -> Option<Operator> {
    let span = pick_span(spans, rng)?;
    let at = span.start + 1 + rng.below(span.len().saturating_sub(1).max(1));
    let at = floor_boundary(text, at.min(span.end));
    text.insert(at, INVISIBLES[rng.below(INVISIBLES.len())]);
    Some(Operator::SpliceInvisible)
}

/// [`Operator::LookalikeLetter`]: one letter of a token swapped for a lookalike.
fn lookalike_letter(
    text: &mut String,
    spans: &[Range<usize>],
    rng: &mut SplitMix64,
) -> Option<Operator> {
    let span = pick_span(spans, rng)?;
    let letters: Vec<(usize, char)> = text[span.clone()]
        .char_indices()
        .filter(|(_, c)| !letter_lookalikes(*c).is_empty())
        .map(|(i, c)| (span.start + i, c))
        .collect();
    let (at, c) = *letters.get(rng.below(letters.len().max(1)))?;
    let options = letter_lookalikes(c);
    let replacement = options[rng.below(options.len())];
    text.replace_range(at..at + c.len_utf8(), &replacement.to_string());
    Some(Operator::LookalikeLetter)
}

/// [`Operator::BracketLookalike`]: the bracket opening a token's delimiter swapped.
fn bracket_lookalike(
    text: &mut String,
    spans: &[Range<usize>],
    brackets: Option<(char, char)>,
    rng: &mut SplitMix64,
) -> Option<Operator> {
    let span = pick_span(spans, rng)?;
    let (open, _) = brackets?;
    let before = text[..span.start].trim_end_matches([' ', '/']);
    let last = before.chars().next_back().filter(|&c| c == open)?;
    let bracket_at = before.len() - last.len_utf8();
    let choice = punct_lookalikes(open);
    if choice.is_empty() {
        return None;
    }
    text.replace_range(
        bracket_at..bracket_at + last.len_utf8(),
        &choice[rng.below(choice.len())].to_string(),
    );
    Some(Operator::BracketLookalike)
}

/// [`Operator::WhitespaceInDelimiter`]: a space-like character before or after a token.
fn whitespace_in_delimiter(
    text: &mut String,
    spans: &[Range<usize>],
    rng: &mut SplitMix64,
) -> Option<Operator> {
    let span = pick_span(spans, rng)?;
    let at = if rng.below(2) == 0 {
        span.start
    } else {
        span.end
    };
    text.insert(at, SPACES[rng.below(SPACES.len())]);
    Some(Operator::WhitespaceInDelimiter)
}

/// [`Operator::LineBreak`]: one line feed replaced by another line break.
fn line_break(text: &mut String, rng: &mut SplitMix64) -> Option<Operator> {
    let breaks: Vec<usize> = text.match_indices('\n').map(|(i, _)| i).collect();
    let at = *breaks.get(rng.below(breaks.len().max(1)))?;
    text.replace_range(at..at + 1, LINE_BREAKS[rng.below(LINE_BREAKS.len())]);
    Some(Operator::LineBreak)
}

/// [`Operator::Duplicate`]: the delimiter around a token written twice.
fn duplicate(
    text: &mut String,
    spans: &[Range<usize>],
    brackets: Option<(char, char)>,
    rng: &mut SplitMix64,
) -> Option<Operator> {
    let (span, start) = span_after_bracket(text, spans, brackets, rng)?;
    // Without brackets the anchor itself is the delimiter written twice
    // (a fence run doubled is a longer run).
    let end = brackets
        .and_then(|(_, close)| {
            text[span.end..]
                .find(close)
                .map(|i| span.end + i + close.len_utf8())
        })
        .unwrap_or(span.end);
    let copy = text[start..end].to_string();
    text.insert_str(end, &copy);
    Some(Operator::Duplicate)
}

/// [`Operator::ControlSplice`]: a control character between a bracket and a token's end.
fn control_splice(
    text: &mut String,
    spans: &[Range<usize>],
    brackets: Option<(char, char)>,
    rng: &mut SplitMix64,
) -> Option<Operator> {
    // From the bracket before the token to the token's end: between
    // bracket and slash, inside the token, or right after it.
    let (span, from) = span_after_bracket(text, spans, brackets, rng)?;
    let at = floor_boundary(text, from + 1 + rng.below(span.end - from));
    text.insert(at, CONTROLS[rng.below(CONTROLS.len())]);
    Some(Operator::ControlSplice)
}

/// [`Operator::AnsiSequence`]: an escape sequence before a token's bracket.
fn ansi_sequence(
    text: &mut String,
    spans: &[Range<usize>],
    brackets: Option<(char, char)>,
    rng: &mut SplitMix64,
) -> Option<Operator> {
    let (_, at) = span_after_bracket(text, spans, brackets, rng)?;
    text.insert_str(at, ANSI_SEQUENCES[rng.below(ANSI_SEQUENCES.len())]);
    Some(Operator::AnsiSequence)
}

/// A token span picked at random, and where the opening bracket before it
/// stands (the span's own start when none does, or when the grammar has no
/// brackets); `None` without a span. The span is picked first, as each
/// operator did, so a seed replays the same search.
fn span_after_bracket(
    text: &str,
    spans: &[Range<usize>],
    brackets: Option<(char, char)>,
    rng: &mut SplitMix64,
) -> Option<(Range<usize>, usize)> {
    let span = pick_span(spans, rng)?;
    let bracket = brackets
        .and_then(|(open, _)| text[..span.start].rfind(open))
        .unwrap_or(span.start);
    Some((span, bracket))
}

/// Moves the start of a delimiter from the content into an attribute value,
/// for framings that write attributes next to the content.
fn split_across_attribute(
    request: &mut WrapRequest,
    tokens: &[String],
    profile: &TargetProfile,
    rng: &mut SplitMix64,
) -> Option<Operator> {
    if !profile.can(Capability::Attributes) {
        return None;
    }
    let span = token_spans(&request.content, tokens).into_iter().next()?;
    let grammar = profile.grammar();
    let (open, _) = grammar.render(Form::Open, 0).brackets()?;
    let start = request.content[..span.start]
        .rfind(open)
        .unwrap_or(span.start);
    let cut = floor_boundary(&request.content, span.start + rng.below(span.len().max(1)));
    let head = request.content[start..cut].to_string();
    request.content.replace_range(start..cut, "");
    request
        .attributes
        .entry("title".to_string())
        .or_default()
        .push_str(&head);
    Some(Operator::SplitAcrossAttribute)
}

/// The last character boundary of `text` at or before `at` (its length
/// past the end).
pub(super) fn floor_boundary(text: &str, mut at: usize) -> usize {
    at = at.min(text.len());
    while !text.is_char_boundary(at) {
        at -= 1;
    }
    at
}

/// The first character boundary of `text` at or after `at` (its length
/// past the end).
pub(super) fn ceil_boundary(text: &str, at: usize) -> usize {
    (at..text.len())
        .find(|&i| text.is_char_boundary(i))
        .unwrap_or(text.len())
}

/// A small deterministic generator (SplitMix64); no dependency needed.
pub(super) struct SplitMix64(pub(super) u64);

impl SplitMix64 {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    pub(super) fn below(&mut self, n: usize) -> usize {
        if n == 0 {
            0
        } else {
            (self.next() % n as u64) as usize
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use framecheck_core::grammar::{self, GrammarKind, Vocabulary};

    #[test]
    fn token_spans_are_the_leftmost_occurrences_that_do_not_overlap_in_any_case() {
        let tokens = ["aba".to_string(), "XY".to_string()];
        // "ababa" holds "aba" twice, overlapping: only the leftmost counts.
        assert_eq!(token_spans("ababa xy", &tokens), vec![0..3, 6..8]);
        assert_eq!(token_spans("xYABAbAba", &tokens), vec![0..2, 2..5, 6..9]);
        assert_eq!(
            token_spans("ab a", &tokens),
            Vec::<std::ops::Range<usize>>::new()
        );
        // Byte offsets, past a multi-byte character.
        assert_eq!(token_spans("é<aba>", &tokens), vec![3..6]);
    }

    #[test]
    fn only_ascii_characters_have_letter_lookalikes() {
        // Every candidate reads as ASCII, so a non-ASCII character is never
        // the reading of one: the table may answer nothing for it.
        let candidates = (0..128u8).flat_map(|b| lookalikes_of(b as char));
        for l in candidates.chain(LOOKALIKE_CANDIDATES.chars()) {
            let read = framecheck_core::level::fold_char(l, ReaderLevel::Unicode);
            assert!(read.is_ascii(), "{l} reads as {read}");
        }
        for c in ['а', 'ｔ', '𝐚', 'é', 'ſ'] {
            assert_eq!(lookalikes_of(c), Vec::<char>::new(), "{c}");
            assert!(letter_lookalikes(c).is_empty());
        }
        assert_eq!(letter_lookalikes('a'), lookalikes_of('a').as_slice());
        assert!(letter_lookalikes('a').contains(&'а'));
    }

    #[test]
    fn every_punctuation_lookalike_reads_as_its_character() {
        for c in "<>[]/-=#*|:_`~".chars() {
            let options = punct_lookalikes(c);
            assert!(!options.is_empty(), "{c}");
            for l in options {
                assert_eq!(
                    framecheck_core::level::fold_char(*l, ReaderLevel::Unicode),
                    c.to_string(),
                    "{l} for {c}"
                );
            }
        }
    }

    #[test]
    fn operators_come_from_the_grammar() {
        let build = |kind, open, close| {
            grammar::build(kind, Vocabulary::plain(&["t"]), open, close).unwrap()
        };
        // Tags keep every operator (the same stream as before).
        let xml = build(GrammarKind::XmlTag, None, None);
        assert_eq!(Operator::for_grammar(&*xml), Operator::ALL.to_vec());
        // A fence has no bracket to swap; its anchor is the run.
        let fence = build(GrammarKind::Fence, None, None);
        assert!(!Operator::for_grammar(&*fence).contains(&Operator::BracketLookalike));
        assert_eq!(fence.anchor(0), "```");
        let words = build(
            GrammarKind::BeginEnd,
            Some("BEGIN {token}"),
            Some("END {token}"),
        );
        assert!(!Operator::for_grammar(&*words).contains(&Operator::BracketLookalike));
        // Dashes around a begin/end marker have lookalikes of their own.
        let dashes = build(
            GrammarKind::BeginEnd,
            Some("-----BEGIN {token}-----"),
            Some("-----END {token}-----"),
        );
        assert!(Operator::for_grammar(&*dashes).contains(&Operator::BracketLookalike));
    }
}
