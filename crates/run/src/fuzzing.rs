//! Fuzz target bodies, shared by `fuzz/` (libFuzzer), the corpus replay test
//! and the smoke script.
//!
//! Each `run_<target>` takes the raw bytes a fuzzer produced, decodes them
//! into a structured input with [`arbitrary`] where structure helps, and
//! checks one property with `assert!`. A panic is a finding; legitimate
//! input (however hostile) never panics. Keeping the bodies here, in the
//! library, means the libFuzzer binaries in `fuzz/fuzz_targets/` are
//! three-line wrappers and `crates/run/tests/it/corpus_replay.rs` replays every corpus and
//! regression file on stable Rust through the very same code.
//!
//! Inputs larger than [`MAX_INPUT_BYTES`] are ignored: nothing these targets
//! look for needs a large input, and small inputs keep executions per second
//! high.
//!
//! Structured inputs print, in their `Debug` form, the strings they build as
//! Rust literals, so a crash report from libFuzzer is a reproducer that can
//! be pasted into a unit test.
//!
//! | target | property |
//! | --- | --- |
//! | [`run_envelope_roundtrip`] | `read(wrap(e, c))` gives back the defanged fields; the oracle sees exactly one opening and one closing tag; bad keys are refused |
//! | [`run_envelope_read`] | `read` never panics; what it accepts, `wrap` writes again byte for byte |
//! | [`run_envelope_nonce`] | nonce mode: the plain frame with the nonce in both tags; one frame for the oracle, no confusable; a closer with another value or none is refused; `read_nonce` accepts only what `wrap_with_nonce` writes |
//! | [`run_defang_differential`] | the envelope's fast scanner and the oracle's slow one agree at the Unicode level |
//! | [`run_catalogue_loader`] | catalogue and profile loading return errors, never panic |
//! | [`run_protocol_decoder`] | the reply decoder never panics; a decoded reply re-encodes to itself |
//! | [`run_oracle`] | the oracle never panics; excerpts lie inside their text on character boundaries |
//! | [`run_search_framing`] | the target the environment names (the reference when none) has no new failure that search's judgement confirms by replay (module `search_framing`) |

use std::collections::{BTreeMap, BTreeSet};
use std::fmt;
use std::path::Path;
use std::sync::OnceLock;

use arbitrary::{Arbitrary, Unstructured};

use crate::adapter::subprocess::protocol::{decode_reply, Op, Reply};
use crate::adapter::WrapRequest;
use framecheck_core::catalogue::{
    self, canary_for, Category, ConcreteCase, Expectation, Field, Input, Operation, RefusalPolicy,
    Severity, SourceLocation, Variant,
};
use framecheck_core::level::ReaderLevel;
use framecheck_core::oracle::scan::{live_delimiters, readings, DelimiterKind};
use framecheck_core::oracle::{self, CheckClass, ExcerptSource, Finding};
use framecheck_envelope::{self as envelope, Envelope, DEFANGED, TOKEN};
use framecheck_launch::profile::{Delimiters, GrammarKind, TargetProfile};

mod nonce;
mod search_framing;

pub use nonce::{run_envelope_nonce, NonceInput, Tamper};
pub use search_framing::{
    plain_search_seed, run_search_framing, Found, SearchTarget, TargetUnavailable, CANARY,
    TARGET_ENV,
};

/// Inputs longer than this are skipped by every target.
pub const MAX_INPUT_BYTES: usize = 64 * 1024;

/// The names of every fuzz target, as used for `fuzz/fuzz_targets/<name>.rs`
/// and `corpus/<name>/`.
pub const TARGETS: [&str; 8] = [
    "envelope_roundtrip",
    "envelope_read",
    "envelope_nonce",
    "defang_differential",
    "catalogue_loader",
    "protocol_decoder",
    "oracle",
    "search_framing",
];

/// Runs the target called `name` on `data`; `false` when no target has that
/// name.
pub fn run_target(name: &str, data: &[u8]) -> bool {
    let run: fn(&[u8]) = match name {
        "envelope_roundtrip" => run_envelope_roundtrip,
        "envelope_read" => run_envelope_read,
        "envelope_nonce" => run_envelope_nonce,
        "defang_differential" => run_defang_differential,
        "catalogue_loader" => run_catalogue_loader,
        "protocol_decoder" => run_protocol_decoder,
        "oracle" => run_oracle,
        "search_framing" => run_search_framing,
        _ => return false,
    };
    run(data);
    true
}

// ---------------------------------------------------------------------------
// Adversarial text
// ---------------------------------------------------------------------------

/// Characters that matter to a framing: invisible ones a reader skips, line
/// breaks, brackets and their lookalikes, escapes.
const SPECIAL_CHARS: &[char] = &[
    '\u{200B}', // zero-width space
    '\u{200C}', // zero-width non-joiner
    '\u{200D}', // zero-width joiner
    '\u{2060}', // word joiner
    '\u{00AD}', // soft hyphen
    '\u{FEFF}', // byte order mark
    '\u{E0041}',
    '\u{E007F}', // tag characters
    '\u{202E}',
    '\u{202C}', // bidi override, pop
    '\u{FE0F}',
    '\u{FE00}', // variation selectors
    '\u{034F}', // combining grapheme joiner
    '\n',
    '\r',
    '\u{0B}',
    '\u{0C}',
    '\u{85}',
    '\u{2028}',
    '\u{2029}',
    '\t',
    ' ',
    '<',
    '>',
    '/',
    '[',
    ']',
    '"',
    '\'',
    '&',
    '=',
    ';',
    '#',
    '‹',
    '›',
    '⟨',
    '⟩',
    '〈',
    '〉',
    '＜',
    '＞',
    '／',
    '［',
    '］',
    '⟦',
    '⟧',
    '﹤',
    '﹥',
    '-',
    '‐',
    '‑',
    '‒',
    '–',
    '—',
    '−',
    '﹣',
    '－',
    '_',
    'ß',
    'ﬆ',
    'ﬅ',
    'K',
    'ſ',
    'İ',
    'ı',
];

