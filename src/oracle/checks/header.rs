//! Checks `header.integrity` (line breaks in attribute values, the header's
//! end) and `tag.integrity` (the attribute-carrying tag parses to exactly the
//! supplied attributes).

use std::ops::Range;

use super::findings::{framed_excerpt, Findings};
use crate::adapter::WrapRequest;
use crate::catalogue::{ConcreteCase, Expectation};
use crate::grammar::{DelimiterKind, ParsedOpener};
use crate::level::ReaderLevel;
use crate::oracle::regions::{Regions, INNER, OUTER};
use crate::oracle::view::Views;
use crate::oracle::Check;
use crate::profile::{is_plain_attribute_name, Capability, TargetProfile};
use crate::reader::Reader;

/// The first line break (as `level` reads line breaks) inside a quoted value
/// of the tag at `span`. Breaks between attributes are the framing's own
/// layout; a break inside a value came from the caller's data.
fn line_break_in_quoted_value(
    framed: &str,
    span: Range<usize>,
    level: ReaderLevel,
) -> Option<Range<usize>> {
    let mut quote: Option<char> = None;
    for (i, c) in framed[span.clone()].char_indices() {
        let at = span.start + i;
        match quote {
            None if c == '"' || c == '\'' => quote = Some(c),
            Some(q) if c == q => quote = None,
            Some(_) => {
                if let Some(len) = Reader::new(level).line_break_at(framed, at) {
                    return Some(at..at + len);
                }
            }
            None => {}
        }
    }
    None
}

pub(super) fn check_header_lines(
    findings: &mut Findings,
    framed: &str,
    level: ReaderLevel,
    regions: &Regions,
) {
    let mut tags: Vec<(&str, &Range<usize>)> = Vec::new();
    if let Some(t) = &regions.outer_tag {
        tags.push(("outer opening tag", t));
    }
    if let Some(t) = &regions.attribute_tag {
        if Some(t) != regions.outer_tag.as_ref() {
            tags.push(("attribute-carrying tag", t));
        }
    }
    for (what, span) in tags {
        if let Some(brk) = line_break_in_quoted_value(framed, span.clone(), level) {
            findings.security(
                Check::HeaderIntegrity,
                level,
                format!("an attribute value in the {what} contains a line break"),
                framed_excerpt(framed, brk),
            );
        }
    }
    if !regions.header_terminated {
        let at = regions.outer_tag.as_ref().map_or(0, |t| t.end);
        findings.security(
            Check::HeaderIntegrity,
            level,
            "no blank line ends the header".into(),
            framed_excerpt(framed, at..at),
        );
    }
}

pub(super) fn check_tag_integrity(
    findings: &mut Findings,
    case: &ConcreteCase,
    profile: &TargetProfile,
    request: &WrapRequest,
    views: &Views<'_>,
) -> Option<ParsedOpener> {
    let grammar = &*views.grammar;
    if !grammar.opener_has_attributes() {
        return None;
    }
    let exact = views.exact();
    let framed = exact.folded.text;
    let token = profile.attribute_token();
    let index = if token == profile.delimiters.token {
        OUTER
    } else {
        INNER
    };
    let open = exact
        .regions
        .delimiters
        .iter()
        .find(|d| d.token == index && d.kind == DelimiterKind::Open)?;
    let parsed = match grammar.parse_opener(framed, open) {
        Ok(parsed) => parsed,
        Err(error) => {
            findings.security_everywhere(
                Check::TagIntegrity,
                format!(
                    "the opening `{token}` tag does not parse: expected {}",
                    error.reason
                ),
                framed_excerpt(framed, error.at..error.at),
            );
            return None;
        }
    };
    let supplied: Vec<&String> = if profile.can(Capability::Attributes) {
        request.attributes.keys().collect()
    } else {
        Vec::new()
    };
    let kind_name = profile
        .attributes
        .kind
        .as_ref()
        .filter(|_| profile.can(Capability::Kind));
    let expected = |name: &str| {
        supplied.iter().any(|k| k.as_str() == name)
            || kind_name.is_some_and(|k| k == name)
            || profile.attributes.extra.iter().any(|e| e == name)
    };
    let mut seen: Vec<&str> = Vec::new();
    for attribute in &parsed.attributes {
        let span = attribute.at..attribute.at + attribute.name.len();
        if seen.contains(&attribute.name.as_str()) {
            findings.security_everywhere(
                Check::TagIntegrity,
                format!("attribute {:?} appears twice", attribute.name),
                framed_excerpt(framed, span.clone()),
            );
        }
        seen.push(&attribute.name);
        if !expected(&attribute.name) {
            findings.security_everywhere(
                Check::TagIntegrity,
                format!("attribute injected: {:?} was not supplied", attribute.name),
                framed_excerpt(framed, span),
            );
        }
    }
    if case.expect == Expectation::Faithful {
        for key in supplied.iter().filter(|k| is_plain_attribute_name(k)) {
            if !seen.contains(&key.as_str()) {
                findings.fidelity(
                    Check::TagIntegrity,
                    format!("supplied attribute {key:?} is missing from the tag"),
                    framed_excerpt(framed, parsed.span.clone()),
                );
            }
        }
    }
    Some(parsed)
}
