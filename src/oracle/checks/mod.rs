//! The checks themselves: what the oracle concludes from a framed text or a
//! reader's answer, as [`Finding`]s.
//!
//! Security checks run once per reader level and are merged, so the same
//! problem seen at two levels is one finding listing both. Fidelity checks
//! run once, at the exact level, and only for cases that expect the content
//! back unchanged. One file per check family, so each can change alone.

mod calibration;
mod census;
mod fidelity;
mod findings;
mod header;
pub mod nonce;
mod read;
mod shape;

pub use calibration::{calibrate, calibration_request, Calibration};
pub use read::judge_read;

use super::view::Views;
use super::{Check, Excerpt, ExcerptSource, Finding};
use crate::adapter::WrapRequest;
use crate::catalogue::{ConcreteCase, Expectation};
use crate::profile::TargetProfile;
use fidelity::{exact_body, first_difference};
use findings::{framed_excerpt, Findings};

/// Judges the framed text a wrap returned: frame shape, delimiter census,
/// canary containment, header and tag integrity, and for faithful cases
/// whether content, attributes and provenance came through unchanged.
pub fn judge_wrap(
    case: &ConcreteCase,
    profile: &TargetProfile,
    request: &WrapRequest,
    framed: &str,
) -> Vec<Finding> {
    let mut findings = Findings::default();
    wrap_checks(&mut findings, case, profile, request, framed);
    findings.0
}

/// Runs every wrap check; returns the views so a caller can reuse them.
fn wrap_checks<'t>(
    findings: &mut Findings,
    case: &ConcreteCase,
    profile: &TargetProfile,
    request: &WrapRequest,
    framed: &'t str,
) -> Views<'t> {
    let views = Views::new(framed, profile);
    shape::check_frame_shape(findings, &views, framed);
    let parsed_tag = header::check_tag_integrity(findings, case, profile, request, &views);
    nonce::check_matched(findings, profile, &views);
    nonce::check_confusables(findings, profile, &views);
    for view in &views.levels {
        let (level, regions) = (view.level(), &view.regions);
        census::check_census(findings, profile, view);
        census::check_canary(findings, case, framed, level, regions);
        header::check_header_lines(findings, framed, level, regions);
    }
    if case.expect == Expectation::Faithful {
        let exact = &views.exact().regions;
        fidelity::check_body_fidelity(findings, profile, request, framed, exact);
        fidelity::check_provenance_fidelity(findings, profile, request, framed, exact);
        if let Some(tag) = &parsed_tag {
            fidelity::check_attribute_fidelity(findings, profile, request, framed, tag);
        }
    }
    views
}

/// Judges a wrap and the reader's answer to that very output: every
/// [`judge_wrap`] finding, then whether the reader returns the framed body
/// (and, for faithful cases, the original content) without a live delimiter.
pub fn judge_roundtrip(
    case: &ConcreteCase,
    profile: &TargetProfile,
    request: &WrapRequest,
    framed: &str,
    body: Option<&str>,
) -> Vec<Finding> {
    let mut findings = Findings::default();
    let views = wrap_checks(&mut findings, case, profile, request, framed);
    let Some(body) = body else {
        findings.fidelity(
            Check::Roundtrip,
            "the reader rejects the writer's own frame".into(),
            None,
        );
        return findings.0;
    };
    let (framed_body, body_at) = exact_body(profile, framed, &views.exact().regions);
    if body != framed_body {
        let at = body_at + first_difference(framed_body, body);
        findings.fidelity(
            Check::Roundtrip,
            "the reader returns something other than the framed body".into(),
            framed_excerpt(framed, at..at),
        );
    }
    if case.expect == Expectation::Faithful && body != request.content {
        let at = first_difference(body, &request.content);
        findings.fidelity(
            Check::Roundtrip,
            "the reader does not return the original content".into(),
            Some(Excerpt::cut(ExcerptSource::ReadBody, body, at, at)),
        );
    }
    read::check_body_delimiters(&mut findings, &*views.grammar, body);
    findings.0
}