/// Replacement spellings for one letter of a token.
#[derive(Debug, Clone, Copy, Arbitrary)]
enum LetterStyle {
    Plain,
    Upper,
    Fullwidth,
    MathBold,
    Circled,
    Lookalike,
    /// The letter followed by a special character (usually invisible).
    Spliced(u8),
}

fn styled_letter(c: char, style: LetterStyle, out: &mut String) {
    let shifted =
        |base: u32, first: char| char::from_u32(base + (c as u32 - first as u32)).unwrap_or(c);
    match style {
        LetterStyle::Plain => out.push(c),
        LetterStyle::Upper => out.push(c.to_ascii_uppercase()),
        LetterStyle::Fullwidth => out.push(match c {
            'a'..='z' => shifted(0xFF41, 'a'),
            '-' => '－',
            _ => c,
        }),
        LetterStyle::MathBold => out.push(match c {
            'a'..='z' => shifted(0x1D41A, 'a'),
            _ => c,
        }),
        LetterStyle::Circled => out.push(match c {
            'a'..='z' => shifted(0x24D0, 'a'),
            _ => c,
        }),
        LetterStyle::Lookalike => out.push(match c {
            'a' => 'а',
            'c' => 'с',
            'e' => 'е',
            'h' => 'һ',
            'k' => 'K',
            'm' => 'м',
            'n' => 'п',
            'r' => 'г',
            's' => 'ſ',
            't' => 'т',
            'u' => 'υ',
            'd' => 'ԁ',
            'f' => 'ƒ',
            '-' => '‐',
            _ => c,
        }),
        LetterStyle::Spliced(pick) => {
            out.push(c);
            out.push(SPECIAL_CHARS[pick as usize % SPECIAL_CHARS.len()]);
        }
    }
}

/// One piece of adversarial text.
#[derive(Debug, Clone, Arbitrary)]
enum Fragment {
    /// Whatever the fuzzer likes.
    Text(String),
    /// The envelope token with each letter spelled in a style (styles cycle).
    Token(Vec<LetterStyle>),
    /// A tag built around a styled token: `<`, optional `/`, token, `>`.
    Tag {
        closing: bool,
        styles: Vec<LetterStyle>,
        bracket: u8,
    },
    /// The first `n` characters of the token, in a style.
    TokenPrefix(u8, LetterStyle),
    /// The last `n` characters of the token, in a style.
    TokenSuffix(u8, LetterStyle),
    /// One character that matters to framing.
    Special(u8),
    /// The defanged spelling, to exercise idempotence.
    Defanged,
    /// A blank line, which ends the header.
    BlankLine,
}

fn styled(text: &str, styles: &[LetterStyle], out: &mut String) {
    for (i, c) in text.chars().enumerate() {
        let style = if styles.is_empty() {
            LetterStyle::Plain
        } else {
            styles[i % styles.len()]
        };
        styled_letter(c, style, out);
    }
}

/// The token and bracket pair fragments are spelled with.
#[derive(Debug, Clone, Copy)]
struct Vocabulary<'a> {
    token: &'a str,
    brackets: (char, char),
}

const REFERENCE_VOCABULARY: Vocabulary<'static> = Vocabulary {
    token: TOKEN,
    brackets: ('<', '>'),
};

impl Fragment {
    fn push_to(&self, out: &mut String, vocabulary: Vocabulary<'_>) {
        let token = vocabulary.token;
        match self {
            Fragment::Text(text) => out.push_str(text),
            Fragment::Token(styles) => styled(token, styles, out),
            Fragment::Tag {
                closing,
                styles,
                bracket,
            } => {
                let (open, close) = match bracket % 4 {
                    0 | 1 => vocabulary.brackets,
                    2 => ('＜', '＞'),
                    _ => ('‹', '›'),
                };
                out.push(open);
                if *closing {
                    out.push('/');
                }
                styled(token, styles, out);
                out.push(close);
            }
            Fragment::TokenPrefix(n, style) => {
                let n = *n as usize % (token.len() + 1);
                styled(&token[..n], &[*style], out);
            }
            Fragment::TokenSuffix(n, style) => {
                let n = *n as usize % (token.len() + 1);
                styled(&token[token.len() - n..], &[*style], out);
            }
            Fragment::Special(pick) => {
                out.push(SPECIAL_CHARS[*pick as usize % SPECIAL_CHARS.len()])
            }
            Fragment::Defanged => out.push_str(DEFANGED),
            Fragment::BlankLine => out.push_str("\n\n"),
        }
    }
}

/// Text assembled from fragments: arbitrary strings interleaved with token
/// spellings a reader at some level takes for the envelope's tag name.
#[derive(Clone, Arbitrary)]
pub struct AdversarialText(Vec<Fragment>);

impl AdversarialText {
    /// The text, spelled with the reference envelope's token.
    pub fn build(&self) -> String {
        self.build_with(REFERENCE_VOCABULARY)
    }

