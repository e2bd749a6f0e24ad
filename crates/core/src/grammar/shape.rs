//! A shape: everything one grammar kind knows before it has a vocabulary.
//!
//! A [`Grammar`] answers for one framing's tokens (liveness, spelling,
//! openers). What comes before that — which declaration fields the kind
//! reads, how it is built from them, how `init` finds it in a framing's
//! output, what its delimiters look like to the layout learner — is a
//! [`Shape`], one impl in each grammar's own module. The rest of the
//! workspace asks the shape ([`GrammarKind::shape`]) instead of matching on
//! grammar kinds, so a new shape is one module, one [`GrammarKind`] variant,
//! its entry in [`GrammarKind::ALL`] and its arm in `GrammarKind::entry`
//! (the compiler checks all three). The methods without a default are what
//! the compiler asks the new module for; the ones with a default answer as
//! most shapes do (a closer, no element brackets, no run sized to the
//! content), and [`Fields::default`] reads no field but the tokens, so a
//! shape states only what it differs in.

use super::{
    Delimiters, Grammar, GrammarError, GrammarKind, LiteralEscape, SectionMarker, Vocabulary,
};

/// The placeholder `init` masks a per-call value with before any shape
/// reads the text around the content: a private-use character no framing
/// writes and every name reader of a shape accepts as part of a name.
pub const MASK: char = '\u{E000}';

/// The text around the content in a calibration wrap, per-call values
/// masked with [`MASK`]: what a shape's inference experiment reads.
#[derive(Debug, Clone, Copy)]
pub struct Around<'a> {
    /// Everything before the content.
    pub head: &'a str,
    /// Everything after the content, starting with its last word's tail.
    pub tail: &'a str,
    /// The marks the calibration request writes into its fields (kind,
    /// attributes, provenance): text around the content that carries one
    /// is the framing's header, not a delimiter.
    pub field_marks: &'a [&'a str],
    /// Every line of the content came back after the same prefix (a
    /// line-prefix quote): the quote sets the content apart, so a line
    /// before it that would only introduce raw content (`Here is the
    /// email:`) names the quoted block.
    pub quoted: bool,
    /// The whole output, per-call values masked as in `head` and `tail`,
    /// with the content as the framing wrote it: a shape that reads the
    /// output as one document reads the content back from it.
    pub output: &'a str,
    /// The content the calibration request sent (empty when not known):
    /// what a document must read back intact.
    pub content: &'a str,
}

/// One inference experiment of a shape: a reading of the text around the
/// content as this shape's delimiters.
#[derive(Debug, Clone, Copy)]
pub struct Guess {
    /// Where the experiment stands among every shape's: lower is tried
    /// first, so a reading that needs more evidence (an element closed
    /// after the content) goes before a looser one (a line before it).
    pub rank: u8,
    /// The experiment: the declaration it reads, or `None`.
    pub read: fn(&Around<'_>) -> Option<Delimiters>,
}

/// Which fields of a declaration a shape reads besides its tokens and
/// nonce; declaring one it does not read is an error. The default reads
/// none of them: a shape names the fields it reads
/// (`Fields { templates: true, ..Fields::default() }`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Fields {
    /// More tokens than the outer one (`inner`, `reserved`).
    pub inner_tokens: bool,
    /// The `open` and `close` templates.
    pub templates: bool,
    /// The section marker style (`marker`).
    pub marker: bool,
    /// An empty outer token (a fence without an info string).
    pub empty_token: bool,
    /// Tokens that are phrases: words joined by single spaces
    /// (`Execution logs`), for a shape whose names a reader reads as
    /// prose labels rather than identifiers.
    pub phrase_tokens: bool,
    /// A token that is a JSON pointer (`/items/0/text`), not a word: the
    /// word rule for tokens does not apply, the shape's builder checks it.
    pub pointer_token: bool,
    /// Names that may hold a `{counter}` (`Document {counter}`), for a
    /// shape whose markers number the items they open.
    pub counter_tokens: bool,
    /// The literal's escape (`escape`), for a shape whose closer is a
    /// string literal's quote.
    pub escape: bool,
}

