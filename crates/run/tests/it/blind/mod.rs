//! Catalogue-blind framings: in-process framings that are the reference
//! envelope except for one defect in how they neutralise the token in
//! content, each a defect the catalogue cannot reach by construction (the
//! catalogue spells every delimiter of a case with one variant, puts each
//! delimiter whole in one field, and has no Unicode-spelled delimiter past
//! its zero-width large-content case or on an indented line).
//!
//! They measure what `framecheck search` can find; search is never tuned to
//! them. `crates/run/tests/it/search_power.rs` first checks that the whole catalogue
//! passes each of them at the `unicode` level (otherwise they would not be
//! blind), then that search finds each defect and replays it.
//!
//! `markers` puts the stacked-tricks defect behind BEGIN/END markers with
//! a constant preamble sentence, another grammar with text outside the
//! frame; `brackets` behind `[TOKEN]` bracket markers; `fence` is its
//! counterpart for a Markdown fence, whose delimiter is a backtick run, not
//! a token: the fence's length is measured one trick at a time; `section`
//! puts it behind open-only Markdown heading sections, where a marker is a
//! whole line, so the tricks are counted from its line's start.
//!
//! The defanger finds every span that reads as the token at the `unicode`
//! level (framecheck's own reader), classifies the tricks that hide it
//! (invisible characters, NFKC compatibility forms, other lookalikes), and
//! replaces it with `framecheck_untrusted` unless the defect skips it.

pub(crate) mod brackets;
pub(crate) mod fence;
pub(crate) mod markers;
pub(crate) mod section;

use std::collections::BTreeSet;

use framecheck_core::level::{self, ReaderLevel};
use framecheck_core::reader::Reader;
use framecheck_run::adapter::reference::Reference;
use framecheck_run::adapter::{Framing, TargetError, WrapRequest};
use unicode_normalization::UnicodeNormalization;

const TOKEN: &str = "framecheck-untrusted";
const DEFANGED: &str = "framecheck_untrusted";
/// Stands for the content while the reference writes the rest of the frame.
const SLOT: &str = "BLINDCONTENTSLOT";

/// One trick class hiding the token from a byte matcher.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum Trick {
    /// A character a Unicode reader drops (zero-width, bidi, tag, soft hyphen).
    Invisible,
    /// A compatibility form NFKC maps to ASCII (fullwidth, math, ligature).
    Compat,
    /// Any other non-ASCII lookalike (Cyrillic, Greek, dash lookalikes).
    Lookalike,
}

/// The one defect a blind framing carries.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Defect {
    /// None: a correct framing written apart from the reference's defanger.
    None,
    /// One normalisation at a time: a token hidden by two trick classes at
    /// once (fullwidth letters and a zero-width splice) is left live.
    Stacked,
    /// Past this many bytes of content only a fast path runs, which strips
    /// invisible characters and folds ASCII case but not NFKC forms or
    /// lookalikes.
    PastBytes(usize),
    /// A line indented by spaces or tabs is treated as a code block: on it,
    /// the same fast path as past N bytes (invisibles dropped, ASCII case
    /// folded, nothing more).
    IndentedLine,
    /// The normalisation is chosen from the first token found: later
    /// tokens hidden by a trick class the first one did not use are left.
    SecondOccurrence,
    /// The Unicode check has one budget per request, shared by the fields:
    /// when the header fields (kind, provenance, attribute values) use more
    /// than this many bytes, the content gets only the fast path. Neither
    /// field alone breaks the frame; a long header and a lookalike
    /// delimiter in the content together do.
    SharedBudget(usize),
}

impl Defect {
    /// A short stable name, for test messages and the benchmark table.
    pub(crate) fn name(self) -> &'static str {
        match self {
            Defect::None => "correct",
            Defect::Stacked => "stacked-tricks",
            Defect::PastBytes(_) => "past-n-bytes",
            Defect::IndentedLine => "indented-line",
            Defect::SecondOccurrence => "second-occurrence",
            Defect::SharedBudget(_) => "two-fields",
        }
    }
}

/// Every blind defect, with the byte limits the past-N and two-field ones
/// use.
pub(crate) const DEFECTS: [Defect; 5] = [
    Defect::Stacked,
    Defect::PastBytes(8192),
    Defect::IndentedLine,
    Defect::SecondOccurrence,
    Defect::SharedBudget(512),
];

