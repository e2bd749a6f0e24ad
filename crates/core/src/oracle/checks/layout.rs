//! Checks `frame.shape` and `frame.outer-text` against a calibrated
//! [`Layout`]: the output fits the layout part by part, and the text outside
//! the frame is only the framing's own constant text.

use std::ops::Range;

use super::findings::{framed_excerpt, Findings};
use crate::layout::{FieldContext, Layout, Match, Part, PartKind};
use crate::oracle::view::readers_for;
use crate::oracle::Check;
use crate::profile::{EmptyContent, ResolvedProfile};
use crate::target::WrapRequest;

/// What the layout checks concluded.
pub(super) enum Shape {
    /// The output is the declared empty output for empty content, or the
    /// framing's own learned frame for it: nothing else is judged.
    Empty,
    /// Non-empty content produced no output at all: that one failure says
    /// everything, so nothing else is judged.
    Missing,
    /// The output was matched against the layout.
    Matched(Match),
}

pub(super) fn check_layout(
    findings: &mut Findings,
    profile: &ResolvedProfile,
    layout: &Layout,
    request: &WrapRequest,
    framed: &str,
) -> Shape {
    if profile.frame.empty != EmptyContent::Frame {
        // The profile says which contents are empty: the empty string, or
        // (`blank`) whitespace-only content too.
        let content_empty = profile.frame.empty.yields_nothing(&request.content);
        match (content_empty, framed.trim().is_empty()) {
            (true, true) => return Shape::Empty,
            (true, false) => findings.fidelity(
                Check::FrameShape,
                "the profile declares that empty content yields nothing, but the output is not empty"
                    .into(),
                framed_excerpt(framed, 0..0),
            ),
            (false, true) => {
                findings.security_everywhere(
                    Check::FrameShape,
                    "the output is empty for non-empty content".into(),
                    None,
                );
                return Shape::Missing;
            }
            (false, false) => {}
        }
    }
    if request.content.is_empty() {
        if let Some(spans) = layout.matches_empty(framed) {
            // The framing's own frame for empty content: only its header
            // fields are left to judge.
            let parts = layout.empty.iter().flatten();
            check_header_fields(findings, profile, parts.zip(&spans), framed);
            return Shape::Empty;
        }
    }
    let matched = fitting_match(layout, request, framed);
    if let Some(miss) = &matched.mismatch {
        findings.security_everywhere(
            Check::FrameShape,
            format!(
                "the output does not fit the calibrated layout: {} of the {} is not where the layout puts it",
                miss.part,
                region_name(miss.region)
            ),
            framed_excerpt(framed, miss.at..miss.at),
        );
    }
    if let Some(first) = matched.outer_text.iter().find(|r| !r.is_empty()) {
        findings.security_everywhere(
            Check::OuterText,
            format!(
                "{} byte{} outside the frame that the framing's constant text does not account for",
                first.len(),
                if first.len() == 1 { "" } else { "s" }
            ),
            framed_excerpt(framed, first.clone()),
        );
    }
    let spans = matched.head.iter().chain(matched.tail.iter());
    check_header_fields(findings, profile, layout.parts().zip(spans), framed);
    Shape::Matched(matched)
}

/// The output matched against the layout, or, when it does not fit, against
/// the layout without the header lines of the fields the request leaves
/// empty (a framing may write a `Subject:` line only for a subject). The
/// variant lines up part for part with the layout.
fn fitting_match(layout: &Layout, request: &WrapRequest, framed: &str) -> Match {
    let matched = layout.matches(framed);
    if matched.mismatch.is_none() {
        return matched;
    }
    layout
        .without_empty_lines(request)
        .map(|variant| variant.matches(framed))
        .filter(|m| m.mismatch.is_none())
        .unwrap_or(matched)
}

/// A header field's value holds no line break, as each reader reads line
/// breaks: a break there ends the field's line early and lets the rest of
/// the value pass for another header line (a forged `From:`, a separator).
fn check_header_fields<'a>(
    findings: &mut Findings,
    profile: &ResolvedProfile,
    parts: impl Iterator<Item = (&'a Part, &'a Range<usize>)>,
    framed: &str,
) {
    for (part, span) in parts {
        let PartKind::Field {
            context: FieldContext::HeaderLine(line),
            ..
        } = &part.kind
        else {
            continue;
        };
        for reader in readers_for(profile) {
            let Some(brk) = reader
                .next_line_break(framed, span.start)
                .filter(|b| b.end <= span.end)
            else {
                continue;
            };
            findings.security(
                Check::HeaderIntegrity,
                reader.level(),
                format!("the value of the `{line}` header line contains a line break"),
                framed_excerpt(framed, brk),
            );
        }
    }
}

fn region_name(region: crate::layout::Region) -> &'static str {
    use crate::layout::Region::*;
    match region {
        Preamble => "preamble",
        Opener => "opening delimiter",
        Header => "header",
        Footer => "text between content and closer",
        Closer => "closing delimiter",
        After => "text after the frame",
    }
}