/// The declaration fields a shape's builder reads beyond the vocabulary.
#[derive(Debug, Clone, Copy, Default)]
pub struct Extras<'a> {
    /// The opening template, when declared.
    pub open: Option<&'a str>,
    /// The closing template, when declared.
    pub close: Option<&'a str>,
    /// The section marker style, when declared.
    pub marker: Option<SectionMarker>,
    /// The string literal's escape, when declared.
    pub escape: Option<LiteralEscape>,
}

/// What one grammar kind knows before it has a vocabulary. See the module
/// documentation.
pub trait Shape: Sync {
    /// Which declaration fields it reads.
    fn fields(&self) -> Fields;

    /// Builds the grammar over `vocabulary`; `extras` holds only the fields
    /// [`Shape::fields`] says it reads.
    fn build(
        &self,
        vocabulary: Vocabulary,
        extras: Extras<'_>,
    ) -> Result<Box<dyn Grammar>, GrammarError>;

    /// Whether the grammar writes no closer: a frame ends where the next
    /// marker begins, or at the end of the text. By default it writes one.
    fn is_open_only(&self) -> bool {
        false
    }

    /// `init`'s experiments for this shape ([`Guess`]).
    fn guesses(&self) -> &'static [Guess];

    /// What a guess of this shape rests on, in words, for the proposal.
    fn evidence(&self) -> &'static str;

    /// The brackets an element of the grammar is written between, for a
    /// grammar whose delimiters are elements a framing may write siblings
    /// of (`<`…`>`); `None` (the default) for marker lines, fences and
    /// sections.
    fn element_brackets(&self) -> Option<(char, char)> {
        None
    }

    /// A declaration of this shape over a sample token: what the catalogue's
    /// id lock instantiates so the cases only this shape invites are
    /// locked whether or not a committed target uses it.
    fn example(&self) -> Delimiters;

    /// The run in a delimiter's fixed text that the framing may size to
    /// the content (a fence lengthened past the content's longest backtick
    /// run, a long bracket's level raised past its closers): the layout
    /// learner holds it as a variable part. `None` (the default) when the
    /// grammar's delimiters have none.
    fn content_sized_run(&self, _delimiter_text: &str) -> Option<SizedRun> {
        None
    }

    /// Other readings of `delimiters` than the writer's that a reader may
    /// hold (a standard SQL reader of a literal its writer escapes
    /// MySQL-style), each with the body a writer for that reading writes
    /// for `content` (the writer's body as its own encoding reads it back:
    /// the caller decodes, since encodings sit above grammars).
    /// `init` declares the first one the framing's own reader reads back,
    /// when that reader rejects its writer's frame: the frame is what its
    /// reader reads. None by default: the marks read the same either way.
    fn reader_readings(
        &self,
        _delimiters: &Delimiters,
        _content: &str,
    ) -> Vec<(Delimiters, String)> {
        Vec::new()
    }
}

/// A run of a delimiter's text that the framing sizes to the content
/// ([`Shape::content_sized_run`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SizedRun {
    /// Its byte range in the delimiter's text (empty where the framing
    /// wrote the shortest run, a level-zero long bracket's).
    pub at: std::ops::Range<usize>,
    /// The shortest run the grammar reads.
    pub min: usize,
    /// What the run is made of.
    pub chars: RunChars,
}

/// The characters of a [`SizedRun`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RunChars {
    /// Backticks or tildes: a fence.
    Fence,
    /// Equals signs: a long bracket's level.
    Level,
}

/// Every shape's guesses, in the order `init` tries them.
pub fn guesses() -> Vec<Guess> {
    let mut all: Vec<Guess> = GrammarKind::ALL
        .iter()
        .flat_map(|k| k.shape().guesses().iter().copied())
        .collect();
    all.sort_by_key(|g| g.rank);
    all
}
