//! Check `reader.verdict`: what a reader returns for a text, and whether
//! the body it returns carries a live delimiter.

use super::findings::Findings;
use crate::catalogue::{ConcreteCase, Expectation};
use crate::grammar::{DelimiterKind, Grammar, LiveDelimiter};
use crate::level::ReaderLevel;
use crate::oracle::regions::OUTER;
use crate::oracle::{Check, Excerpt, ExcerptSource, Finding};
use crate::profile::{Consumer, ReaderReturns, TargetProfile};
use crate::reader::Reader;

/// Judges a reader's answer to `text`: `body` is what it returned
/// (`None`: it rejected the text). What must happen depends on
/// `case.expect`; whatever it is, a body carrying a live delimiter fails at
/// the levels where the delimiter is live.
pub fn judge_read(
    case: &ConcreteCase,
    profile: &TargetProfile,
    text: &str,
    body: Option<&str>,
) -> Vec<Finding> {
    let mut findings = Findings::default();
    let grammar = profile.delimiters.grammar();
    match (case.expect, body) {
        (Expectation::Reject, Some(_)) => {
            // A parser reads bytes exactly: a text that is more than one
            // frame only for a folding reader is one frame to it.
            let parser = profile.reader.consumer == Consumer::Parser;
            for reader in Reader::all().filter(|r| {
                r.level() >= case.min_level && !(parser && case.min_level > ReaderLevel::Exact)
            }) {
                let level = reader.level();
                // Point at the second frame, the usual reason for rejecting.
                let opens: Vec<LiveDelimiter> = grammar
                    .live(&reader.fold(text))
                    .into_iter()
                    .filter(|d| d.token == OUTER && d.kind == DelimiterKind::Open)
                    .collect();
                let at = opens.get(1).map_or(0..0, |d| d.start..d.end);
                findings.security(
                    Check::ReaderVerdict,
                    level,
                    "the reader returned a body for a text that is not exactly one frame".into(),
                    Some(Excerpt::cut(
                        ExcerptSource::ReadInput,
                        text,
                        at.start,
                        at.end,
                    )),
                );
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
        check_body_delimiters(&mut findings, &*grammar, body);
    }
    findings.0
}

pub(super) fn check_body_delimiters(findings: &mut Findings, grammar: &dyn Grammar, body: &str) {
    for reader in Reader::all() {
        let level = reader.level();
        if let Some(first) = grammar.live(&reader.fold(body)).first() {
            findings.security(
                Check::ReaderVerdict,
                level,
                "the reader returned a body carrying a live delimiter".into(),
                Some(Excerpt::cut(
                    ExcerptSource::ReadBody,
                    body,
                    first.start,
                    first.end,
                )),
            );
        }
    }
}