    fn build_with(&self, vocabulary: Vocabulary<'_>) -> String {
        let mut out = String::new();
        for fragment in &self.0 {
            fragment.push_to(&mut out, vocabulary);
        }
        out
    }
}

impl fmt::Debug for AdversarialText {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:?}", self.build())
    }
}

/// An attribute key: mostly well-formed, sometimes hostile.
#[derive(Clone, Arbitrary)]
pub enum Key {
    /// Built from the key alphabet, usually valid.
    Named(Vec<u8>),
    /// Anything.
    Raw(String),
    /// Adversarial text (tokens, lookalikes).
    Adversarial(AdversarialText),
}

const KEY_ALPHABET: &[u8] = b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.-";

impl Key {
    fn build(&self) -> String {
        match self {
            Key::Named(picks) => picks
                .iter()
                .map(|&b| KEY_ALPHABET[b as usize % KEY_ALPHABET.len()] as char)
                .collect(),
            Key::Raw(text) => text.clone(),
            Key::Adversarial(text) => text.build(),
        }
    }
}

/// Whether a reader at the Unicode level finds the token in `text`, by the
/// oracle's slow matcher (never the envelope's own scanner).
fn oracle_reads_token(text: &str) -> bool {
    !readings(text, TOKEN, ReaderLevel::Unicode).is_empty()
}

fn decode<'a, T: Arbitrary<'a>>(data: &'a [u8]) -> Option<T> {
    if data.len() > MAX_INPUT_BYTES {
        return None;
    }
    T::arbitrary_take_rest(Unstructured::new(data)).ok()
}

// ---------------------------------------------------------------------------
// 1. envelope_roundtrip
// ---------------------------------------------------------------------------

/// Input of [`run_envelope_roundtrip`].
///
/// The plain form is what seed files use: 4 zero bytes (the variant), then
/// `kind NUL provenance NUL attributes NUL content`, where attributes are
/// `key US value` pairs separated by RS (`\x1f`, `\x1e`). The structured
/// form lets the fuzzer splice token spellings in anywhere.
#[derive(Clone, Arbitrary)]
pub enum RoundtripInput {
    /// Fields in the plain text layout above.
    Plain(String),
    /// Fields built from adversarial fragments.
    Structured {
        /// The envelope kind.
        kind: AdversarialText,
        /// Attribute keys and values.
        attributes: Vec<(Key, AdversarialText)>,
        /// The provenance line.
        provenance: AdversarialText,
        /// The content.
        content: AdversarialText,
    },
}

/// Attribute pairs as a plain fuzz input spells them: `key`, U+001F,
/// `value`, the pairs separated by U+001E (the ASCII unit and record
/// separators, which no attribute of the catalogue holds).
fn encode_attributes(pairs: impl IntoIterator<Item = (String, String)>) -> String {
    let pairs: Vec<String> = pairs
        .into_iter()
        .map(|(k, v)| format!("{k}\u{1f}{v}"))
        .collect();
    pairs.join("\u{1e}")
}

/// The pairs [`encode_attributes`] wrote; a pair without a separator is a
/// key with an empty value.
fn decode_attributes(text: &str) -> impl Iterator<Item = (String, String)> + '_ {
    text.split('\u{1e}')
        .filter(|pair| !pair.is_empty())
        .map(|pair| {
            let (k, v) = pair.split_once('\u{1f}').unwrap_or((pair, ""));
            (k.to_string(), v.to_string())
        })
}

/// Encodes an envelope and content as the bytes of a plain
/// [`RoundtripInput`] seed: what corpus generators write.
pub fn plain_roundtrip_seed(about: &Envelope, content: &str) -> Vec<u8> {
    let attributes =
        encode_attributes(about.attributes.iter().map(|(k, v)| (k.clone(), v.clone())));
    let text = format!(
        "{}\0{}\0{}\0{}",
        about.kind, about.provenance, attributes, content
    );
    let mut seed = vec![0u8; 4];
    seed.extend_from_slice(text.as_bytes());
    seed
}

impl RoundtripInput {
    /// The envelope and content this input stands for.
    pub fn build(&self) -> (Envelope, String) {
        match self {
            RoundtripInput::Plain(text) => {
                let mut parts = text.splitn(4, '\0');
                let mut next = || parts.next().unwrap_or_default().to_string();
                let kind = next();
                let provenance = next();
                let attributes = decode_attributes(&next()).collect();
                let content = next();
                (
                    Envelope {
                        kind,
                        attributes,
                        provenance,
                    },
                    content,
                )
            }
            RoundtripInput::Structured {
                kind,
                attributes,
                provenance,
                content,
            } => (
                Envelope {
                    kind: kind.build(),
                    attributes: attributes
                        .iter()
                        .map(|(k, v)| (k.build(), v.build()))
                        .collect(),
                    provenance: provenance.build(),
                },
                content.build(),
            ),
        }
    }
}

impl fmt::Debug for RoundtripInput {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (envelope, content) = self.build();
        write!(
            f,
            "envelope::wrap(&Envelope {{ kind: {:?}.into(), attributes: {:?}.into_iter().map(|(k, v): (&str, &str)| (k.into(), v.into())).collect(), provenance: {:?}.into() }}, {:?})",
            envelope.kind,
            envelope.attributes.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect::<Vec<_>>(),
            envelope.provenance,
            content
        )
    }
}

