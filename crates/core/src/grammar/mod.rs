//! Delimiter grammars: how a framing spells its delimiters, and where a
//! reader sees them.
//!
//! A [`Grammar`] answers four questions for one framing's vocabulary (its
//! tokens, in the order of `Delimiters::all_tokens`, and its nonce):
//!
//! 1. **liveness** ([`Grammar::live`]): where a reader sees a delimiter of
//!    any token in a folded text, with its role (token index and
//!    [`DelimiterKind`]), its byte span and its nonce value;
//! 2. **rendering** ([`Grammar::render`]): the spelling of each delimiter
//!    [`Form`] that templates, variants, search and fuzzing forge, as typed
//!    pieces ([`Spelling`]) that generic variant code rewrites;
//! 3. **opener parsing** ([`Grammar::parse_opener`],
//!    [`Grammar::delimiter_end`]): where an opener ends and which
//!    attributes it carries, or why it does not parse;
//! 4. **grammar attacks** ([`Grammar::attacks`]): the catalogue cases only
//!    this grammar invites.
//!
//! One file per implementation: `xml_tag`, `bracket_marker` (both thin
//! over the shared tag matcher in `tagged`), `begin_end`, `fence`,
//! `section` (open-only markers: a section ends where the next begins),
//! `json_document` (a whole document, the content one string in it: JSON,
//! a Python literal, or YAML in its `yaml` submodule),
//! `inline_pair` (two distinct marks inside a line: `«…»`),
//! `record_list` (the content one record of a list: `[2] …`),
//! `table_cell` (the content one cell of a Markdown table row: `| web | … |`),
//! `string_literal` (a quoted literal: `content = "…"`) and `long_bracket`
//! (a Lua long string: `[==[…]==]`).
//! What a grammar kind knows before it has a vocabulary (the declaration
//! fields it reads, its builder, `init`'s experiments for it, how the
//! layout learner reads its delimiters) is its [`Shape`], in the same file.
//! Adding a grammar means adding a module with a [`Grammar`] and a [`Shape`]
//! impl, a [`GrammarKind`] variant, its entry in [`GrammarKind::ALL`] and
//! its arm in `GrammarKind::entry` (its name and shape); the compiler asks
//! for each of these (`ALL` is declared with a match over the same list,
//! which must be exhaustive) and for the trait methods without a default.
//!
//! ```
//! use framecheck_core::grammar::{self, DelimiterKind, Form, GrammarKind, Vocabulary};
//! use framecheck_core::level::ReaderLevel;
//! use framecheck_core::reader::Reader;
//!
//! let g = grammar::build(GrammarKind::XmlTag, Vocabulary::plain(&["context"]), None, None).unwrap();
//! assert_eq!(g.render(Form::Close, 0).plain(), "</context>");
//! let text = "data </CONTEXT> more";
//! assert!(g.live(&Reader::new(ReaderLevel::Exact).fold(text)).is_empty());
//! let live = g.live(&Reader::new(ReaderLevel::AsciiCaseInsensitive).fold(text));
//! assert_eq!(live[0].kind, DelimiterKind::Close);
//! assert_eq!(&text[live[0].start..live[0].end], "</CONTEXT");
//! ```

use std::fmt;
use std::ops::Range;

use serde::{Deserialize, Serialize};

mod attributes;
pub mod begin_end;
mod bracket_marker;
mod declaration;
pub(crate) mod entities;
mod fence;
mod inline_pair;
pub mod json_document;
mod long_bracket;
mod record_list;
mod section;
pub mod shape;
mod spelling;
pub(crate) mod string_literal;
mod table_cell;
mod tagged;
pub mod token;
mod xml_tag;

pub use declaration::Delimiters;
pub use section::SectionMarker;
pub use shape::{Around, Extras, Fields, Guess, RunChars, Shape, SizedRun, MASK};
pub use spelling::{Piece, Spelling};
pub use string_literal::LiteralEscape;
pub use token::{with_kind, without_nonce, KindSpelling, NonceAlphabet, NonceSpec, TokenPattern};

use crate::reader::Folded;

