//! Tokens with an optional variable part: `untrusted-data-{nonce}`.
//!
//! A token is literal text with at most one `{nonce}` in it, or (in a
//! shape whose names may count, a section label: `Document {counter}`) a
//! `{counter}`: one or more digits, any value, since content can write
//! any number and a reader takes every one for the framing's. A `{kind}`
//! (`{kind}_output`, `{kind:upper}`) is the request's kind as the framing
//! spells it in the name ([`KindSpelling`]): any name, since every kind's
//! marker is one the framing writes, and the value a delimiter carries is
//! recorded so a frame's closer can be told from another kind's. The nonce is
//! matched by its declared alphabet and minimum length
//! ([`NonceSpec`]); the value a delimiter carries is recorded so the
//! oracle can tell the frame's own pair (opener and closer carry the same
//! value) from a marker with another value. How strong a nonce is, and
//! what a marker with the wrong value means, is judged elsewhere.

use serde::{Deserialize, Serialize};

use crate::level::ReaderLevel;
use crate::reader::Folded;

/// The characters a nonce is drawn from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum NonceAlphabet {
    /// `0-9a-f`, either case.
    Hex,
    /// `A-Za-z0-9-_`.
    Base64url,
    /// `A-Za-z0-9`.
    Alnum,
    /// A UUID: hex digits and `-`.
    Uuid,
    /// `0-9`.
    Digits,
}

impl NonceAlphabet {
    /// Whether `c` (as a reader folded it) belongs to the alphabet. Upper
    /// and lower case both count, because the exact reader does not fold.
    pub fn contains(self, c: char) -> bool {
        match self {
            NonceAlphabet::Hex => c.is_ascii_hexdigit(),
            NonceAlphabet::Base64url => c.is_ascii_alphanumeric() || c == '-' || c == '_',
            NonceAlphabet::Alnum => c.is_ascii_alphanumeric(),
            NonceAlphabet::Uuid => c.is_ascii_hexdigit() || c == '-',
            NonceAlphabet::Digits => c.is_ascii_digit(),
        }
    }

    /// The minimum length used when the profile gives none.
    pub fn default_min_length(self) -> usize {
        match self {
            NonceAlphabet::Uuid => 36,
            NonceAlphabet::Digits => 8,
            _ => 16,
        }
    }

    /// A value of `len` characters from the alphabet, for rendering a
    /// delimiter an attacker forges (who cannot know the real one).
    pub fn sample(self, len: usize) -> String {
        if self == NonceAlphabet::Uuid {
            let hex = "0123456789abcdef0123456789abcdef";
            let uuid = format!(
                "{}-{}-{}-{}-{}",
                &hex[..8],
                &hex[8..12],
                &hex[12..16],
                &hex[16..20],
                &hex[20..32]
            );
            return uuid.chars().cycle().take(len.max(36)).collect();
        }
        let digits = "0123456789";
        let pool = if self == NonceAlphabet::Digits {
            digits
        } else {
            "0123456789abcdef"
        };
        pool.chars().cycle().take(len.max(1)).collect()
    }
}

/// A declared per-call variable part.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NonceSpec {
    /// Its alphabet.
    pub alphabet: NonceAlphabet,
    /// Its shortest length; defaults per alphabet.
    #[serde(default)]
    pub min_length: Option<usize>,
}

impl NonceSpec {
    /// The shortest run that counts as a nonce.
    pub fn min_len(&self) -> usize {
        self.min_length
            .unwrap_or_else(|| self.alphabet.default_min_length())
            .max(1)
    }
}

/// How a framing spells the request's kind inside a token's name. Only
/// the spellings seen in real framings: the kind as sent
/// (`<{kind}_output>`, `BEGIN web-page`), upper-cased (`[TOOL-RESULT]`),
/// and with `-` written as `_` (`<tool_result>`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum KindSpelling {
    /// `{kind}`: as the request sends it.
    AsSent,
    /// `{kind:upper}`: upper-cased (ASCII).
    Upper,
    /// `{kind:underscore}`: every `-` written as `_`.
    Underscore,
}

impl KindSpelling {
    /// Every spelling, in the order `init` tries them.
    pub const ALL: [KindSpelling; 3] = [
        KindSpelling::AsSent,
        KindSpelling::Upper,
        KindSpelling::Underscore,
    ];