/// Why the key set should be refused, judged independently of the envelope
/// module: the grammar by hand, token readings by the oracle's matcher.
fn key_problem(attributes: &BTreeMap<String, String>) -> Option<String> {
    let mut seen = BTreeSet::from([envelope::KIND_ATTRIBUTE.to_string()]);
    for key in attributes.keys() {
        let mut bytes = key.bytes();
        let well_formed = bytes
            .next()
            .is_some_and(|b| b.is_ascii_alphabetic() || b == b'_')
            && bytes.all(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'.' | b'-'));
        if !well_formed {
            return Some(format!("key {key:?} is not a name"));
        }
        if oracle_reads_token(key) {
            return Some(format!("key {key:?} reads as the token"));
        }
        if !seen.insert(key.to_ascii_lowercase()) {
            return Some(format!("key {key:?} is a duplicate"));
        }
    }
    None
}

/// Wraps an arbitrary envelope and content, reads it back, and checks the
/// fields and the oracle's delimiter census.
pub fn run_envelope_roundtrip(data: &[u8]) {
    let Some(input) = decode::<RoundtripInput>(data) else {
        return;
    };
    let (about, content) = input.build();
    let Some(framed) = wrap_checking_keys(&input, &about, &content) else {
        return;
    };
    let frame = envelope::read(&framed)
        .unwrap_or_else(|e| panic!("read refused wrap's own frame: {e}\n{input:?}\n{framed:?}"));
    assert_fields_come_back(&input, &about, &content, &frame);
    assert_oracle_sees_one_frame(&input, &framed, &frame.body);
    assert_no_security_findings(&input, &about, content, &framed, &frame.body);
}

/// Wraps the input, asserting that wrap refuses exactly the attribute keys
/// the spec forbids; `None` when it (rightly) refused.
fn wrap_checking_keys(input: &RoundtripInput, about: &Envelope, content: &str) -> Option<String> {
    let problem = key_problem(&about.attributes);
    match envelope::wrap(about, content) {
        Err(error) => {
            assert!(
                problem.is_some(),
                "wrap refused keys the spec allows: {error}\n{input:?}"
            );
            None
        }
        Ok(framed) => {
            assert!(
                problem.is_none(),
                "wrap accepted a bad key ({}):\n{input:?}",
                problem.unwrap_or_default()
            );
            Some(framed)
        }
    }
}

/// Fields come back defanged and with chat-template control strings
/// neutralised (`envelope::neutralise`), otherwise exact.
fn assert_fields_come_back(
    input: &RoundtripInput,
    about: &Envelope,
    content: &str,
    frame: &envelope::Frame,
) {
    let inline = |text: &str| {
        envelope::neutralise(&envelope::defang(text), envelope::Placement::Inline).into_owned()
    };
    let body =
        envelope::neutralise(&envelope::defang(content), envelope::Placement::Content).into_owned();
    assert_eq!(frame.body, body, "body\n{input:?}");
    assert_eq!(frame.kind, inline(&about.kind), "kind\n{input:?}");
    let expected_provenance: String = inline(&about.provenance)
        .chars()
        .map(|c| if envelope::is_line_break(c) { ' ' } else { c })
        .collect();
    assert_eq!(
        frame.provenance, expected_provenance,
        "provenance\n{input:?}"
    );
    let expected_attributes: BTreeMap<String, String> = about
        .attributes
        .iter()
        .map(|(k, v)| (k.clone(), inline(v)))
        .collect();
    assert_eq!(
        frame.attributes, expected_attributes,
        "attributes\n{input:?}"
    );
}

/// The oracle, not the envelope, decides how many tags a reader sees: one
/// opening and one closing tag at every level, and a body that does not
/// read as the token.
fn assert_oracle_sees_one_frame(input: &RoundtripInput, framed: &str, body: &str) {
    let grammar = Delimiters::simple(GrammarKind::XmlTag, TOKEN)
        .try_grammar()
        .expect("the reference token builds an xml-tag grammar");
    for level in ReaderLevel::ALL {
        let live = live_delimiters(framed, &*grammar, level);
        assert_eq!(
            live.len(),
            2,
            "{level}: the oracle sees {} delimiters, not one opening and one closing\n{live:?}\n{input:?}\n{framed:?}",
            live.len()
        );
        assert!(
            live[0].kind == DelimiterKind::Open && live[0].start == 0,
            "{level}: first delimiter is not the opening tag\n{input:?}"
        );
        assert!(
            live[1].kind == DelimiterKind::Close && live[1].end == framed.len() - 1,
            "{level}: last delimiter is not the closing tag\n{input:?}"
        );
    }
    assert!(
        !oracle_reads_token(body),
        "the body still reads as the token\n{input:?}"
    );
}

/// The whole oracle, as the runner uses it, on a structure-only case.
fn assert_no_security_findings(
    input: &RoundtripInput,
    about: &Envelope,
    content: String,
    framed: &str,
    body: &str,
) {
    let (request, case) = roundtrip_case(about, content);
    let findings = oracle::judge_roundtrip(
        &case,
        &framecheck_envelope::reference_profile(),
        &request,
        framed,
        Some(body),
    );
    let security: Vec<&Finding> = findings
        .iter()
        .filter(|f| f.class == CheckClass::Security)
        .collect();
    assert!(
        security.is_empty(),
        "the oracle reports security findings on the reference's own frame: {security:#?}\n{input:?}\n{framed:?}"
    );
}

