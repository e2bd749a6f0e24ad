//! Checks `delimiter.census` and `canary.containment`: which live
//! delimiters a reader sees at one level, and whether planted text stays in
//! the region it was put in.

use std::ops::Range;

use super::findings::{framed_excerpt, token_name, Findings};
use crate::catalogue::{ConcreteCase, Field};
use crate::grammar::{DelimiterKind, LiveDelimiter};
use crate::level::ReaderLevel;
use crate::oracle::regions::{Regions, INNER, OUTER};
use crate::oracle::view::View;
use crate::oracle::Check;
use crate::profile::TargetProfile;
use crate::reader::Folded;

/// The delimiters the framing itself must have written, at one level.
pub(super) struct Expected {
    pub outer_open: Option<LiveDelimiter>,
    pub outer_close: Option<LiveDelimiter>,
    pub inner_open: Option<LiveDelimiter>,
    pub inner_close: Option<LiveDelimiter>,
}

/// The frame's own delimiters: the first opener, and the last closer after
/// it that carries the same nonce (a closer with another value cannot
/// close the frame for a reader that checks it).
pub(super) fn expected_delimiters(
    profile: &TargetProfile,
    delimiters: &[LiveDelimiter],
    folded: &Folded<'_>,
) -> Expected {
    let is = |d: &&LiveDelimiter, token, kind| d.token == token && d.kind == kind;
    let pairs = |open: Option<LiveDelimiter>, d: &LiveDelimiter| {
        open.is_none_or(|o| o.same_nonce(d, folded))
    };
    let outer_open = delimiters
        .iter()
        .find(|d| is(d, OUTER, DelimiterKind::Open))
        .copied();
    let after_open = outer_open.map_or(0, |d| d.end);
    let outer_close = delimiters
        .iter()
        .rev()
        .find(|d| {
            is(d, OUTER, DelimiterKind::Close) && d.start >= after_open && pairs(outer_open, d)
        })
        .copied();
    let before_close = outer_close.map_or(usize::MAX, |d| d.start);
    let (mut inner_open, mut inner_close) = (None, None);
    if profile.delimiters.inner.is_some() {
        inner_open = delimiters
            .iter()
            .find(|d| {
                is(d, INNER, DelimiterKind::Open) && d.start >= after_open && d.end <= before_close
            })
            .copied();
        let after_inner = inner_open.map_or(after_open, |d| d.end);
        inner_close = delimiters
            .iter()
            .rev()
            .find(|d| {
                is(d, INNER, DelimiterKind::Close)
                    && d.start >= after_inner
                    && d.end <= before_close
                    && pairs(inner_open, d)
            })
            .copied();
    }
    Expected {
        outer_open,
        outer_close,
        inner_open,
        inner_close,
    }
}

pub(super) fn check_census(findings: &mut Findings, profile: &TargetProfile, view: &View<'_>) {
    let (framed, level, regions) = (view.folded.text, view.level(), &view.regions);
    let expected = expected_delimiters(profile, &regions.delimiters, &view.folded);
    let mut wanted = vec![
        (OUTER, DelimiterKind::Open, expected.outer_open),
        (OUTER, DelimiterKind::Close, expected.outer_close),
    ];
    if profile.delimiters.inner.is_some() {
        wanted.push((INNER, DelimiterKind::Open, expected.inner_open));
        wanted.push((INNER, DelimiterKind::Close, expected.inner_close));
    }
    // A nonce framing whose closer carries no nonce has a closer all the
    // same: `nonce.matched` fails it, once, rather than the census too.
    let bare_closer = expected.outer_close.is_none()
        && super::nonce::bare_frame_closer(profile, &view.folded).is_some();
    for (token, kind, found) in &wanted {
        let bare = *token == OUTER && *kind == DelimiterKind::Close && bare_closer;
        if found.is_none() && !bare {
            findings.security(
                Check::DelimiterCensus,
                level,
                format!(
                    "the frame's own {} `{}` delimiter is missing",
                    kind.adjective(),
                    token_name(profile, *token)
                ),
                None,
            );
        }
    }
    let real: Vec<LiveDelimiter> = wanted.iter().filter_map(|(_, _, d)| *d).collect();
    // A marker whose nonce differs from the frame's is a confusable, not a
    // delimiter of this frame: the nonce checks judge those, never as a
    // breakout (docs/profile-v2.md, "Nonces").
    let own_nonce = |d: &LiveDelimiter| {
        let opener = match d.token {
            OUTER => expected.outer_open,
            INNER => expected.inner_open,
            _ => None,
        };
        opener.is_none_or(|o| o.same_nonce(d, &view.folded))
    };
    let intruders: Vec<&LiveDelimiter> = regions
        .delimiters
        .iter()
        .filter(|d| !real.contains(d) && own_nonce(d))
        .collect();
    if let Some(first) = intruders.first() {
        let count = intruders.len();
        findings.security(
            Check::DelimiterCensus,
            level,
            format!(
                "{count} live delimiter{} besides the frame's own; the first is {} `{}` delimiter",
                if count == 1 { "" } else { "s" },
                match first.kind {
                    DelimiterKind::Open => "an opening",
                    DelimiterKind::Close => "a closing",
                },
                token_name(profile, first.token)
            ),
            framed_excerpt(framed, first.start..first.end),
        );
    }
}

fn is_header_field(field: &Field) -> bool {
    matches!(field, Field::Kind | Field::Attributes | Field::Provenance)
}

fn within(span: &Range<usize>, region: &Range<usize>) -> bool {
    region.start <= span.start && span.end <= region.end
}

pub(super) fn check_canary(
    findings: &mut Findings,
    case: &ConcreteCase,
    framed: &str,
    level: ReaderLevel,
    regions: &Regions,
) {
    if case.canary.is_empty() {
        return;
    }
    let in_content = case.canary_fields.contains(&Field::Content);
    let in_header = case.canary_fields.iter().any(is_header_field);
    if !in_content && !in_header {
        return;
    }
    for (at, _) in framed.match_indices(case.canary.as_str()) {
        let span = at..at + case.canary.len();
        let content_ok = in_content && within(&span, &regions.content);
        let header_ok = in_header
            && (within(&span, &regions.header)
                || regions
                    .attribute_tag
                    .as_ref()
                    .is_some_and(|t| within(&span, t)));
        if content_ok || header_ok {
            continue;
        }
        let place = if span.start >= regions.content.end {
            "after the content region, outside the frame"
        } else if span.start >= regions.content.start {
            "in the content region"
        } else if span.start >= regions.header.end {
            "between the header and the content region"
        } else {
            "before the content region, in the frame's tag or header"
        };
        if in_content {
            findings.security(
                Check::CanaryContainment,
                level,
                format!("the canary planted in the content lands {place}"),
                framed_excerpt(framed, span.clone()),
            );
        }
        if in_header {
            findings.security(
                Check::HeaderIntegrity,
                level,
                format!("the canary planted in a header field lands {place}"),
                framed_excerpt(framed, span.clone()),
            );
        }
    }
}