    /// The placeholder a token writes it with.
    pub fn placeholder(self) -> &'static str {
        match self {
            KindSpelling::AsSent => KIND,
            KindSpelling::Upper => "{kind:upper}",
            KindSpelling::Underscore => "{kind:underscore}",
        }
    }

    /// `kind` as the framing writes it in its token.
    pub fn spell(self, kind: &str) -> String {
        match self {
            KindSpelling::AsSent => kind.to_string(),
            KindSpelling::Upper => kind.to_ascii_uppercase(),
            KindSpelling::Underscore => kind.replace('-', "_"),
        }
    }
}

/// Whether `c` (as a reader folded it) may be part of a kind written in a
/// name: what a name in any of the grammars holds. A framing that writes
/// other characters of a kind raw (`<`, a line break) breaks its own
/// marker, and that is judged as the text it makes.
pub fn is_kind_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.')
}

/// Whether `c` may be written in a declared token's literal text: a
/// printable ASCII character that is no structural punctuation of any
/// grammar (a bracket, a quote, `/`, `=`, a brace, a backtick or `~`). The
/// one rule for a token's characters: a profile's validation and a shape
/// that reads a name off a framing's output (`init`) both ask it.
pub fn is_token_char(c: char) -> bool {
    c.is_ascii_graphic()
        && !matches!(
            c,
            '<' | '>' | '[' | ']' | '/' | '"' | '\'' | '=' | '{' | '}' | '`' | '~'
        )
}

/// One part of a token.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum TokenPart {
    /// Literal text.
    Literal(String),
    /// The `{nonce}`.
    Nonce,
    /// The `{counter}`: one or more digits as the reader folds them.
    Counter,
    /// The `{kind}`: the request's kind, spelled as declared.
    Kind(KindSpelling),
}

/// A token split at its `{nonce}`.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct TokenPattern {
    /// The parts, in order.
    pub parts: Vec<TokenPart>,
}

/// The placeholder a token or template marks its variable part with.
pub const NONCE: &str = "{nonce}";

/// The placeholder a token or template marks a number the framing counts
/// items or calls with.
pub const COUNTER: &str = "{counter}";

/// The placeholder a token marks the request's kind with (as sent; see
/// [`KindSpelling`] for the others).
pub const KIND: &str = "{kind}";

/// The kind a token is rendered with where no request is at hand (the
/// calibration request's and the catalogue's default kind).
pub const KIND_SAMPLE: &str = "tool-result";

/// The counter a rendered (forged) marker carries: content does not know
/// the framing's number, and needs none, since every number is read.
pub const COUNTER_SAMPLE: &str = "907";

impl TokenPattern {
    /// Splits `token` at each `{nonce}`, `{counter}` and `{kind…}`.
    pub fn parse(token: &str) -> TokenPattern {
        let mut parts = Vec::new();
        let mut rest = token;
        let kinds = KindSpelling::ALL.map(|k| (k.placeholder(), TokenPart::Kind(k)));
        let next = |rest: &str| {
            [(NONCE, TokenPart::Nonce), (COUNTER, TokenPart::Counter)]
                .into_iter()
                .chain(kinds.iter().cloned())
                .filter_map(|(p, part)| rest.find(p).map(|at| (at, p.len(), part)))
                .min_by_key(|(at, _, _)| *at)
        };
        while let Some((at, len, part)) = next(rest) {
            if at > 0 {
                parts.push(TokenPart::Literal(rest[..at].to_string()));
            }
            parts.push(part);
            rest = &rest[at + len..];
        }
        if !rest.is_empty() {
            parts.push(TokenPart::Literal(rest.to_string()));
        }
        TokenPattern { parts }
    }

    /// True when the token has a variable part.
    pub fn has_nonce(&self) -> bool {
        self.parts.contains(&TokenPart::Nonce)
    }

    /// True when the token has a `{counter}`.
    pub fn has_counter(&self) -> bool {
        self.parts.contains(&TokenPart::Counter)
    }

    /// True when the token has a `{kind}`.
    pub fn has_kind(&self) -> bool {
        self.kind_spelling().is_some()
    }

    /// How the token spells the kind, when it has one.
    pub fn kind_spelling(&self) -> Option<KindSpelling> {
        self.parts.iter().find_map(|p| match p {
            TokenPart::Kind(k) => Some(*k),
            _ => None,
        })
    }