// ---------------------------------------------------------------------------
// 2. envelope_read
// ---------------------------------------------------------------------------

/// Input of [`run_envelope_read`]: a raw text, or a real frame with an edit.
#[derive(Clone, Arbitrary)]
pub enum ReadInput {
    /// Any text.
    Raw(String),
    /// A frame written by `wrap`, with `insert` spliced in at `at` (a byte
    /// offset, moved back to a character boundary) after deleting `delete`
    /// bytes.
    Edited {
        /// The frame.
        frame: RoundtripInput,
        /// Where to edit, modulo the length.
        at: u16,
        /// How many bytes to delete there.
        delete: u8,
        /// What to insert.
        insert: AdversarialText,
    },
}

impl ReadInput {
    /// The text this input stands for.
    pub fn build(&self) -> String {
        match self {
            ReadInput::Raw(text) => text.clone(),
            ReadInput::Edited {
                frame,
                at,
                delete,
                insert,
            } => {
                let (about, content) = frame.build();
                let Ok(mut text) = envelope::wrap(&about, &content) else {
                    return String::new();
                };
                let mut start = *at as usize % (text.len() + 1);
                while !text.is_char_boundary(start) {
                    start -= 1;
                }
                let mut end = (start + *delete as usize).min(text.len());
                while !text.is_char_boundary(end) {
                    end += 1;
                }
                text.replace_range(start..end, &insert.build());
                text
            }
        }
    }
}

impl fmt::Debug for ReadInput {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "envelope::read({:?})", self.build())
    }
}

/// Reads arbitrary text; whatever is accepted must be exactly what `wrap`
/// writes for the fields read.
pub fn run_envelope_read(data: &[u8]) {
    let Some(input) = decode::<ReadInput>(data) else {
        return;
    };
    let text = input.build();
    let Ok(frame) = envelope::read(&text) else {
        return;
    };
    let about = Envelope {
        kind: frame.kind.clone(),
        attributes: frame.attributes.clone(),
        provenance: frame.provenance.clone(),
    };
    let rewrapped = envelope::wrap(&about, &frame.body)
        .unwrap_or_else(|e| panic!("wrap refuses the fields read accepted: {e}\n{input:?}"));
    let again = envelope::read(&rewrapped)
        .unwrap_or_else(|e| panic!("read refuses the re-wrapped frame: {e}\n{input:?}"));
    assert_eq!(again, frame, "re-wrapping changes the fields\n{input:?}");
    // read accepts exactly what wrap writes, nothing else (module docs).
    assert_eq!(
        rewrapped, text,
        "read accepted a text wrap would not write\n{input:?}"
    );
    assert!(
        !oracle_reads_token(&frame.body),
        "accepted body reads as the token\n{input:?}"
    );
}

// ---------------------------------------------------------------------------
// 3. defang_differential
// ---------------------------------------------------------------------------

/// Input of [`run_defang_differential`].
#[derive(Clone, Arbitrary)]
pub enum DefangInput {
    /// Any text.
    Raw(String),
    /// Adversarial text.
    Adversarial(AdversarialText),
}

impl DefangInput {
    /// The text this input stands for.
    pub fn build(&self) -> String {
        match self {
            DefangInput::Raw(text) => text.clone(),
            DefangInput::Adversarial(text) => text.build(),
        }
    }
}

impl fmt::Debug for DefangInput {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "envelope::token_readings({:?})", self.build())
    }
}

/// The envelope's fast scanner against the oracle's slow one.
pub fn run_defang_differential(data: &[u8]) {
    let Some(input) = decode::<DefangInput>(data) else {
        return;
    };
    let text = input.build();
    let fast = envelope::token_readings(&text);
    let slow = readings(&text, TOKEN, ReaderLevel::Unicode);
    assert_eq!(fast, slow, "scanners disagree\n{input:?}");
    let defanged = envelope::defang(&text);
    let left = readings(&defanged, TOKEN, ReaderLevel::Unicode);
    assert!(
        left.is_empty(),
        "defang leaves readings at {left:?}\n{input:?}\n{defanged:?}"
    );
    assert_eq!(
        envelope::defang(&defanged),
        defanged,
        "defang is not idempotent\n{input:?}"
    );
    if fast.is_empty() {
        assert_eq!(
            defanged, text,
            "defang changed text with no reading\n{input:?}"
        );
    }
}

// ---------------------------------------------------------------------------
// 4. catalogue_loader
// ---------------------------------------------------------------------------

/// Loads arbitrary bytes as a catalogue file and as a target profile; both
/// must fail with an error, never a panic. A catalogue that loads is
/// instantiated for the reference too.
pub fn run_catalogue_loader(data: &[u8]) {
    if data.len() > MAX_INPUT_BYTES {
        return;
    }
    let text = String::from_utf8_lossy(data);
    if let Ok(file) = catalogue::load_str(Path::new("attacks/fuzz.yaml"), &text) {
        let catalogue = catalogue::Catalogue {
            hash: String::new(),
            notes: file.notes.clone(),
            cases: file.cases.clone(),
        };
        let _ = catalogue::instantiate(&catalogue, &framecheck_envelope::reference_profile());
    }
    if let Ok(profile) = TargetProfile::parse(&text) {
        assert!(
            profile.validate().is_ok(),
            "parse returned a profile that does not validate\n{text:?}"
        );
    }
}

// ---------------------------------------------------------------------------
// 5. protocol_decoder
// ---------------------------------------------------------------------------