/// A framing with one [`Defect`].
#[derive(Debug, Clone, Copy)]
pub(crate) struct Blind(pub Defect);

impl Framing for Blind {
    fn wrap(&mut self, request: &WrapRequest) -> Result<String, TargetError> {
        let header = request.kind.len()
            + request.provenance.len()
            + request.attributes.values().map(String::len).sum::<usize>();
        let defect = match self.0 {
            Defect::SharedBudget(limit) if header > limit => Defect::PastBytes(0),
            Defect::SharedBudget(_) => Defect::None,
            other => other,
        };
        let content = defang(&request.content, defect);
        let slot = WrapRequest {
            content: SLOT.into(),
            ..request.clone()
        };
        let framed = Reference.wrap(&slot)?;
        // The content is the last thing before the closer.
        let at = framed
            .rfind(SLOT)
            .expect("the reference writes the content");
        Ok(format!(
            "{}{content}{}",
            &framed[..at],
            &framed[at + SLOT.len()..]
        ))
    }

    fn read(&mut self, text: &str) -> Result<Option<String>, TargetError> {
        Reference.read(text)
    }
}

/// The trick classes of the characters in `span`.
pub(crate) fn tricks(span: &str) -> BTreeSet<Trick> {
    span.chars()
        .filter(|c| !c.is_ascii())
        .map(|c| {
            if level::fold_char(c, ReaderLevel::Unicode).is_empty() {
                Trick::Invisible
            } else if c.to_string().nfkc().ne(std::iter::once(c)) {
                Trick::Compat
            } else {
                Trick::Lookalike
            }
        })
        .collect()
}

/// Whether the token at `start` sits on a line indented by spaces or tabs:
/// before it, optional delimiter spacing and `/`, a bracket, then at least
/// one space or tab back to the line start.
fn on_indented_line(text: &str, start: usize) -> bool {
    let line_start = text[..start].rfind('\n').map_or(0, |i| i + 1);
    let before = &text[line_start..start];
    let Some(bracket) = before.rfind(|c: char| level::fold_char(c, ReaderLevel::Unicode) == "<")
    else {
        return false;
    };
    let indent = &before[..bracket];
    !indent.is_empty() && indent.chars().all(|c| c == ' ' || c == '\t')
}

/// Neutralises the token in `content` as a framing with `defect` does.
pub(crate) fn defang(content: &str, defect: Defect) -> String {
    defang_token(content, defect, TOKEN, DEFANGED)
}

/// Replaces every reading of `token` in `content` with `defanged`, except
/// those `defect` skips.
pub(crate) fn defang_token(content: &str, defect: Defect, token: &str, defanged: &str) -> String {
    let folded = Reader::new(ReaderLevel::Unicode).fold(content);
    let needle: Vec<char> = level::fold_str(token, ReaderLevel::Unicode)
        .chars()
        .collect();
    let mut out = String::with_capacity(content.len());
    let mut copied = 0;
    let mut first: Option<BTreeSet<Trick>> = None;
    let mut i = 0;
    while i + needle.len() <= folded.len() {
        if !folded.matches_at(i, &needle) {
            i += 1;
            continue;
        }
        let span = folded.source_span(i, i + needle.len());
        i += needle.len();
        if span.start < copied {
            continue; // inside a character already replaced
        }
        let found = tricks(&content[span.clone()]);
        let skip = match defect {
            Defect::None | Defect::SharedBudget(_) => false,
            Defect::Stacked => found.len() >= 2,
            Defect::PastBytes(limit) => {
                span.start >= limit && found.iter().any(|t| *t != Trick::Invisible)
            }
            Defect::IndentedLine => {
                found.iter().any(|t| *t != Trick::Invisible)
                    && on_indented_line(content, span.start)
            }
            Defect::SecondOccurrence => match &first {
                None => {
                    first = Some(found.clone());
                    false
                }
                Some(first) => !found.is_subset(first),
            },
        };
        if skip {
            continue;
        }
        out.push_str(&content[copied..span.start]);
        out.push_str(defanged);
        copied = span.end;
    }
    out.push_str(&content[copied..]);
    out
}