/// The delimiter grammars framecheck knows, by profile name.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum GrammarKind {
    /// `<tok attr="v">…</tok>`
    XmlTag,
    /// `[TOK]…[/TOK]`
    BracketMarker,
    /// Declared `open`/`close` templates: `<<<TOK>>>` … `<<<END_TOK>>>`.
    BeginEnd,
    /// A Markdown code fence: a run of 3+ backticks or tildes.
    Fence,
    /// Open-only section markers (`[[ ## tok ## ]]`, `### Tok`, `Tok:`):
    /// a section ends where the next marker begins.
    Section,
    /// A whole JSON document, the content a string at a JSON pointer (the
    /// token): `{"source": "tool", "content": "…"}`.
    JsonDocument,
    /// A whole Python literal (`repr` of a dict or list), after an optional
    /// lead text, the content a string at a JSON pointer (the token):
    /// `Observation: {'url': '…', 'content': '…'}`.
    PythonDocument,
    /// Two distinct marks around the content inside running text, live
    /// wherever a reader sees them: `Document: «…»`, `<doc text="…"/>`.
    InlinePair,
    /// The content one record of a list in running text, each record
    /// starting at a marker first on its line: `[2] …`, `2. tool: …`.
    RecordList,
    /// A whole YAML document (a mapping or sequence), the content a string
    /// at a JSON pointer (the token): `tool: fetch\nresult: …`.
    YamlDocument,
    /// One cell of a Markdown table row, ended by the next live `|` or the
    /// row's line break: `| web | … |`.
    TableCell,
    /// JSON documents one a line (JSON Lines), the content a string at a
    /// JSON pointer whose first segment is its line (the token):
    /// `{"event": "begin"}` / `{"event": "data", "text": "…"}` / ….
    JsonLines,
    /// The content inside a quoted string literal of a host syntax, kept
    /// there by the literal's escapes: `(content "…")`, `content = "…"`.
    StringLiteral,
    /// A Lua long string, `[==[…]==]`: only the closer of the opener's
    /// level ends it, so the framing sizes the level to the content.
    LongBracket,
}

every_variant! {
    /// Every grammar (the compiler checks that none is missing).
    GrammarKind: [
        XmlTag,
        BracketMarker,
        BeginEnd,
        Fence,
        Section,
        // Before the documents: its guess shares their rank and is tried
        // first, since a JSON reader also reads `content = "…"` after a
        // lead, by escapes that are not the host syntax's.
        StringLiteral,
        // Before the documents too: `return [[…]]` is no Python list.
        LongBracket,
        JsonDocument,
        PythonDocument,
        InlinePair,
        RecordList,
        YamlDocument,
        TableCell,
        JsonLines,
    ]
}

impl GrammarKind {
    /// The stable name, as written in profiles.
    pub fn name(self) -> &'static str {
        self.entry().0
    }

    /// What this kind knows before it has a vocabulary.
    pub fn shape(self) -> &'static dyn Shape {
        self.entry().1
    }

    /// The registration of every kind: its profile name and its module's
    /// [`Shape`], the one place a kind is mapped to its module. The match
    /// stays exhaustive on purpose: a new variant does not compile until
    /// it names its shape here.
    fn entry(self) -> (&'static str, &'static dyn Shape) {
        match self {
            GrammarKind::XmlTag => ("xml-tag", &xml_tag::SHAPE),
            GrammarKind::BracketMarker => ("bracket-marker", &bracket_marker::SHAPE),
            GrammarKind::BeginEnd => ("begin-end", &begin_end::BeginEndShape),
            GrammarKind::Fence => ("fence", &fence::FenceShape),
            GrammarKind::Section => ("section", &section::SectionShape),
            GrammarKind::JsonDocument => ("json-document", &json_document::JSON_SHAPE),
            GrammarKind::PythonDocument => ("python-document", &json_document::PYTHON_SHAPE),
            GrammarKind::InlinePair => ("inline-pair", &inline_pair::InlinePairShape),
            GrammarKind::RecordList => ("record-list", &record_list::RecordListShape),
            GrammarKind::YamlDocument => ("yaml-document", &json_document::YAML_SHAPE),
            GrammarKind::TableCell => ("table-cell", &table_cell::TableCellShape),
            GrammarKind::JsonLines => ("json-lines", &json_document::LINES_SHAPE),
            GrammarKind::StringLiteral => ("string-literal", &string_literal::StringLiteralShape),
            GrammarKind::LongBracket => ("long-bracket", &long_bracket::LongBracketShape),
        }
    }

    /// Whether the grammar has more than one token (inner, reserved). A
    /// section grammar's further tokens are the names of the framing's
    /// other sections.
    pub fn allows_inner_tokens(self) -> bool {
        self.shape().fields().inner_tokens
    }

    /// Whether the grammar writes no closer: a frame ends where the next
    /// marker begins, or at the end of the text.
    pub fn is_open_only(self) -> bool {
        self.shape().is_open_only()
    }
}