    /// The token as written, with `nonce` standing for the variable part
    /// (a counter and a kind stay placeholders).
    pub fn render(&self, nonce: &str) -> String {
        self.parts
            .iter()
            .map(|p| match p {
                TokenPart::Literal(l) => l.as_str(),
                TokenPart::Nonce => nonce,
                TokenPart::Counter => COUNTER,
                TokenPart::Kind(k) => k.placeholder(),
            })
            .collect()
    }
}

/// `text` (a token or template) with every `{kind…}` written as the
/// framing writes `kind`: the delimiters of one request's frame.
pub fn with_kind(text: &str, kind: &str) -> String {
    KindSpelling::ALL.iter().fold(text.to_string(), |t, k| {
        t.replace(k.placeholder(), &k.spell(kind))
    })
}

/// `token`, inferred from a wrap of a request of kind `first` (a plain
/// word), with the kind written as a `{kind…}` placeholder, when a wrap of
/// a request of kind `second` (`output`) writes the same name with
/// `second` in its place: the name follows the kind (`init`'s experiment).
/// The spelling is the first of [`KindSpelling::ALL`] whose rendering of
/// both kinds fits; `second` should hold a `-`, so that writing it as
/// sent and with `_` differ. `None` when no spelling of `first` is in the
/// token or the second wrap does not name `second` there.
pub fn kind_in_token(token: &str, first: &str, second: &str, output: &str) -> Option<String> {
    KindSpelling::ALL.iter().find_map(|&spelling| {
        let seen = spelling.spell(first);
        let at = token.find(&seen)?;
        let candidate = format!(
            "{}{}{}",
            &token[..at],
            spelling.placeholder(),
            &token[at + seen.len()..]
        );
        // The literal text on either side of the kind, up to another
        // placeholder (a nonce is another value in every wrap).
        let before = token[..at].rsplit('}').next().unwrap_or_default();
        let after = token[at + seen.len()..]
            .split('{')
            .next()
            .unwrap_or_default();
        let named = format!("{before}{}{after}", spelling.spell(second));
        let parsed = TokenPattern::parse(&candidate);
        (output.contains(&named) && parsed.kind_spelling() == Some(spelling)).then_some(candidate)
    })
}

/// Where a token matched in a folded text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TokenMatch {
    /// Folded index just past the token.
    pub end: usize,
    /// The nonce's folded index range, when the token has one.
    pub nonce: Option<(usize, usize)>,
    /// The kind's folded index range, when the token has one.
    pub kind: Option<(usize, usize)>,
}

/// Matches `token` at folded index `at`: literal parts folded by the same
/// reader, a nonce as a run of at least the minimum length of its alphabet
/// (greedy; the literal after it must then match), a kind as a run of name
/// characters (the longest after which the rest matches: a kind may hold
/// the `_` or `-` the literal after it starts with), a space between the
/// words of a phrase as `word_gap` reads it. `None` without a match,
/// or when the token has a nonce and `nonce` is not declared.
pub fn match_token(
    folded: &Folded<'_>,
    at: usize,
    token: &TokenPattern,
    nonce: Option<&NonceSpec>,
) -> Option<TokenMatch> {
    let m = match_parts(folded, at, &token.parts, nonce)?;
    (m.end > at).then_some(m)
}

/// [`match_token`] over `parts`, from folded index `at`.
fn match_parts(
    folded: &Folded<'_>,
    at: usize,
    parts: &[TokenPart],
    nonce: Option<&NonceSpec>,
) -> Option<TokenMatch> {
    let mut i = at;
    let mut span = None;
    for (n, part) in parts.iter().enumerate() {
        match part {
            TokenPart::Literal(literal) => {
                for (n, word) in literal.split(' ').enumerate() {
                    if n > 0 {
                        i = word_gap(folded, i)?;
                    }
                    if !word.is_empty() {
                        i = folded.match_literal(i, word)?;
                    }
                }
            }
            TokenPart::Nonce => {
                let spec = nonce?;
                let start = i;
                while folded.ch(i).is_some_and(|c| spec.alphabet.contains(c)) {
                    i += 1;
                }
                if i - start < spec.min_len() {
                    return None;
                }
                span = Some((start, i));
            }
            // Greedy like the nonce: a literal after a counter never
            // starts with a digit in a declared name (`Document {counter}`).
            TokenPart::Counter => {
                let start = i;
                while folded.ch(i).is_some_and(|c| c.is_ascii_digit()) {
                    i += 1;
                }
                if i == start {
                    return None;
                }
            }
            TokenPart::Kind(_) => return match_kind(folded, i, &parts[n + 1..], nonce, span),
        }
    }
    Some(TokenMatch {
        end: i,
        nonce: span,
        kind: None,
    })
}

