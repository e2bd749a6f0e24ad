//! Check `reader.verdict`: what a reader returns for a text, and whether
//! the body it returns carries a live delimiter.
//!
//! Both are judged relative to the frame the text opens, by the grammar's
//! liveness rule ([`Grammar::live_in`], [`crate::grammar::FrameKey`]), the
//! one the census uses: a body holding a marker with another nonce than
//! the frame's, or a fence run shorter than the frame's, carries nothing a
//! reader of that frame closes on.

use super::census::{expected_delimiters, key_of, others};
use super::findings::Findings;
use crate::catalogue::{ConcreteCase, Expectation};
use crate::grammar::{DelimiterKind, Grammar, LiveDelimiter, Liveness};
use crate::level::ReaderLevel;
use crate::oracle::live::LiveEvidence;
use crate::oracle::regions::OUTER;
use crate::oracle::view::readers_for;
use crate::oracle::{Check, Excerpt, ExcerptSource, Finding};
use crate::profile::{Consumer, ReaderReturns, ResolvedProfile};
use crate::reader::Folded;

/// Judges a reader's answer to `text`: `body` is what it returned
/// (`None`: it rejected the text). What must happen depends on
/// `case.expect`; whatever it is, a body carrying a live delimiter fails at
/// the levels where the delimiter is live.
pub fn judge_read(
    case: &ConcreteCase,
    profile: &ResolvedProfile,
    text: &str,
    body: Option<&str>,
) -> Vec<Finding> {
    let mut findings = Findings::default();
    let grammar = profile.grammar();
    // A reader that answers with segments is judged by what it returns for
    // the writer's frames (`reader.structure`), not by whether it refuses a
    // text that is no frame: a parser's fallback to "the whole text is one
    // message" answers every text.
    let segments = profile.reader.returns == ReaderReturns::Segments;
    match (case.expect, body) {
        (Expectation::Reject, Some(_)) if segments => {}
        (Expectation::Reject, Some(_)) => {
            // A parser reads bytes exactly: a text that is more than one
            // frame only for a folding reader is one frame to it.
            let parser = profile.reader.consumer == Consumer::Parser;
            for reader in readers_for(profile).filter(|r| {
                r.level() >= case.min_level && !(parser && case.min_level > ReaderLevel::Exact)
            }) {
                let level = reader.level();
                let folded = reader.fold(text);
                if only_confusables(profile, &*grammar, &folded) {
                    continue;
                }
                // Point at the second frame, the usual reason for rejecting.
                let opens: Vec<LiveDelimiter> = grammar
                    .live(&folded)
                    .into_iter()
                    .filter(|d| d.token == OUTER && d.kind == DelimiterKind::Open)
                    .collect();
                let message =
                    "the reader returned a body for a text that is not exactly one frame".into();
                let at = opens.get(1).map_or(0..0, |d| d.start..d.end);
                let excerpt = Excerpt::cut(ExcerptSource::ReadInput, text, at.start, at.end);
                // The second opener is the evidence only when a reader
                // inside the first frame reads it live.
                let key = key_of(&*grammar, &folded, opens.first().copied());
                let live = opens
                    .get(1)
                    .map(|d| (d, key.classify(d, &folded)))
                    .filter(|(_, liveness)| liveness.is_live());
                let Some((second, liveness)) = live else {
                    findings.security(Check::ReaderVerdict, level, message, Some(excerpt));
                    continue;
                };
                let inner = profile.delimiters.inner.is_some();
                let live =
                    LiveEvidence::of(second, liveness, ExcerptSource::ReadInput, level, inner);
                findings.security_live(Check::ReaderVerdict, message, Some(excerpt), live);
            }
        }
        (Expectation::Accept, None) => findings.fidelity(
            Check::ReaderVerdict,
            "the reader rejected a valid frame".into(),
            None,
        ),
        _ => {}
    }
    // A reader that returns the decoded content returns whatever the
    // content was, delimiter text included: the frame kept it dead, and
    // the content is the caller's, not the model's, to handle.
    if let Some(body) = body.filter(|_| profile.reader.returns == ReaderReturns::Body) {
        check_body_delimiters(&mut findings, profile, &*grammar, text, body);
    }
    findings.0
}

/// Whether every delimiter of `folded` besides the frame's own is a
/// confusable of the frame (and there is one): the text is exactly one
/// frame for a reader that compares nonces, and more than one only for a
/// reader that does not, which the nonce checks judge.
fn only_confusables(profile: &ResolvedProfile, grammar: &dyn Grammar, folded: &Folded<'_>) -> bool {
    let delimiters = grammar.live(folded);
    let expected = expected_delimiters(profile, grammar, &delimiters, folded);
    let others = others(grammar, &expected, &delimiters, folded);
    expected.outer_close.is_some()
        && !others.is_empty()
        && others.iter().all(|(_, l)| *l == Liveness::Confusable)
}

/// `reader.verdict` on a body the reader returned from `frame` (the text
/// it read): a delimiter in it that is live for a reader inside that frame
/// fails, at each level where it is.
pub(super) fn check_body_delimiters(
    findings: &mut Findings,
    profile: &ResolvedProfile,
    grammar: &dyn Grammar,
    frame: &str,
    body: &str,
) {
    // Whether the vocabulary has an inner token (for the role of what was
    // live).
    let inner = profile.delimiters.inner.is_some();
    for reader in readers_for(profile) {
        let level = reader.level();
        let framed = reader.fold(frame);
        let opener = grammar
            .live(&framed)
            .into_iter()
            .find(|d| d.token == OUTER && d.kind == DelimiterKind::Open);
        let key = key_of(grammar, &framed, opener);
        let live = grammar
            .live_in(&reader.fold(body), &key)
            .into_iter()
            .find(|(_, liveness)| liveness.is_live());
        if let Some((first, liveness)) = live {
            findings.security_live(
                Check::ReaderVerdict,
                "the reader returned a body carrying a live delimiter".into(),
                Some(Excerpt::cut(
                    ExcerptSource::ReadBody,
                    body,
                    first.start,
                    first.end,
                )),
                LiveEvidence::of(&first, liveness, ExcerptSource::ReadBody, level, inner),
            );
        }
    }
}
