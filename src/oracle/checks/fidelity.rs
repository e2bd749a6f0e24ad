//! Check `fidelity`: benign content, provenance and attributes come through
//! unchanged (judged once, at the exact level, for faithful cases).

use super::findings::{framed_excerpt, Findings};
use crate::adapter::WrapRequest;
use crate::encoding::{self, Datamark};
use crate::grammar::ParsedOpener;
use crate::oracle::regions::Regions;
use crate::oracle::Check;
use crate::profile::{BodyEncoding, Capability, TargetProfile};

fn strip_padding<'a>(region: &'a str, padding: &str) -> (&'a str, usize) {
    if padding.is_empty() {
        return (region, 0);
    }
    let (body, lead) = match region.strip_prefix(padding) {
        Some(rest) => (rest, padding.len()),
        None => (region, 0),
    };
    (body.strip_suffix(padding).unwrap_or(body), lead)
}

/// The body a reader should return: the exact-level content region with the
/// profile's padding stripped once from each end, and where it starts.
pub(super) fn exact_body<'a>(padding: &str, framed: &'a str, exact: &Regions) -> (&'a str, usize) {
    let (body, lead) = strip_padding(&framed[exact.content.clone()], padding);
    (body, exact.content.start + lead)
}

pub(super) fn first_difference(a: &str, b: &str) -> usize {
    a.bytes().zip(b.bytes()).take_while(|(x, y)| x == y).count()
}

/// The body carries the content: it decodes to it (or, data-marked, equals
/// it encoded), and no escape in it was needless.
pub(super) fn check_body_fidelity(
    findings: &mut Findings,
    request: &WrapRequest,
    framed: &str,
    (body, body_at): (&str, usize),
    encoding: BodyEncoding,
    mark: Datamark<'_>,
) {
    if let Some(escape) = encoding::needless_escape(encoding, body) {
        findings.fidelity(
            Check::Fidelity,
            "the body escapes a character its encoding does not need escaped".into(),
            framed_excerpt(framed, body_at + escape.start..body_at + escape.end),
        );
    }
    if encoding::faithful(encoding, body, &request.content, mark) {
        return;
    }
    let expected = encoding::encode(encoding, &request.content, mark);
    let at = body_at + first_difference(body, &expected);
    let message = if encoding != BodyEncoding::None {
        format!(
            "the framed body does not decode to the content ({})",
            encoding.name()
        )
    } else if body.trim() == request.content.trim() {
        "the framed body differs from the content only in leading or trailing whitespace".into()
    } else {
        "the framed body differs from the content".into()
    };
    findings.fidelity(Check::Fidelity, message, framed_excerpt(framed, at..at));
}

pub(super) fn check_provenance_fidelity(
    findings: &mut Findings,
    profile: &TargetProfile,
    request: &WrapRequest,
    framed: &str,
    exact: &Regions,
) {
    if !profile.can(Capability::Provenance) || request.provenance.is_empty() {
        return;
    }
    if !framed[exact.header.clone()].contains(&request.provenance) {
        findings.fidelity(
            Check::Fidelity,
            "the provenance does not appear verbatim in the header".into(),
            framed_excerpt(framed, exact.header.clone()),
        );
    }
}

pub(super) fn check_attribute_fidelity(
    findings: &mut Findings,
    profile: &TargetProfile,
    request: &WrapRequest,
    framed: &str,
    tag: &ParsedOpener,
) {
    let value_of = |name: &str| {
        tag.attributes
            .iter()
            .find(|a| a.name == name)
            .map(|a| (a.value.as_str(), a.at))
    };
    if profile.can(Capability::Attributes) {
        for (key, value) in request
            .attributes
            .iter()
            .filter(|(k, _)| crate::profile::is_plain_attribute_name(k))
        {
            if let Some((written, at)) = value_of(key) {
                if written != value {
                    findings.fidelity(
                        Check::Fidelity,
                        format!("attribute {key:?} does not carry the supplied value"),
                        framed_excerpt(framed, at..at + key.len()),
                    );
                }
            }
        }
    }
    if let Some(kind_name) = profile
        .attributes
        .kind
        .as_ref()
        .filter(|_| profile.can(Capability::Kind))
    {
        match value_of(kind_name) {
            Some((written, _)) if written == request.kind => {}
            Some((_, at)) => findings.fidelity(
                Check::Fidelity,
                format!("the kind attribute {kind_name:?} does not carry the supplied kind"),
                framed_excerpt(framed, at..at + kind_name.len()),
            ),
            None if request.kind.is_empty() => {}
            None => findings.fidelity(
                Check::Fidelity,
                format!("the kind attribute {kind_name:?} is missing"),
                framed_excerpt(framed, tag.span.clone()),
            ),
        }
    }
}