/// A kind at folded index `at` followed by `rest`: the longest run of
/// name characters after which `rest` matches.
fn match_kind(
    folded: &Folded<'_>,
    at: usize,
    rest: &[TokenPart],
    nonce: Option<&NonceSpec>,
    nonce_span: Option<(usize, usize)>,
) -> Option<TokenMatch> {
    let mut longest = at;
    while folded.ch(longest).is_some_and(is_kind_char) {
        longest += 1;
    }
    (at + 1..=longest).rev().find_map(|end| {
        let m = match_parts(folded, end, rest, nonce)?;
        Some(TokenMatch {
            end: m.end,
            nonce: m.nonce.or(nonce_span),
            kind: Some((at, end)),
        })
    })
}

/// Folded index past the gap between two words of a phrase token
/// (`Execution logs`) at `at`. A byte reader (exact, ASCII
/// case-insensitive) compares the one space the token has; the Unicode
/// reader, a model, reads any run of spaces and tabs between the words as
/// the same phrase.
fn word_gap(folded: &Folded<'_>, at: usize) -> Option<usize> {
    if folded.reader.level() != ReaderLevel::Unicode {
        return folded.match_literal(at, " ");
    }
    let mut i = at;
    while matches!(folded.ch(i), Some(' ' | '\t')) {
        i += 1;
    }
    (i > at).then_some(i)
}

