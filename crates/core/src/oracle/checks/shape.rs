//! Check `frame.shape`: the output begins with the outer opening delimiter
//! and ends with the outer closing one, as the exact reader finds them with
//! the profile's grammar.

use super::findings::{framed_excerpt, Findings};
use crate::grammar::{DelimiterKind, Form};
use crate::oracle::regions::OUTER;
use crate::oracle::view::Views;
use crate::oracle::Check;

pub(super) fn check_frame_shape(findings: &mut Findings, views: &Views<'_>, framed: &str) {
    let exact = views.exact();
    let grammar = &*views.grammar;
    let trimmed_start = framed.len() - framed.trim_start_matches(is_ascii_space).len();
    let trimmed_end = framed
        .trim_end_matches(is_ascii_space)
        .len()
        .max(trimmed_start);
    let outer = |kind| {
        exact
            .regions
            .delimiters
            .iter()
            .filter(move |d| d.token == OUTER && d.kind == kind)
    };
    if !outer(DelimiterKind::Open).any(|d| d.start == trimmed_start) {
        let open = grammar.render(Form::OpenStart, OUTER).plain();
        findings.security_everywhere(
            Check::FrameShape,
            format!("the output does not begin with {open:?}"),
            framed_excerpt(framed, trimmed_start..trimmed_start),
        );
    }
    let ends = outer(DelimiterKind::Close)
        .any(|d| grammar.delimiter_end(&exact.folded, d) == Some(trimmed_end));
    if !ends {
        let close = grammar.render(Form::Close, OUTER).plain();
        findings.security_everywhere(
            Check::FrameShape,
            format!("the output does not end with {close:?}"),
            framed_excerpt(framed, trimmed_end..trimmed_end),
        );
    }
}

fn is_ascii_space(c: char) -> bool {
    c.is_ascii_whitespace()
}