/// Decodes arbitrary bytes as a reply line. The first byte picks the
/// operation (even: wrap, odd: read), the second the expected id, the rest
/// is the line. A reply that decodes must decode the same after re-encoding.
pub fn run_protocol_decoder(data: &[u8]) {
    if data.len() > MAX_INPUT_BYTES || data.len() < 2 {
        return;
    }
    let op = if data[0].is_multiple_of(2) {
        Op::Wrap
    } else {
        Op::Read
    };
    let id = u64::from(data[1]);
    let line = &data[2..];
    let Ok(reply) = decode_reply(line, id, op) else {
        return;
    };
    let encoded = encode_reply(id, op, &reply);
    assert!(
        !encoded.contains('\n'),
        "an encoded reply spans lines: {encoded:?}"
    );
    let again = decode_reply(encoded.as_bytes(), id, op)
        .unwrap_or_else(|e| panic!("re-encoded reply does not decode: {e}\n{encoded:?}"));
    assert_eq!(
        again,
        reply,
        "re-encoding changes the reply\n{:?}",
        String::from_utf8_lossy(line)
    );
}

/// Encodes a reply the way a conforming target would.
fn encode_reply(id: u64, op: Op, reply: &Reply) -> String {
    let mut object = serde_json::Map::new();
    object.insert("id".into(), id.into());
    match reply {
        Reply::Framed(framed) => {
            object.insert("framed".into(), framed.clone().into());
        }
        Reply::Body(body) => {
            object.insert(
                op.result_field().into(),
                body.clone().map_or(serde_json::Value::Null, Into::into),
            );
        }
        Reply::Segments(segments) => {
            let segments = serde_json::to_value(segments).expect("segments serialize");
            object.insert("segments".into(), segments);
        }
        Reply::Parts(parts) => {
            let parts = serde_json::to_value(parts).expect("parts serialize");
            object.insert("parts".into(), parts);
        }
        Reply::Refused(reason) => {
            object.insert("error".into(), reason.clone().into());
        }
    }
    serde_json::Value::Object(object).to_string()
}

// ---------------------------------------------------------------------------
// 6. oracle
// ---------------------------------------------------------------------------

/// The profiles the oracle target judges against: the reference, a bracket
/// marker profile, a nested tag profile with reserved tokens, a second tag
/// envelope, then one profile per newer grammar (a fence; begin/end markers
/// with attributes and a nonce).
fn oracle_profiles() -> &'static [TargetProfile] {
    static PROFILES: OnceLock<Vec<TargetProfile>> = OnceLock::new();
    PROFILES.get_or_init(|| {
        let mut profiles = vec![framecheck_envelope::reference_profile()];
        for yaml in [
            include_str!("../../../targets/seed-a2a-markers.yaml"),
            include_str!("../../../targets/seed-go-context.yaml"),
            include_str!("../../../targets/seed-ts-envelope.yaml"),
        ] {
            profiles.push(TargetProfile::parse(yaml).expect("shipped target profiles parse"));
        }
        let base = "name: fuzz\nadapter: { builtin: reference }\ncapabilities: [wrap, read]\n";
        for delimiters in [
            "delimiters: { grammar: fence, token: text }",
            "delimiters: { grammar: begin-end, token: DOC, open: '<<<{token} id=\"{nonce}\"{attrs}>>>', \
             close: '<<<END_{token} id=\"{nonce}\">>>', nonce: { alphabet: hex, min_length: 4 } }",
        ] {
            let yaml = format!("{base}{delimiters}\n");
            profiles.push(TargetProfile::parse(&yaml).expect("fuzz profiles parse"));
        }
        profiles
    })
}

/// Input of [`run_oracle`].
///
/// The plain form is what seed files use: 4 zero bytes (the variant), a
/// profile byte, an expectation byte, a canary-field bit mask byte, then
/// `framed NUL body NUL content NUL kind NUL provenance`; `body` is absent
/// (the reader rejected) when there is no first NUL, and every `CANARY` is
/// replaced by the case's canary.
#[derive(Clone, Arbitrary)]
pub enum OracleInput {
    /// Fields in the plain layout above.
    Plain {
        /// Index into the oracle's profiles.
        profile: u8,
        /// Index into the expectations.
        expectation: u8,
        /// Bit `i` plants the canary in field `i` (content, kind,
        /// attributes, provenance).
        canary_fields: u8,
        /// The NUL-separated texts.
        text: String,
    },
    /// Fields built from adversarial fragments.
    Structured(StructuredOracleInput),
}

/// The structured form of [`OracleInput`].
#[derive(Clone, Arbitrary)]
pub struct StructuredOracleInput {
    profile: u8,
    token: u8,
    expectation: u8,
    plant_canary: Vec<u8>,
    kind: AdversarialText,
    attributes: Vec<(Key, AdversarialText)>,
    provenance: AdversarialText,
    content: AdversarialText,
    framed: AdversarialText,
    body: Option<AdversarialText>,
}