/// `text` with its `{nonce}` removed the way a forger would drop it: a
/// whole attribute (` id="{nonce}"`) when the nonce is an attribute value,
/// else the nonce and one separator next to it (`data-{nonce}` → `data`).
pub fn without_nonce(text: &str) -> String {
    let Some(at) = text.find(NONCE) else {
        return text.to_string();
    };
    let (before, after) = (&text[..at], &text[at + NONCE.len()..]);
    let quote = before.chars().last().filter(|c| *c == '"' || *c == '\'');
    let unquoted = quote.map_or(before, |q| &before[..before.len() - q.len_utf8()]);
    if let Some(name_end) = unquoted.strip_suffix('=').map(str::len) {
        let name_start = unquoted[..name_end]
            .trim_end_matches(|c: char| c.is_ascii_alphanumeric() || c == '-' || c == '_')
            .trim_end()
            .len();
        let rest = quote.map_or(Some(after), |q| after.strip_prefix(q));
        if let (Some(rest), true) = (rest, name_start < name_end) {
            return format!("{}{rest}", &unquoted[..name_start]);
        }
    }
    let separators: &[char] = &['-', '_', ':', '.'];
    match before.strip_suffix(separators) {
        Some(kept) => format!("{kept}{after}"),
        None => format!(
            "{before}{}",
            after.strip_prefix(separators).unwrap_or(after)
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::level::ReaderLevel;
    use crate::reader::Reader;

    #[test]
    fn tokens_split_at_the_nonce() {
        let t = TokenPattern::parse("data-{nonce}");
        assert_eq!(
            t.parts,
            vec![TokenPart::Literal("data-".into()), TokenPart::Nonce]
        );
        assert!(t.has_nonce());
        assert_eq!(t.render("ab"), "data-ab");
        assert!(!TokenPattern::parse("plain").has_nonce());
    }

    #[test]
    fn a_nonce_matches_its_alphabet_and_length() {
        let spec = NonceSpec {
            alphabet: NonceAlphabet::Hex,
            min_length: Some(4),
        };
        let token = TokenPattern::parse("d-{nonce}");
        let reader = Reader::new(ReaderLevel::Exact);
        let m = |text: &str| match_token(&reader.fold(text), 0, &token, Some(&spec));
        assert_eq!(
            m("d-00ffZ"),
            Some(TokenMatch {
                end: 6,
                nonce: Some((2, 6)),
                kind: None,
            })
        );
        assert_eq!(m("d-00ffx").map(|t| t.end), Some(6));
        assert!(m("d-0f").is_none());
        assert!(m("d-0fx").is_none());
        assert!(m("d-xyzw").is_none());
        // Without a declared nonce the token cannot match.
        assert!(match_token(&reader.fold("d-00ff"), 0, &token, None).is_none());
        assert_eq!(NonceAlphabet::Uuid.sample(36).len(), 36);
        assert!(NonceAlphabet::Hex
            .sample(16)
            .chars()
            .all(|c| NonceAlphabet::Hex.contains(c)));
    }

    #[test]
    fn a_kind_matches_any_name_and_leaves_the_rest_its_literal() {
        let token = TokenPattern::parse("{kind}_output");
        assert_eq!(token.kind_spelling(), Some(KindSpelling::AsSent));
        assert_eq!(token.render(""), "{kind}_output");
        let reader = Reader::new(ReaderLevel::Exact);
        let m = |text: &str| match_token(&reader.fold(text), 0, &token, None);
        // The kind may hold the `_` its literal starts with.
        let got = m("web_page_output>").unwrap();
        assert_eq!((got.end, got.kind), (15, Some((0, 8))));
        assert_eq!(m("tool-result_output").unwrap().kind, Some((0, 11)));
        assert!(m("_output").is_none());
        assert!(m("tool-result_outpu").is_none());
        let upper = TokenPattern::parse("{kind:upper}");
        assert_eq!(upper.kind_spelling(), Some(KindSpelling::Upper));
        assert_eq!(
            match_token(&reader.fold("TOOL-RESULT]"), 0, &upper, None).map(|m| m.end),
            Some(11)
        );
        assert!(!TokenPattern::parse("plain").has_kind());
    }

    #[test]
    fn init_reads_the_kind_in_a_name_only_where_a_second_kind_follows() {
        let second = "fc-kind-r2";
        let in_name = |token: &str, out: &str| kind_in_token(token, "fckindq7", second, out);
        assert_eq!(
            in_name(
                "fckindq7_output",
                "<fc-kind-r2_output>x</fc-kind-r2_output>"
            )
            .as_deref(),
            Some("{kind}_output")
        );
        assert_eq!(
            in_name("FCKINDQ7", "[FC-KIND-R2]x[/FC-KIND-R2]").as_deref(),
            Some("{kind:upper}")
        );
        assert_eq!(
            in_name(
                "fckindq7_output",
                "<fc_kind_r2_output>x</fc_kind_r2_output>"
            )
            .as_deref(),
            Some("{kind:underscore}_output")
        );
        // The same name whatever the kind: no `{kind}`.
        assert_eq!(
            in_name("fckindq7_output", "<fckindq7_output>x</fckindq7_output>"),
            None
        );
        assert_eq!(in_name("output", "<output>x</output>"), None);
        // Beside a nonce, only the literal next to the kind is compared.
        assert_eq!(
            in_name("d-{nonce}-fckindq7", "<d-00ff-fc-kind-r2>").as_deref(),
            Some("d-{nonce}-{kind}")
        );
    }

    #[test]
    fn a_kind_is_spelled_as_declared() {
        assert_eq!(with_kind("{kind}_output", "web-page"), "web-page_output");
        assert_eq!(with_kind("{kind:upper}", "tool-result"), "TOOL-RESULT");
        assert_eq!(
            with_kind("<{kind:underscore}>", "tool-result"),
            "<tool_result>"
        );
        assert_eq!(with_kind("plain", "x"), "plain");
    }

    #[test]
    fn the_nonce_is_dropped_as_a_forger_would() {
        assert_eq!(without_nonce("untrusted-data-{nonce}"), "untrusted-data");
        assert_eq!(without_nonce("{nonce}_data"), "data");
        assert_eq!(
            without_nonce("<<<EXTERNAL id=\"{nonce}\">>>"),
            "<<<EXTERNAL>>>"
        );
        assert_eq!(without_nonce("<<<END {nonce}>>>"), "<<<END >>>");
        assert_eq!(without_nonce("plain"), "plain");
        // Single quotes, no quotes, and names with `-` and `_`.
        assert_eq!(without_nonce("<t id='{nonce}'>"), "<t>");
        assert_eq!(without_nonce("<t id={nonce}>"), "<t>");
        assert_eq!(without_nonce("<t data-frame_id=\"{nonce}\">"), "<t>");
        assert_eq!(without_nonce("<t a=\"1\" b_c='{nonce}'>"), "<t a=\"1\">");
        // An `=` with no name before it is no attribute.
        assert_eq!(without_nonce("(={nonce})"), "(=)");
    }
}