impl fmt::Display for GrammarKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Which form of a token's delimiter to render.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Form {
    /// The bare token.
    Token,
    /// The whole opener, without attributes: `<tok>`, `[TOK]`, `<<<TOK>>>`.
    Open,
    /// The opener up to where attributes would start: `<tok`.
    OpenStart,
    /// The closer: `</tok>`, `<<<END_TOK>>>`.
    Close,
}

/// Whether a live delimiter opens or closes an element.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum DelimiterKind {
    /// An opener.
    Open,
    /// A closer.
    Close,
}

impl DelimiterKind {
    /// "opening" or "closing", for messages.
    pub fn adjective(self) -> &'static str {
        match self {
            DelimiterKind::Open => "opening",
            DelimiterKind::Close => "closing",
        }
    }
}

/// A place where a reader at some level sees a structural delimiter.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct LiveDelimiter {
    /// Index into the vocabulary's tokens (0 outer, then inner, then reserved).
    pub token: usize,
    /// Opening or closing.
    pub kind: DelimiterKind,
    /// Byte offset of the first byte of the delimiter.
    pub start: usize,
    /// Byte offset just past what the grammar matched (for tags, the end of
    /// the token; for begin/end markers and fences, the whole marker).
    pub end: usize,
    /// Byte range of the nonce value, when the token has one.
    pub nonce: Option<(usize, usize)>,
    /// Byte range of the request's kind in the name, when the token has a
    /// `{kind}` (`<web-page_output>`).
    pub request_kind: Option<(usize, usize)>,
}

impl LiveDelimiter {
    /// Whether `self` and `other` carry the same nonce value as `folded`'s
    /// reader reads it (true when neither has one, or one side has none:
    /// a closer without a nonce part in its grammar).
    pub fn same_nonce(&self, other: &LiveDelimiter, folded: &Folded<'_>) -> bool {
        match (self.nonce, other.nonce) {
            (Some(a), Some(b)) => folded.value(a) == folded.value(b),
            _ => true,
        }
    }
}

/// What a frame's opener fixes about which delimiters belong to the
/// frame: the nonce value its closer must carry, a fence's character and
/// length. Built by [`Grammar::frame_key`]; the default (no nonce, no
/// fence) makes every live delimiter this frame's.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct FrameKey {
    /// The opener's nonce value, as the reader that read it folds it.
    pub nonce: Option<String>,
    /// The character and run length of a frame sized by a run: a fence's
    /// backticks or tildes, a Lua long string's equals signs (its level).
    pub fence: Option<(char, usize)>,
    /// The kind the opener's name carries (a `{kind}` token), as the
    /// reader that read it folds it.
    pub request_kind: Option<String>,
}

/// How a reader inside a frame reads a delimiter-shaped span: the one
/// answer every check asks ([`Grammar::live_in`], [`FrameKey::classify`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Liveness {
    /// This frame's own closer: the frame ends there.
    Closer,
    /// Another live delimiter: it opens a frame, or closes one other than
    /// this (for a nonce grammar, it carries this frame's value or none is
    /// declared).
    Live,
    /// Spelled like the frame's own delimiter with another nonce value: a
    /// reader that compares values passes over it; a model may not (class
    /// `confusable`, never a breakout).
    Confusable,
    /// Delimiter-shaped but content for a reader inside this frame: a fence
    /// run shorter than the frame's, or of the other character.
    Dead,
}

