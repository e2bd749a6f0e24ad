//! Checks `header.integrity` (line breaks in attribute values, the header's
//! end) and `tag.integrity` (the attribute-carrying tag parses to exactly the
//! supplied attributes).

use std::ops::Range;

use super::findings::{framed_excerpt, Findings};
use crate::catalogue::{ConcreteCase, Expectation};
use crate::grammar::{DelimiterKind, Grammar, ParsedOpener};
use crate::layout::Layout;
use crate::level::ReaderLevel;
use crate::oracle::regions::{Regions, INNER, OUTER};
use crate::oracle::view::Views;
use crate::oracle::Check;
use crate::profile::{is_plain_attribute_name, Capability, ResolvedProfile};
use crate::reader::Reader;
use crate::target::WrapRequest;

/// The first line break (as `level` reads line breaks) inside a quoted value
/// of the tag at `span`. Breaks between attributes are the framing's own
/// layout; a break inside a value came from the caller's data.
fn line_break_in_quoted_value(
    framed: &str,
    span: Range<usize>,
    reader: Reader,
) -> Option<Range<usize>> {
    let mut quote: Option<char> = None;
    for (i, c) in framed[span.clone()].char_indices() {
        let at = span.start + i;
        match quote {
            None if c == '"' || c == '\'' => quote = Some(c),
            Some(q) if c == q => quote = None,
            Some(_) => {
                if let Some(len) = reader.line_break_at(framed, at) {
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
    reader: Reader,
    regions: &Regions,
) {
    let level = reader.level();
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
        if let Some(brk) = line_break_in_quoted_value(framed, span.clone(), reader) {
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
    profile: &ResolvedProfile,
    layout: Option<&Layout>,
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
    let expected = expected_names(profile, layout, views, index, &supplied);
    let expected = |name: &str| expected.iter().any(|e| e == name);
    check_duplicate_names(findings, framed, &parsed);
    let mut seen: Vec<&str> = Vec::new();
    for attribute in &parsed.attributes {
        let span = attribute.at..attribute.at + attribute.name.len();
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

/// Every attribute name the opener may carry: the supplied keys, the
/// profile's kind attribute and `extra` names, and the framing's own.
fn expected_names(
    profile: &ResolvedProfile,
    layout: Option<&Layout>,
    views: &Views<'_>,
    index: usize,
    supplied: &[&String],
) -> Vec<String> {
    let mut names: Vec<String> = supplied.iter().map(|k| k.to_string()).collect();
    if profile.can(Capability::Kind) {
        names.extend(profile.attributes.kind.clone());
    }
    names.extend(profile.attributes.extra.iter().cloned());
    if let Some(layout) = layout {
        names.extend(own_attribute_names(layout, views, index));
    }
    names
}

/// The attribute names of the framing's own opener (token `index`) in the
/// calibration sample: a framing may write attributes of its own
/// (`<document index="1">`, `version="2"`, or `source="…"` holding the
/// request's provenance) that no request's attributes supplied, and
/// calibration shows them as the framing's. Not an attribute the calibration
/// request's attributes supplied: its value carried their marker, so the
/// name is the caller's, and a name of the caller's is judged as one.
fn own_attribute_names(layout: &Layout, views: &Views<'_>, index: usize) -> Vec<String> {
    opener_own_attributes(&*views.grammar, &layout.sample.framed, index)
}

/// The attribute names the opener of token `index` (0 the outer one)
/// carries in `sample`, a frame the framing wrote for a calibration
/// request, leaving out the names whose values carried the request's
/// attribute marker (the caller's). What the run learns as the framing's
/// own from the layout's sample; `init` also declares them (`extra`) when
/// it proposes a profile the run will learn no layout for.
pub fn opener_own_attributes(grammar: &dyn Grammar, sample: &str, index: usize) -> Vec<String> {
    let folded = Reader::new(ReaderLevel::Exact).fold(sample);
    let Some(open) = grammar
        .live(&folded)
        .into_iter()
        .find(|d| d.token == index && d.kind == DelimiterKind::Open)
    else {
        return Vec::new();
    };
    let Ok(parsed) = grammar.parse_opener(sample, &open) else {
        return Vec::new();
    };
    parsed
        .attributes
        .into_iter()
        .filter(|a| !crate::layout::is_caller_attribute_value(&a.value))
        .map(|a| a.name)
        .collect()
}

/// Two attributes with the same name, as each level's reader compares
/// names. An XML parser compares names byte for byte, so `Kind="system"`
/// beside the framing's own `kind="tool-result"` is a well-formed tag to the
/// exact reader; an HTML parser lowercases names and keeps the first, and a
/// model has no rule at all for which of two `kind`s is the frame's. So a
/// duplicate counts from the first level whose folding makes the names
/// equal: the caller's `KIND` shadows the framing's own kind for every
/// reader that folds case.
fn check_duplicate_names(findings: &mut Findings, framed: &str, parsed: &ParsedOpener) {
    for reader in Reader::all() {
        let mut seen: Vec<String> = Vec::new();
        for attribute in &parsed.attributes {
            let folded = reader.fold_str(&attribute.name);
            if seen.contains(&folded) {
                let span = attribute.at..attribute.at + attribute.name.len();
                findings.security(
                    Check::TagIntegrity,
                    reader.level(),
                    format!("attribute {:?} appears twice", attribute.name),
                    framed_excerpt(framed, span),
                );
            }
            seen.push(folded);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grammar::Attribute;
    use crate::oracle::Finding;

    fn spans(findings: &[Finding]) -> Vec<(String, usize, usize)> {
        findings
            .iter()
            .map(|f| {
                let e = f.excerpt.as_ref().expect("an excerpt");
                (f.message.clone(), e.start, e.end)
            })
            .collect()
    }

    fn regions(outer: Range<usize>, attribute: Option<Range<usize>>) -> Regions {
        Regions {
            delimiters: vec![],
            outer_tag: Some(outer),
            attribute_tag: attribute,
            header_terminated: true,
            header: 0..0,
            content: 0..0,
        }
    }

    #[test]
    fn a_line_break_in_a_value_of_either_tag_is_pointed_at() {
        // A CRLF inside the outer tag's value, a line feed inside the inner
        // tag's, and line breaks between attributes (the framing's own).
        let framed = "<t a=\"x\r\ny\"\n b=\"z\">\n<s c='p\nq'>";
        let outer = 0..framed.find('>').unwrap() + 1;
        let inner = framed.find("<s").unwrap()..framed.len();
        let (crlf, lf) = (framed.find('\r').unwrap(), framed.rfind('\n').unwrap());
        let mut findings = Findings::default();
        let level = Reader::new(ReaderLevel::Exact);
        check_header_lines(
            &mut findings,
            framed,
            level,
            &regions(outer.clone(), Some(inner)),
        );
        assert_eq!(
            spans(&findings.0),
            [
                (
                    "an attribute value in the outer opening tag contains a line break".into(),
                    crlf,
                    crlf + 2
                ),
                (
                    "an attribute value in the attribute-carrying tag contains a line break".into(),
                    lf,
                    lf + 1
                ),
            ]
        );
        // The attribute-carrying tag that is the outer tag is read once.
        let mut findings = Findings::default();
        check_header_lines(
            &mut findings,
            framed,
            level,
            &regions(outer.clone(), Some(outer)),
        );
        assert_eq!(findings.0.len(), 1, "{:#?}", findings.0);
    }

    #[test]
    fn a_duplicate_name_is_pointed_at_from_the_first_level_that_folds_it_equal() {
        let framed = "<t kind=\"a\" note=\"b\" KIND=\"c\">";
        let attribute = |name: &str| Attribute {
            name: name.into(),
            value: String::new(),
            at: framed.find(&format!(" {name}=")).unwrap() + 1,
        };
        let parsed = ParsedOpener {
            attributes: vec![attribute("kind"), attribute("note"), attribute("KIND")],
            span: 0..framed.len(),
        };
        let mut findings = Findings::default();
        check_duplicate_names(&mut findings, framed, &parsed);
        assert_eq!(findings.0.len(), 1, "{:#?}", findings.0);
        let at = framed.find("KIND").unwrap();
        assert_eq!(
            spans(&findings.0),
            [("attribute \"KIND\" appears twice".into(), at, at + 4)]
        );
        assert_eq!(
            findings.0[0].levels,
            [ReaderLevel::AsciiCaseInsensitive, ReaderLevel::Unicode]
        );
    }
}
