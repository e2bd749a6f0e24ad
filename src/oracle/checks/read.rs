//! Check `reader.verdict`: what a reader returns for a text, and whether
//! the body it returns carries a live delimiter.

use super::findings::Findings;
use crate::catalogue::{ConcreteCase, Expectation};
use crate::level::ReaderLevel;
use crate::oracle::scan::{self, DelimiterKind, LiveDelimiter};
use crate::oracle::{Check, Excerpt, ExcerptSource, Finding};
use crate::profile::{Consumer, ReaderReturns, TargetProfile};

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
    match (case.expect, body) {
        (Expectation::Reject, Some(_)) => {
            let outer = &profile.delimiters.token;
            // A parser reads bytes exactly: a text that is more than one
            // frame only for a folding reader is one frame to it.
            let parser = profile.reader.consumer == Consumer::Parser;
            for level in ReaderLevel::ALL.into_iter().filter(|&l| {
                l >= case.min_level && !(parser && case.min_level > ReaderLevel::Exact)
            }) {
                // Point at the second frame, the usual reason for rejecting.
                let opens: Vec<LiveDelimiter> =
                    scan::live_delimiters(text, profile.delimiters.syntax, &[outer], level)
                        .into_iter()
                        .filter(|d| d.kind == DelimiterKind::Open)
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
        check_body_delimiters(&mut findings, profile, body);
    }
    findings.0
}

pub(super) fn check_body_delimiters(findings: &mut Findings, profile: &TargetProfile, body: &str) {
    let tokens = profile.delimiters.all_tokens();
    for level in ReaderLevel::ALL {
        let live = scan::live_delimiters(body, profile.delimiters.syntax, &tokens, level);
        if let Some(first) = live.first() {
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