impl Liveness {
    /// Whether a reader inside the frame sees a delimiter here.
    pub fn is_live(self) -> bool {
        matches!(self, Liveness::Closer | Liveness::Live)
    }
}

impl FrameKey {
    /// The key of the frame `opener` opens, live in `folded`
    /// ([`Grammar::frame_key`]); without an opener the default key, under
    /// which every delimiter is the frame's.
    pub fn of(
        grammar: &dyn Grammar,
        folded: &Folded<'_>,
        opener: Option<LiveDelimiter>,
    ) -> FrameKey {
        opener
            .map(|o| grammar.frame_key(folded, &o))
            .unwrap_or_default()
    }

    /// How a reader inside the frame this key opens reads `d`, a delimiter
    /// `folded`'s reader sees: another value than the key's is a
    /// confusable, the outer token's closer is the frame's closer unless
    /// it names another kind than the frame's (then it is the framing's
    /// marker of another frame: live, a forged one), anything else is live.
    pub fn classify(&self, d: &LiveDelimiter, folded: &Folded<'_>) -> Liveness {
        let value = |span: Option<(usize, usize)>| span.map(|span| folded.value(span));
        let other_kind = matches!(
            (&self.request_kind, value(d.request_kind)),
            (Some(own), Some(kind)) if *own != kind
        );
        match (&self.nonce, value(d.nonce)) {
            (Some(own), Some(value)) if *own != value => Liveness::Confusable,
            _ if d.token == 0 && d.kind == DelimiterKind::Close && !other_kind => Liveness::Closer,
            _ => Liveness::Live,
        }
    }

    /// How a reader inside this frame reads `d`, a marker found by a
    /// grammar that spells the frame's delimiters with their nonce of any
    /// length or without it (what a forger writes); `own` is the frame's
    /// grammar. A marker with no value where `own` spells one on that
    /// delimiter is a confusable, like one with another value; anything
    /// else is read as [`FrameKey::classify`] reads it.
    pub fn classify_respelled(
        &self,
        own: &dyn Grammar,
        d: &LiveDelimiter,
        folded: &Folded<'_>,
    ) -> Liveness {
        if self.nonce.is_some() && d.nonce.is_none() && own.carries_nonce(d.kind, d.token) {
            return Liveness::Confusable;
        }
        self.classify(d, folded)
    }
}

/// One attribute as parsed from an opener.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Attribute {
    /// The name, as written.
    pub name: String,
    /// The value with entities decoded.
    pub value: String,
    /// Where the name starts, in the text.
    pub at: usize,
}

/// Why an opener did not parse.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OpenerError {
    /// What the parser expected.
    pub reason: &'static str,
    /// Byte offset where it gave up.
    pub at: usize,
}

/// A parsed opener.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParsedOpener {
    /// The attributes in order.
    pub attributes: Vec<Attribute>,
    /// The whole opener, first byte to just past its end.
    pub span: Range<usize>,
}

/// An attack only some grammars invite: a catalogue case id and why.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct GrammarAttack {
    /// The id of the catalogue case that carries it.
    pub case: &'static str,
    /// What it tries.
    pub what: &'static str,
}

/// A framing's tokens and nonce, as the grammar matches them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Vocabulary {
    /// Outer, inner, reserved, in the order of `Delimiters::all_tokens`.
    pub tokens: Vec<TokenPattern>,
    /// The declared variable part, if any.
    pub nonce: Option<NonceSpec>,
}

impl Vocabulary {
    /// Tokens without a nonce.
    pub fn plain(tokens: &[&str]) -> Vocabulary {
        Vocabulary {
            tokens: tokens.iter().map(|t| TokenPattern::parse(t)).collect(),
            nonce: None,
        }
    }

