//! Check `frame.shape`: the output begins with the opening delimiter and
//! ends with the closing one.

use super::findings::{framed_excerpt, Findings};
use crate::oracle::Check;
use crate::profile::TargetProfile;

pub(super) fn check_frame_shape(findings: &mut Findings, profile: &TargetProfile, framed: &str) {
    let syntax = profile.delimiters.syntax;
    let outer = &profile.delimiters.token;
    let trimmed_start = framed.len() - framed.trim_start_matches(is_ascii_space).len();
    let trimmed = framed.trim_matches(is_ascii_space);
    let open = syntax.open_start(outer);
    let close = syntax.close(outer);
    if !trimmed.starts_with(&open) {
        findings.security_everywhere(
            Check::FrameShape,
            format!("the output does not begin with {open:?}"),
            framed_excerpt(framed, trimmed_start..trimmed_start),
        );
    }
    if !trimmed.ends_with(&close) {
        let end = trimmed_start + trimmed.len();
        findings.security_everywhere(
            Check::FrameShape,
            format!("the output does not end with {close:?}"),
            framed_excerpt(framed, end..end),
        );
    }
}

fn is_ascii_space(c: char) -> bool {
    c.is_ascii_whitespace()
}
