//! Checks `frame.shape` and `frame.outer-text` against a calibrated
//! [`Layout`]: the output fits the layout part by part, and the text outside
//! the frame is only the framing's own constant text.

use super::findings::{framed_excerpt, Findings};
use crate::adapter::WrapRequest;
use crate::layout::{Layout, Match};
use crate::oracle::Check;
use crate::profile::{EmptyContent, TargetProfile};

/// What the layout checks concluded.
pub(super) enum Shape {
    /// The output is the declared empty output for empty content: nothing
    /// else is judged.
    Empty,
    /// Non-empty content produced no output at all: that one failure says
    /// everything, so nothing else is judged.
    Missing,
    /// The output was matched against the layout.
    Matched(Match),
}

pub(super) fn check_layout(
    findings: &mut Findings,
    profile: &TargetProfile,
    layout: &Layout,
    request: &WrapRequest,
    framed: &str,
) -> Shape {
    if profile.frame.empty == EmptyContent::Nothing {
        // Only the empty string is empty: whitespace-only content is content.
        let content_empty = request.content.is_empty();
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
    let matched = layout.matches(framed);
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
    Shape::Matched(matched)
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