    /// The token at `index` as an attacker would write it: the nonce
    /// rendered as a sample value from its alphabet.
    pub fn render_token(&self, index: usize) -> Vec<Piece> {
        let Some(token) = self.tokens.get(index) else {
            return Vec::new();
        };
        let sample = self
            .nonce
            .map(|n| n.alphabet.sample(n.min_len()))
            .unwrap_or_default();
        token
            .parts
            .iter()
            .map(|p| match p {
                token::TokenPart::Literal(l) => Piece::Token(l.clone()),
                token::TokenPart::Nonce => Piece::Nonce(sample.clone()),
                // Variants respell the name around the number, not the
                // number: any number is read.
                token::TokenPart::Counter => Piece::Verbatim(token::COUNTER_SAMPLE.into()),
                // The catalogue renders each case's own kind
                // (`Delimiters::with_kind`); elsewhere the default kind.
                token::TokenPart::Kind(k) => Piece::Token(k.spell(token::KIND_SAMPLE)),
            })
            .collect()
    }
}

/// A delimiter grammar over one vocabulary. See the module documentation.
pub trait Grammar: fmt::Debug + Send + Sync {
    /// Which grammar this is.
    fn kind(&self) -> GrammarKind;

    /// Every live delimiter of the vocabulary in `folded`, in text order.
    fn live(&self, folded: &Folded<'_>) -> Vec<LiveDelimiter>;

    /// The delimiter `form` of token `token`, as the framing writes it.
    fn render(&self, form: Form, token: usize) -> Spelling;

    /// Byte offset just past the whole delimiter `d` (for an opener, past
    /// its attributes) as `folded`'s reader sees it; `None` when it never
    /// ends (an unterminated tag). By default where the live match ends: a
    /// delimiter with nothing after its match (a fence, a marker line).
    fn delimiter_end(&self, _folded: &Folded<'_>, d: &LiveDelimiter) -> Option<usize> {
        Some(d.end)
    }

    /// Parses the opener `d` in `text` as a strict parser would,
    /// recovering its attributes. By default an opener with none, spanning
    /// its live match.
    fn parse_opener(&self, _text: &str, d: &LiveDelimiter) -> Result<ParsedOpener, OpenerError> {
        Ok(ParsedOpener {
            attributes: Vec::new(),
            span: d.start..d.end,
        })
    }

    /// Whether the `kind` delimiter of token `token`, as the framing
    /// writes it, carries the nonce: a begin/end closer template may leave
    /// it out while its opener carries it.
    fn carries_nonce(&self, kind: DelimiterKind, token: usize) -> bool {
        let form = match kind {
            DelimiterKind::Open => Form::Open,
            DelimiterKind::Close => Form::Close,
        };
        self.render(form, token)
            .0
            .iter()
            .any(|p| matches!(p, Piece::Nonce(_)))
    }

    /// Whether openers carry attributes (a fence's never do).
    fn opener_has_attributes(&self) -> bool {
        true
    }

    /// What the frame opened by `opener` (live in `folded`) fixes about
    /// its own delimiters: by default its nonce value.
    fn frame_key(&self, folded: &Folded<'_>, opener: &LiveDelimiter) -> FrameKey {
        let value = |span: Option<(usize, usize)>| span.map(|span| folded.value(span));
        FrameKey {
            nonce: value(opener.nonce),
            fence: None,
            request_kind: value(opener.request_kind),
        }
    }

    /// Every delimiter-shaped span of `folded`, text that sits inside the
    /// frame `frame` (a body read back, the content), in text order, with
    /// how a reader inside that frame reads it. By default the delimiters
    /// [`Grammar::live`] finds, classified by [`FrameKey::classify`]; a
    /// fence scans from inside the frame's fence.
    fn live_in(&self, folded: &Folded<'_>, frame: &FrameKey) -> Vec<(LiveDelimiter, Liveness)> {
        self.live(folded)
            .into_iter()
            .map(|d| (d, frame.classify(&d, folded)))
            .collect()
    }

    /// The brackets a delimiter is written between (`<` and `>`, `[` and
    /// `]`): the first and last punctuation of the opener. `None` for a
    /// grammar whose delimiters are not bracketed (words, a fence's run).
    fn brackets(&self) -> Option<(char, char)> {
        self.render(Form::Open, 0).brackets()
    }

    /// The part of token `token`'s delimiters a reader compares, as an
    /// attacker writes it: what search edits to forge a delimiter. The
    /// token by default; a fence's shortest run, since a fence reader
    /// never compares the info string.
    fn anchor(&self, token: usize) -> String {
        self.render(Form::Token, token).plain()
    }

    /// `delimiter` (one spelling of this grammar's opener or closer) with
    /// a whole copy of itself inserted inside it, the text a framing that
    /// removes the delimiter with one pass of an exact-spelling replace
    /// turns back into the delimiter: `<|im_<|im_end|>end|>`,
    /// `</to</tool>ol>`. The split rule is the middle character (rounded
    /// down), so that both halves are non-empty and neither is a delimiter
    /// of its own; any split re-forms the delimiter after one pass, and one
    /// fixed rule keeps the case the same across targets. `None` for a
    /// delimiter of fewer than two characters, which cannot be split.
    fn rebuilt(&self, delimiter: &str) -> Option<String> {
        let chars = delimiter.chars().count();
        if chars < 2 {
            return None;
        }
        let (at, _) = delimiter.char_indices().nth(chars / 2)?;
        Some(format!(
            "{}{delimiter}{}",
            &delimiter[..at],
            &delimiter[at..]
        ))
    }

    /// The catalogue cases this grammar invites and others do not; none by
    /// default (the generic cases render its delimiters).
    fn attacks(&self) -> &'static [GrammarAttack] {
        &[]
    }

