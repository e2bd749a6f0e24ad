//! The tokenizer-view checks: what one [`TokenizerView`] says about a framed
//! output. They run only for views selected on the command line, after the
//! cases, and their findings are kept apart from the cases' (see
//! [`crate::tokview`]): a view is not a reader level.
//!
//! **Delimiters.** A delimiter is live in a view when the framed text's ids
//! contain the ids the tokenizer produced for the frame's *own* delimiter
//! in this very frame (its context: `\n</tag` is not ` </tag`), anywhere
//! outside the frame's own delimiters, and the reproduced delimiter is not
//! continued by a name character (the grammar's name rule, asked of the
//! exact reader). The own delimiters are those the census expects at the
//! exact level. The tokens covering a delimiter may cover more than its
//! bytes ([`Boundaries::Wider`]); the finding says so.
//!
//! **Control tokens.** A span outside the framing's constant text that the
//! tokenizer turns into a control token with special tokens parsed is an
//! outer-layer finding, named with the control string's template family
//! when [`CONTROL_STRINGS`] lists it.

use std::ops::Range;

use super::census::expected_delimiters;
use super::findings::{framed_excerpt, token_name};
use crate::chat_template::CONTROL_STRINGS;
use crate::grammar::LiveDelimiter;
use crate::layout::Layout;
use crate::level::ReaderLevel;
use crate::oracle::regions::Regions;
use crate::oracle::{Check, CheckClass, Excerpt};
use crate::profile::ResolvedProfile;
use crate::reader::Reader;
use serde::{Deserialize, Serialize};

use crate::tokview::{TokenizerView, Tokens};

/// How a frame's own delimiter lies on token boundaries in a view.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Boundaries {
    /// The tokens covering the delimiter cover exactly its bytes.
    Aligned,
    /// The first or last token also covers bytes around the delimiter (a
    /// line break or space merged into `</`, a `>` merged into the name):
    /// only an input that reproduces those neighbours reproduces the ids.
    Wider,
}

/// One thing a view found in one case.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ViewFinding {
    /// The case id.
    pub case: String,
    /// `delimiter.census` (the input reproduces a delimiter's token ids) or
    /// `template.control` (the input becomes a control token).
    pub check: Check,
    /// `security` or `outer-layer`, as the same finding at a reader level.
    pub class: CheckClass,
    /// What the view found, in one sentence.
    pub message: String,
    /// The token ids found.
    pub ids: Vec<u32>,
    /// For a delimiter: how its own occurrence lies on token boundaries.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub boundaries: Option<Boundaries>,
    /// Where, in the framed output.
    pub excerpt: Option<Excerpt>,
}

/// Everything `view` finds in `framed` (case ids left empty for the caller).
pub fn judge_tokenizer_view(
    view: &TokenizerView,
    profile: &ResolvedProfile,
    layout: Option<&Layout>,
    framed: &str,
) -> Vec<ViewFinding> {
    let own_text = match layout.map(|l| (l, l.matches(framed))) {
        Some((l, m)) if m.mismatch.is_none() => m.own_text(l, framed.len()),
        _ => Vec::new(),
    };
    let mut findings = delimiter_findings(view, profile, framed, &own_text);
    findings.extend(control_findings(view, framed, &own_text));
    findings
}

/// The frame's own delimiters as the exact reader finds them.
fn own_delimiters(
    profile: &ResolvedProfile,
    framed: &str,
    own_text: &[Range<usize>],
) -> Vec<LiveDelimiter> {
    let folded = Reader::new(ReaderLevel::Exact).fold(framed);
    let grammar = profile.grammar();
    let regions = Regions::at(&folded, &*grammar, profile, own_text);
    let expected = expected_delimiters(profile, &*grammar, &regions.delimiters, &folded);
    [
        expected.outer_open,
        expected.outer_close,
        expected.inner_open,
        expected.inner_close,
    ]
    .into_iter()
    .flatten()
    .collect()
}

/// The token indices covering `bytes`, and how they lie on its edges.
fn covering(tokens: &Tokens, bytes: &Range<usize>) -> Option<(Range<usize>, Boundaries)> {
    let first = tokens.spans.iter().position(|s| s.end > bytes.start)?;
    let last = tokens.spans.iter().rposition(|s| s.start < bytes.end)?;
    let aligned = tokens.spans[first].start == bytes.start && tokens.spans[last].end == bytes.end;
    let boundaries = if aligned {
        Boundaries::Aligned
    } else {
        Boundaries::Wider
    };
    Some((first..last + 1, boundaries))
}

