//! Checks `delimiter.census` and `canary.containment`: which live
//! delimiters a reader sees at one level, and whether planted text stays in
//! the region it was put in.

use std::ops::Range;

use super::findings::{framed_excerpt, token_name, Findings};
use crate::catalogue::{ConcreteCase, Field};
use crate::grammar::{DelimiterKind, FrameKey, Grammar, LiveDelimiter, Liveness};
use crate::level::ReaderLevel;
use crate::oracle::live::LiveEvidence;
use crate::oracle::regions::{Regions, INNER, OUTER};
use crate::oracle::view::View;
use crate::oracle::{Check, ExcerptSource};
use crate::profile::ResolvedProfile;
use crate::reader::Folded;

/// The delimiters the framing itself must have written, at one level.
pub(super) struct Expected {
    pub outer_open: Option<LiveDelimiter>,
    pub outer_close: Option<LiveDelimiter>,
    pub inner_open: Option<LiveDelimiter>,
    pub inner_close: Option<LiveDelimiter>,
}

/// [`FrameKey::of`].
pub(super) fn key_of(
    grammar: &dyn Grammar,
    folded: &Folded<'_>,
    opener: Option<LiveDelimiter>,
) -> FrameKey {
    FrameKey::of(grammar, folded, opener)
}

/// The frame's own delimiters: the first opener, and the last closer after
/// it that its frame key does not call a confusable (a closer with another
/// value cannot close the frame for a reader that checks it) nor another
/// kind's.
pub(super) fn expected_delimiters(
    profile: &ResolvedProfile,
    grammar: &dyn Grammar,
    delimiters: &[LiveDelimiter],
    folded: &Folded<'_>,
) -> Expected {
    let is = |d: &&LiveDelimiter, token, kind| d.token == token && d.kind == kind;
    // An outer closer naming another kind than the opener's is the
    // framing's marker of another frame, never this one's closer.
    let pairs = |open: Option<LiveDelimiter>, d: &LiveDelimiter| match key_of(grammar, folded, open)
        .classify(d, folded)
    {
        Liveness::Confusable => false,
        Liveness::Live => d.token != OUTER,
        _ => true,
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
    // An open-only grammar's frame has no closer of its own (the next
    // section's marker is the framing's own text, excluded before this):
    // every closer left is one the content forged.
    let outer_close = outer_close.filter(|_| !profile.delimiters.grammar.is_open_only());
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

impl Expected {
    /// The frame's own delimiters, in no order.
    fn own(&self) -> Vec<LiveDelimiter> {
        [
            self.outer_open,
            self.outer_close,
            self.inner_open,
            self.inner_close,
        ]
        .into_iter()
        .flatten()
        .collect()
    }
}

/// Every live delimiter in `delimiters` besides the frame's own, with how a
/// reader inside the frame reads it: the frame key of the opener of its
/// token's element decides ([`FrameKey::classify`]). A confusable is not a
/// delimiter of this frame; the nonce checks judge it, never as a breakout
/// (docs/profile-v2.md, "Nonces").
pub(super) fn others(
    grammar: &dyn Grammar,
    expected: &Expected,
    delimiters: &[LiveDelimiter],
    folded: &Folded<'_>,
) -> Vec<(LiveDelimiter, Liveness)> {
    let own = expected.own();
    let outer = key_of(grammar, folded, expected.outer_open);
    let inner = key_of(grammar, folded, expected.inner_open);
    delimiters
        .iter()
        .filter(|d| !own.contains(d))
        .map(|d| {
            let key = match d.token {
                OUTER => &outer,
                INNER => &inner,
                _ => &FrameKey::default(),
            };
            (*d, key.classify(d, folded))
        })
        .collect()
}

pub(super) fn check_census(
    findings: &mut Findings,
    profile: &ResolvedProfile,
    grammar: &dyn Grammar,
    view: &View<'_>,
) {
    let (framed, level, regions) = (view.folded.text, view.level(), &view.regions);
    let expected = expected_delimiters(profile, grammar, &regions.delimiters, &view.folded);
    let mut wanted = vec![(OUTER, DelimiterKind::Open, expected.outer_open)];
    if !profile.delimiters.grammar.is_open_only() {
        wanted.push((OUTER, DelimiterKind::Close, expected.outer_close));
    }
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
    let intruders: Vec<(LiveDelimiter, Liveness)> =
        others(grammar, &expected, &regions.delimiters, &view.folded)
            .into_iter()
            .filter(|(_, liveness)| liveness.is_live())
            .collect();
    if let Some(&(first, liveness)) = intruders.first() {
        let count = intruders.len();
        let inner = profile.delimiters.inner.is_some();
        findings.security_live(
            Check::DelimiterCensus,
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
            LiveEvidence::of(&first, liveness, ExcerptSource::Framed, level, inner),
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
    (regions, echoes): (&Regions, &[Range<usize>]),
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
        // A framed echo slot (a title, a preview) holds the content as
        // the body does: a canary there is inside a frame.
        let content_ok = in_content
            && (within(&span, &regions.content) || echoes.iter().any(|e| within(&span, e)));
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

#[cfg(test)]
mod tests {
    use std::path::PathBuf;

    use super::*;
    use crate::catalogue::{
        Category, Expectation, Input, Operation, RefusalPolicy, Severity, SourceLocation, Variant,
    };
    use crate::profile::TestTarget as TargetProfile;
    use crate::target::WrapRequest;

    fn case(fields: &[Field]) -> ConcreteCase {
        ConcreteCase {
            id: "t".into(),
            base_id: "t".into(),
            variant: Variant::Exact,
            category: Category::Breakout,
            title: String::new(),
            why: String::new(),
            references: vec![],
            flags: vec![],
            severity: Severity::High,
            operation: Operation::Wrap,
            input: Input::Wrap(WrapRequest::default()),
            expect: Expectation::Hold,
            refusal: RefusalPolicy::Allowed,
            min_level: ReaderLevel::Exact,
            canary: "CAN".into(),
            canary_fields: fields.to_vec(),
            requires: vec![],
            source: SourceLocation {
                file: PathBuf::from("census.rs"),
                line: 1,
            },
            site: Default::default(),
            harvest: None,
        }
    }

    /// A header over bytes 0..10 and content over 20..30 of a 40-byte text.
    fn regions() -> Regions {
        Regions {
            delimiters: vec![],
            outer_tag: None,
            attribute_tag: None,
            header_terminated: true,
            header: 0..10,
            content: 20..30,
        }
    }

    /// The messages for a canary planted in `fields` and found at `at`.
    fn messages(fields: &[Field], at: usize) -> Vec<String> {
        let mut framed = ".".repeat(40);
        framed.replace_range(at..at + 3, "CAN");
        let mut findings = Findings::default();
        check_canary(
            &mut findings,
            &case(fields),
            &framed,
            ReaderLevel::Exact,
            (&regions(), &[]),
        );
        findings.0.into_iter().map(|f| f.message).collect()
    }

    fn delimiter(token: usize, kind: DelimiterKind, start: usize) -> LiveDelimiter {
        LiveDelimiter {
            token,
            kind,
            start,
            end: start + 2,
            nonce: None,
            request_kind: None,
        }
    }

    fn with_nonce(d: LiveDelimiter, value: (usize, usize)) -> LiveDelimiter {
        LiveDelimiter {
            nonce: Some(value),
            ..d
        }
    }

    /// The reference's shape with an inner element.
    fn inner_profile() -> TargetProfile {
        crate::profile::reference_for_tests()
            .edit(|p| {
                p.delimiters.inner = Some("source".into());
            })
            .unwrap()
    }

    #[test]
    fn the_frames_own_delimiters_are_the_right_token_kind_order_and_nonce() {
        use DelimiterKind::{Close, Open};
        // Nonce values: "AAAA" at 0..4 and 8..12, "BBBB" at 4..8.
        let text = format!("AAAABBBBAAAA{}", ".".repeat(100));
        let folded = crate::reader::Reader::new(ReaderLevel::Exact).fold(&text);
        let (a, b, a2) = ((0, 4), (4, 8), (8, 12));
        let profile = inner_profile();
        let found = |delimiters: &[LiveDelimiter]| {
            let e = expected_delimiters(&profile, &*profile.grammar(), delimiters, &folded);
            [e.outer_open, e.outer_close, e.inner_open, e.inner_close].map(|d| d.map(|d| d.start))
        };
        // An inner opener before the outer one is not the outer opener; a
        // closer before the opener, or with another nonce, is not its
        // closer; an inner element outside the frame is not the frame's.
        let delimiters = [
            delimiter(INNER, Open, 20),
            delimiter(OUTER, Close, 25),
            with_nonce(delimiter(OUTER, Open, 30), a),
            delimiter(INNER, Close, 35),
            with_nonce(delimiter(INNER, Open, 40), a),
            with_nonce(delimiter(INNER, Close, 45), b),
            with_nonce(delimiter(INNER, Close, 50), a2),
            with_nonce(delimiter(OUTER, Close, 60), a2),
            with_nonce(delimiter(OUTER, Close, 70), b),
            delimiter(INNER, Open, 80),
            delimiter(INNER, Close, 85),
        ];
        assert_eq!(found(&delimiters), [Some(30), Some(60), Some(40), Some(50)]);
        // No closer after the opener with its nonce, no inner element
        // inside: none is the frame's.
        let delimiters = [
            delimiter(OUTER, Close, 25),
            with_nonce(delimiter(OUTER, Open, 30), a),
            with_nonce(delimiter(OUTER, Close, 60), b),
            delimiter(INNER, Open, 20),
            delimiter(INNER, Close, 22),
        ];
        assert_eq!(found(&delimiters), [Some(30), None, None, None]);
        // An inner element after the frame's closer is not inside it.
        let delimiters = [
            delimiter(OUTER, Open, 30),
            delimiter(OUTER, Close, 60),
            delimiter(INNER, Open, 70),
            delimiter(INNER, Close, 80),
        ];
        assert_eq!(found(&delimiters), [Some(30), Some(60), None, None]);
    }

    #[test]
    fn a_stray_canary_is_placed_in_words() {
        let content = [Field::Content];
        assert!(messages(&content, 22).is_empty());
        assert_eq!(
            messages(&content, 33),
            ["the canary planted in the content lands after the content region, outside the frame"]
        );
        assert_eq!(
            messages(&content, 14),
            ["the canary planted in the content lands between the header and the content region"]
        );
        assert_eq!(
            messages(&content, 3),
            ["the canary planted in the content lands before the content region, in the frame's tag or header"]
        );
        let header = [Field::Provenance];
        assert!(messages(&header, 3).is_empty());
        assert_eq!(
            messages(&header, 25),
            ["the canary planted in a header field lands in the content region"]
        );
    }
}