    /// The lines search plants at a line start of the content to open a
    /// forged frame, for a grammar whose frames a marker line opens (open-
    /// only sections): the framing's other markers, and its marker spelled
    /// with each of `names` (roles a consumer may give a section). Empty
    /// (the default) for a grammar whose frames a line does not open.
    fn forged_lines(&self, _names: &[&str]) -> ForgedLines {
        ForgedLines::default()
    }

    /// Whether every delimiter of the grammar is live only first on a line
    /// (after spaces or tabs): a section marker, a record marker. On a
    /// line a line-prefix body quotes (one that starts with the prefix)
    /// such a marker is quoted data, as a reader of the quote takes it, so
    /// the oracle does not count it (`oracle::checks::quote`). False for a
    /// grammar whose delimiters are live anywhere on a line (a tag).
    fn marks_line_starts(&self) -> bool {
        false
    }

    /// For a grammar whose frame is a whole document rather than markers
    /// around the content (`json-document`, `python-document`): the JSON
    /// pointer of the content's string and the document's syntax, which
    /// the runner judges the document by instead of by live markers.
    /// `None` for a marker grammar.
    fn document(&self) -> Option<json_document::DocumentFrame> {
        None
    }
}

/// The marker lines a forger plants ([`Grammar::forged_lines`]).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ForgedLines {
    /// The markers of the framing's other sections (its further tokens, in
    /// vocabulary order), then its closer: the next section's marker.
    pub others: Vec<String>,
    /// The framing's marker spelled with each name asked for, in order.
    pub named: Vec<String>,
}

impl ForgedLines {
    /// Whether the grammar has no line to forge.
    pub fn is_empty(&self) -> bool {
        self.others.is_empty() && self.named.is_empty()
    }
}