/// Encodes one oracle judgement as the bytes of a plain [`OracleInput`]
/// seed. `profile` indexes the oracle's profiles (0 is the reference, 1 the
/// bracket-marker seed profile).
pub fn plain_oracle_seed(
    profile: u8,
    expectation: Expectation,
    canary_fields: &[Field],
    request: &WrapRequest,
    framed: &str,
    body: Option<&str>,
) -> Vec<u8> {
    let expectation = EXPECTATIONS
        .iter()
        .position(|e| *e == expectation)
        .unwrap_or(0) as u8;
    let mask = FIELDS
        .iter()
        .enumerate()
        .filter(|(_, f)| canary_fields.contains(f))
        .fold(0u8, |mask, (i, _)| mask | 1 << i);
    let mut seed = vec![0, 0, 0, 0, profile, expectation, mask];
    let text = match body {
        Some(body) => format!(
            "{framed}\0{body}\0{}\0{}\0{}",
            request.content, request.kind, request.provenance
        ),
        None => framed.to_string(),
    };
    seed.extend_from_slice(text.as_bytes());
    seed
}

const EXPECTATIONS: [Expectation; 5] = [
    Expectation::Hold,
    Expectation::Faithful,
    Expectation::Reject,
    Expectation::Accept,
    Expectation::Acceptable,
];

const FIELDS: [Field; 4] = [
    Field::Content,
    Field::Kind,
    Field::Attributes,
    Field::Provenance,
];

/// What the oracle target judges, built from an [`OracleInput`].
struct OracleCase {
    profile: &'static TargetProfile,
    request: WrapRequest,
    case: ConcreteCase,
    framed: String,
    body: Option<String>,
}

impl OracleInput {
    fn build(&self) -> OracleCase {
        match self {
            OracleInput::Plain {
                profile,
                expectation,
                canary_fields,
                text,
            } => {
                let profiles = oracle_profiles();
                let profile = &profiles[*profile as usize % profiles.len()];
                let canary = canary_for("fuzz", &profile.delimiters.all_tokens());
                let fields: Vec<Field> = (0..FIELDS.len())
                    .filter(|i| canary_fields & (1 << i) != 0)
                    .map(|i| FIELDS[i])
                    .collect();
                let text = text.replace("CANARY", &canary);
                let mut parts = text.splitn(5, '\0');
                let framed = parts.next().unwrap_or_default().to_string();
                let body = parts.next().map(str::to_string);
                let mut next = || parts.next().unwrap_or_default().to_string();
                let request = WrapRequest {
                    content: next(),
                    kind: next(),
                    attributes: BTreeMap::new(),
                    provenance: next(),
                };
                let expect = EXPECTATIONS[*expectation as usize % EXPECTATIONS.len()];
                let case = fuzz_case(
                    Operation::Wrap,
                    expect,
                    Input::Wrap(request.clone()),
                    canary,
                    fields,
                );
                OracleCase {
                    profile,
                    request,
                    case,
                    framed,
                    body,
                }
            }
            OracleInput::Structured(input) => input.build(),
        }
    }
}

impl StructuredOracleInput {
    fn build(&self) -> OracleCase {
        let profiles = oracle_profiles();
        let profile = &profiles[self.profile as usize % profiles.len()];
        let canary = canary_for("fuzz", &profile.delimiters.all_tokens());
        let fields: Vec<Field> = self
            .plant_canary
            .iter()
            .map(|&b| b as usize % FIELDS.len())
            .collect::<BTreeSet<_>>()
            .into_iter()
            .map(|i| FIELDS[i])
            .collect();
        let mut request = WrapRequest {
            content: self.content.build(),
            kind: self.kind.build(),
            attributes: self
                .attributes
                .iter()
                .map(|(k, v)| (k.build(), v.build()))
                .collect(),
            provenance: self.provenance.build(),
        };
        for field in &fields {
            match field {
                Field::Content => request.content.push_str(&canary),
                Field::Kind => request.kind.push_str(&canary),
                Field::Provenance => request.provenance.push_str(&canary),
                Field::Attributes => {
                    request.attributes.insert("canary".into(), canary.clone());
                }
            }
        }
        // The framed text is spelled with one of the profile's own tokens
        // and brackets, so fragments build live delimiters for it.
        let tokens = profile.delimiters.all_tokens();
        let vocabulary = Vocabulary {
            token: tokens[self.token as usize % tokens.len()],
            brackets: profile
                .grammar()
                .render(framecheck_core::grammar::Form::Open, 0)
                .brackets()
                .unwrap_or(('<', '>')),
        };
        let framed = self
            .framed
            .build_with(vocabulary)
            .replace("CANARY", &canary);
        let body = self.body.as_ref().map(|b| b.build_with(vocabulary));
        let expect = EXPECTATIONS[self.expectation as usize % EXPECTATIONS.len()];
        let case = fuzz_case(
            Operation::Wrap,
            expect,
            Input::Wrap(request.clone()),
            canary,
            fields,
        );
        OracleCase {
            profile,
            request,
            case,
            framed,
            body,
        }
    }
}

impl fmt::Debug for OracleInput {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let built = self.build();
        f.debug_struct("OracleInput")
            .field("profile", &built.profile.name)
            .field("expect", &built.case.expect)
            .field("canary_fields", &built.case.canary_fields)
            .field("request", &built.request)
            .field("framed", &built.framed)
            .field("body", &built.body)
            .finish()
    }
}