fn delimiter_findings(
    view: &TokenizerView,
    profile: &ResolvedProfile,
    framed: &str,
    own_text: &[Range<usize>],
) -> Vec<ViewFinding> {
    let tokens = view.tokens(framed);
    let own = own_delimiters(profile, framed, own_text);
    let references: Vec<(&LiveDelimiter, Range<usize>, Boundaries)> = own
        .iter()
        .filter_map(|d| covering(&tokens, &(d.start..d.end)).map(|(r, b)| (d, r, b)))
        .collect();
    let mut findings = Vec::new();
    for (delimiter, reference, boundaries) in &references {
        let ids = &tokens.ids[reference.clone()];
        let lead = delimiter.start - tokens.spans[reference.start].start;
        let len = delimiter.end - delimiter.start;
        let hits: Vec<Range<usize>> = occurrences(&tokens.ids, ids)
            .filter(|at| {
                let at = *at..*at + ids.len();
                !references
                    .iter()
                    .any(|(_, r, _)| r.start < at.end && at.start < r.end)
            })
            .map(|at| tokens.spans[at].start + lead)
            .map(|start| start..start + len)
            .filter(|span| !continues_a_name(framed, span.end))
            // A preamble naming the delimiter is the framing's own text.
            .filter(|span| {
                !own_text
                    .iter()
                    .any(|o| o.start <= span.start && span.end <= o.end)
            })
            .collect();
        let Some(first) = hits.first() else { continue };
        findings.push(ViewFinding {
            case: String::new(),
            check: Check::DelimiterCensus,
            class: CheckClass::Security,
            message: format!(
                "the input reproduces the token ids of the frame's own {} `{}` delimiter {} time{} ({} id{}{})",
                delimiter.kind.adjective(),
                token_name(profile, delimiter.token),
                hits.len(),
                if hits.len() == 1 { "" } else { "s" },
                ids.len(),
                if ids.len() == 1 { "" } else { "s" },
                match boundaries {
                    Boundaries::Aligned => "",
                    Boundaries::Wider => ", the first or last also covering bytes beside the delimiter",
                },
            ),
            ids: ids.to_vec(),
            boundaries: Some(*boundaries),
            excerpt: framed_excerpt(framed, first.clone()),
        });
    }
    findings
}

/// Token indices where `needle` occurs in `ids`, leftmost first.
fn occurrences<'a>(ids: &'a [u32], needle: &'a [u32]) -> impl Iterator<Item = usize> + 'a {
    ids.windows(needle.len().max(1))
        .enumerate()
        .filter(move |(_, w)| !needle.is_empty() && *w == needle)
        .map(|(at, _)| at)
}

/// Whether the character at byte `at` continues a name for the exact
/// reader (`</tag-x` is not `</tag`).
fn continues_a_name(framed: &str, at: usize) -> bool {
    let reader = Reader::new(ReaderLevel::Exact);
    framed
        .get(at..)
        .and_then(|rest| rest.chars().next())
        .is_some_and(|c| reader.is_name_char(c))
}

fn control_findings(
    view: &TokenizerView,
    framed: &str,
    own_text: &[Range<usize>],
) -> Vec<ViewFinding> {
    let mut findings: Vec<ViewFinding> = Vec::new();
    for special in view.special_tokens(framed) {
        let span = special.span;
        if own_text
            .iter()
            .any(|o| o.start <= span.start && span.end <= o.end)
        {
            continue;
        }
        // One finding per control token: its first occurrence.
        if findings.iter().any(|f| f.ids == [special.id]) {
            continue;
        }
        let text = &framed[span.clone()];
        let family = CONTROL_STRINGS
            .iter()
            .find(|c| c.text == text)
            .map_or(String::new(), |c| {
                format!(" (a control string of the {} family)", c.family.name())
            });
        findings.push(ViewFinding {
            case: String::new(),
            check: Check::TemplateControl,
            class: CheckClass::OuterLayer,
            message: format!(
                "`{text}`{family} from the input becomes control token {} when special tokens are parsed",
                special.id
            ),
            ids: vec![special.id],
            boundaries: None,
            excerpt: framed_excerpt(framed, span),
        });
    }
    findings
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tokens(spans: &[(usize, usize)]) -> Tokens {
        Tokens {
            ids: (0..spans.len() as u32).collect(),
            spans: spans.iter().map(|&(a, b)| a..b).collect(),
        }
    }

    #[test]
    fn covering_tokens_say_whether_they_match_the_bytes() {
        // "\n</" as one token, then "tag", ">": the closer `</tag` starts
        // inside the first token.
        let t = tokens(&[(0, 3), (3, 6), (6, 7)]);
        assert_eq!(covering(&t, &(1..6)), Some((0..2, Boundaries::Wider)));
        assert_eq!(covering(&t, &(0..6)), Some((0..2, Boundaries::Aligned)));
        assert_eq!(covering(&t, &(3..7)), Some((1..3, Boundaries::Aligned)));
    }

    #[test]
    fn occurrences_are_every_window_and_names_continue() {
        let found: Vec<usize> = occurrences(&[1, 2, 1, 2, 1], &[1, 2]).collect();
        assert_eq!(found, [0, 2]);
        assert_eq!(occurrences(&[1], &[]).count(), 0);
        assert!(continues_a_name("</tag-x>", 5));
        assert!(!continues_a_name("</tag>", 5));
        assert!(!continues_a_name("</tag", 5));
    }
}