/// Why a grammar cannot be built from a declaration.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum GrammarError {
    /// A begin/end grammar without its templates.
    #[error("grammar begin-end needs both `open` and `close` templates")]
    MissingTemplates,
    /// `open`/`close` given for a grammar that does not use them.
    #[error("`open` and `close` templates apply only to grammar begin-end, not {0}")]
    UnusedTemplates(GrammarKind),
    /// A template that cannot be used.
    #[error("template {template:?}: {reason}")]
    BadTemplate {
        /// The template as written.
        template: String,
        /// What is wrong.
        reason: String,
    },
    /// A `{nonce}` without a `nonce:` declaration.
    #[error("{0:?} has a {{nonce}} part but `nonce:` is not declared")]
    UndeclaredNonce(String),
    /// Inner or reserved tokens in a grammar with a single token.
    #[error("grammar {0} has no inner or reserved tokens")]
    ExtraTokens(GrammarKind),
    /// A section grammar without its marker style.
    #[error("grammar section needs `marker`: field-marker, heading or label")]
    MissingMarker,
    /// A field marker (`[[ ## name ## ]]`) named by a phrase: its parser
    /// reads one word.
    #[error("a field marker's name is one word: {0:?} has spaces (a heading or label may)")]
    PhraseFieldMarker(String),
    /// `marker` given for a grammar that does not use it.
    #[error("`marker` applies only to grammar section, not {0}")]
    UnusedMarker(GrammarKind),
    /// A document grammar's token that is not a JSON pointer.
    #[error(
        "grammar {0} needs the JSON pointer of the content's string as its token \
         (RFC 6901: `/content`, `/items/0/text`; at most one `*` segment for an answer \
         of several items: `/entities/*/text`), with no nonce; got {1:?}"
    )]
    BadPointer(GrammarKind, String),
    /// An inline pair without both of its marks.
    #[error("grammar inline-pair needs both marks, `open` and `close`")]
    MissingMarks,
    /// An inline pair whose marks are one text: no reader could tell the
    /// content's end from its start.
    #[error("grammar inline-pair needs two distinct marks; `open` and `close` are both {0:?}")]
    SameMarks(String),
    /// A record list without its marker template, or with a closer: a
    /// record ends where the next one begins.
    #[error(
        "grammar record-list needs `open`, the marker a record's line starts with \
         (`[{{counter}}] `, `{{counter}}. {{token}}: `), and no `close`: a record ends where the next begins"
    )]
    RecordMarker,
    /// A string literal's marks are not an opener ending with its quote
    /// and that quote.
    #[error(
        "grammar string-literal needs `open`, text ending with the literal's quote \
         (`(content \"`, `content = \"\"\"`), and `close`, that quote"
    )]
    LiteralMarks,
    /// `escape` declared for a grammar that reads no string literal.
    #[error("`escape` applies only to grammar string-literal, not {0}")]
    UnusedEscape(GrammarKind),
}

/// Builds the grammar `kind` over `vocabulary`; `open` and `close` are the
/// begin/end templates. A section grammar needs its marker style:
/// [`build_declared`].
pub fn build(
    kind: GrammarKind,
    vocabulary: Vocabulary,
    open: Option<&str>,
    close: Option<&str>,
) -> Result<Box<dyn Grammar>, GrammarError> {
    build_declared(kind, vocabulary, open, close, None, None)
}