fn check_excerpts(
    findings: &[Finding],
    framed: &str,
    read_input: &str,
    body: Option<&str>,
    input: &OracleInput,
) {
    for finding in findings {
        let Some(excerpt) = &finding.excerpt else {
            continue;
        };
        let text = match excerpt.text {
            ExcerptSource::Framed => framed,
            ExcerptSource::ReadInput => read_input,
            ExcerptSource::ReadBody => body.unwrap_or_else(|| {
                panic!("excerpt points into a body that was never returned: {finding:?}\n{input:?}")
            }),
            // The fuzzed oracle judges texts; parts are judged apart.
            ExcerptSource::Parts => panic!("a parts excerpt from a text's judge: {finding:?}"),
        };
        assert!(
            excerpt.start <= excerpt.end
                && excerpt.end <= text.len()
                && text.is_char_boundary(excerpt.start)
                && text.is_char_boundary(excerpt.end),
            "excerpt {}..{} is not a span of its {}-byte text: {finding:?}\n{input:?}",
            excerpt.start,
            excerpt.end,
            text.len()
        );
        assert!(
            text.contains(excerpt.context.as_str()),
            "excerpt context is not from its text: {finding:?}\n{input:?}"
        );
    }
}

/// Judges arbitrary framed text and reader answers for several profiles.
pub fn run_oracle(data: &[u8]) {
    let Some(input) = decode::<OracleInput>(data) else {
        return;
    };
    let built = input.build();
    let body = built.body.as_deref();
    let findings = oracle::judge_wrap(&built.case, built.profile, &built.request, &built.framed);
    check_excerpts(&findings, &built.framed, &built.framed, None, &input);
    let findings = oracle::judge_read(&built.case, built.profile, &built.framed, body);
    check_excerpts(&findings, &built.framed, &built.framed, body, &input);
    let findings = oracle::judge_roundtrip(
        &built.case,
        built.profile,
        &built.request,
        &built.framed,
        body,
    );
    check_excerpts(&findings, &built.framed, &built.framed, body, &input);
    if let Ok(calibration) = oracle::calibrate(built.profile, &built.request, &built.framed) {
        assert_eq!(calibration.body(), built.request.content);
    }
}

/// A concrete case with only the fields the oracle reads filled in.
/// The wrap request for `content` with `about`'s other fields, and a
/// structure-only roundtrip case that carries it, for judging a reference
/// frame with the whole oracle.
fn roundtrip_case(about: &Envelope, content: String) -> (WrapRequest, ConcreteCase) {
    let request = WrapRequest {
        content,
        kind: about.kind.clone(),
        attributes: about.attributes.clone(),
        provenance: about.provenance.clone(),
    };
    let case = fuzz_case(
        Operation::Roundtrip,
        Expectation::Hold,
        Input::Wrap(request.clone()),
        String::new(),
        Vec::new(),
    );
    (request, case)
}

fn fuzz_case(
    operation: Operation,
    expect: Expectation,
    input: Input,
    canary: String,
    canary_fields: Vec<Field>,
) -> ConcreteCase {
    ConcreteCase {
        id: "fuzz".into(),
        base_id: "fuzz".into(),
        variant: Variant::Exact,
        category: Category::ALL[0],
        title: "fuzz".into(),
        why: "generated by a fuzz target".into(),
        references: Vec::new(),
        flags: Vec::new(),
        severity: Severity::High,
        operation,
        input,
        expect,
        refusal: RefusalPolicy::Allowed,
        min_level: ReaderLevel::Exact,
        canary,
        canary_fields,
        requires: Vec::new(),
        source: SourceLocation {
            file: "fuzz".into(),
            line: 1,
        },
        site: Default::default(),
        harvest: None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_target_name_runs() {
        for name in TARGETS {
            assert!(run_target(name, b"\x01\x02some bytes"));
        }
        assert!(!run_target("no-such-target", b""));
    }

    #[test]
    fn styled_token_variants_read_as_the_token() {
        // The generators must actually produce readings, or the targets
        // would fuzz benign text only.
        for style in [
            LetterStyle::Upper,
            LetterStyle::Fullwidth,
            LetterStyle::MathBold,
            LetterStyle::Spliced(0),
        ] {
            let mut out = String::new();
            styled(TOKEN, &[style], &mut out);
            assert!(oracle_reads_token(&out), "{style:?}: {out:?}");
        }
    }

    #[test]
    fn roundtrip_target_checks_something() {
        // Some byte strings decode to a frame with a forged closing tag;
        // the target must run through to the oracle without panicking.
        for seed in 0u8..=255 {
            let data: Vec<u8> = (0..200)
                .map(|i| seed.wrapping_mul(31).wrapping_add(i))
                .collect();
            run_envelope_roundtrip(&data);
            run_envelope_read(&data);
            run_defang_differential(&data);
            run_oracle(&data);
        }
    }

    #[test]
    fn key_problem_matches_the_documented_grammar() {
        let keys = |k: &[&str]| -> BTreeMap<String, String> {
            k.iter().map(|k| (k.to_string(), String::new())).collect()
        };
        assert!(key_problem(&keys(&["title", "_x", "a.b-c"])).is_none());
        assert!(key_problem(&keys(&["9a"])).is_some());
        assert!(key_problem(&keys(&["kind"])).is_some());
        assert!(key_problem(&keys(&["Title", "title"])).is_some());
        assert!(key_problem(&keys(&["x.FRAMECHECK-untrusted"])).is_some());
    }

    #[test]
    fn protocol_reencoding_round_trips() {
        let mut data = vec![1u8, 7];
        data.extend_from_slice(br#"{"id":7,"body":null}"#);
        run_protocol_decoder(&data);
        let reply = Reply::Body(Some("a\nb\u{2028}".into()));
        let line = encode_reply(7, Op::Read, &reply);
        assert_eq!(decode_reply(line.as_bytes(), 7, Op::Read).unwrap(), reply);
    }
}