/// [`build`], with a section grammar's marker style `marker`: the checks
/// every shape shares, then the shape's own builder.
pub fn build_declared(
    kind: GrammarKind,
    vocabulary: Vocabulary,
    open: Option<&str>,
    close: Option<&str>,
    marker: Option<SectionMarker>,
    escape: Option<LiteralEscape>,
) -> Result<Box<dyn Grammar>, GrammarError> {
    let shape = kind.shape();
    let fields = shape.fields();
    if !fields.escape && escape.is_some() {
        return Err(GrammarError::UnusedEscape(kind));
    }
    if !fields.marker && marker.is_some() {
        return Err(GrammarError::UnusedMarker(kind));
    }
    if vocabulary.nonce.is_none() {
        if let Some(t) = vocabulary.tokens.iter().find(|t| t.has_nonce()) {
            return Err(GrammarError::UndeclaredNonce(t.render(token::NONCE)));
        }
    }
    if !fields.templates && (open.is_some() || close.is_some()) {
        return Err(GrammarError::UnusedTemplates(kind));
    }
    if !fields.inner_tokens && vocabulary.tokens.len() > 1 {
        return Err(GrammarError::ExtraTokens(kind));
    }
    shape.build(
        vocabulary,
        Extras {
            open,
            close,
            marker,
            escape,
        },
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::level::ReaderLevel;
    use crate::reader::Reader;

    #[test]
    fn a_rebuilt_delimiter_is_the_delimiter_again_after_one_strip_pass() {
        let vocabulary = Vocabulary {
            tokens: vec![TokenPattern::parse("tool")],
            nonce: None,
        };
        let g = build(GrammarKind::XmlTag, vocabulary, None, None).unwrap();
        for delimiter in ["</tool>", "<|im_end|>", "[END]", "é→", "ab"] {
            let rebuilt = g.rebuilt(delimiter).unwrap();
            assert_ne!(rebuilt, delimiter);
            assert_eq!(rebuilt.replacen(delimiter, "", 1), delimiter, "{rebuilt}");
            // Both halves are non-empty: the copy sits inside, not at an end.
            assert!(!rebuilt.starts_with(delimiter) && !rebuilt.ends_with(delimiter));
        }
        assert_eq!(g.rebuilt("</tool>").unwrap(), "</t</tool>ool>");
        assert_eq!(g.rebuilt("x"), None);
        assert_eq!(g.rebuilt(""), None);
    }

    #[test]
    fn a_frame_key_tells_its_closer_from_another_values_marker() {
        let vocabulary = Vocabulary {
            tokens: vec![TokenPattern::parse("u-{nonce}")],
            nonce: Some(NonceSpec {
                alphabet: NonceAlphabet::Hex,
                min_length: Some(4),
            }),
        };
        let g = build(GrammarKind::XmlTag, vocabulary, None, None).unwrap();
        let text = "<u-abcd>x</u-ABCD></u-0000><u-abcd>";
        for level in [ReaderLevel::Exact, ReaderLevel::AsciiCaseInsensitive] {
            let folded = Reader::new(level).fold(text);
            let live = g.live(&folded);
            let key = g.frame_key(&folded, &live[0]);
            let read: Vec<Liveness> = live.iter().map(|d| key.classify(d, &folded)).collect();
            // The closer's value in upper case is the frame's only for a
            // reader that folds case.
            let own = if level == ReaderLevel::Exact {
                Liveness::Confusable
            } else {
                Liveness::Closer
            };
            assert_eq!(
                read,
                vec![Liveness::Live, own, Liveness::Confusable, Liveness::Live],
                "{level:?}"
            );
        }
        // Without a nonce every closer of the outer token is the frame's.
        let d = g.live(&Reader::new(ReaderLevel::Exact).fold(text))[1];
        let folded = Reader::new(ReaderLevel::Exact).fold(text);
        assert_eq!(FrameKey::default().classify(&d, &folded), Liveness::Closer);
    }

    /// A `{kind}` name: the opener fixes the frame's kind; a closer of
    /// another kind is the framing's marker of another frame (live, never
    /// this frame's closer), in every grammar whose token is a name.
    #[test]
    fn a_frame_key_tells_its_kind_from_another_kinds_marker() {
        let cases = [
            (
                build(
                    GrammarKind::XmlTag,
                    Vocabulary::plain(&["{kind}_output"]),
                    None,
                    None,
                ),
                "<web-page_output>x</tool-result_output>y</WEB-PAGE_output>",
            ),
            (
                build(
                    GrammarKind::BracketMarker,
                    Vocabulary::plain(&["{kind:upper}"]),
                    None,
                    None,
                ),
                "[WEB-PAGE]x[/TOOL-RESULT]y[/web-page]",
            ),
            (
                build(
                    GrammarKind::BeginEnd,
                    Vocabulary::plain(&["{kind}"]),
                    Some("BEGIN {token}"),
                    Some("END {token}"),
                ),
                "BEGIN web-page\nx\nEND tool-result\ny\nEND WEB-PAGE",
            ),
        ];
        for (g, text) in cases {
            let g = g.unwrap();
            for level in [ReaderLevel::Exact, ReaderLevel::AsciiCaseInsensitive] {
                let folded = Reader::new(level).fold(text);
                let live = g.live(&folded);
                let key = g.frame_key(&folded, &live[0]);
                let read: Vec<Liveness> = live.iter().map(|d| key.classify(d, &folded)).collect();
                // The last closer names the frame's kind in upper case: the
                // same kind only for a reader that folds case.
                let last = match level {
                    ReaderLevel::Exact => Liveness::Live,
                    _ => Liveness::Closer,
                };
                assert_eq!(
                    read,
                    vec![Liveness::Live, Liveness::Live, last],
                    "{text} {level:?}"
                );
            }
        }
    }
}
