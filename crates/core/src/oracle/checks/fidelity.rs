//! Check `fidelity`: benign content, provenance and attributes come through
//! unchanged (judged once, at the exact level, for faithful cases).

use super::findings::{framed_excerpt, Findings};
use crate::encoding::{self, Datamark};
use crate::grammar::entities::decode_entities;
use crate::grammar::GrammarKind;
use crate::grammar::ParsedOpener;
use crate::oracle::regions::Regions;
use crate::oracle::Check;
use crate::profile::{Capability, Encoding, ResolvedProfile};
use crate::target::WrapRequest;

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

/// Where the body is written: an XML attribute value needs escapes that
/// element content does not.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum BodyPlace {
    /// Text a reader reads as written (element content, a line).
    Text,
    /// An attribute's quoted value (`text="…"`).
    AttributeValue,
}

impl BodyPlace {
    /// The place `profile`'s body is written in: an attribute value when
    /// the frame is an inline pair opened by `name="` (or `name='`) and
    /// closed by that quote.
    pub(super) fn of(profile: &ResolvedProfile) -> BodyPlace {
        let d = &profile.delimiters;
        let attribute = d.grammar == GrammarKind::InlinePair
            && match (d.open.as_deref(), d.close.as_deref()) {
                (Some(open), Some(close @ ("\"" | "'"))) => {
                    open.strip_suffix(close).is_some_and(|o| o.ends_with('='))
                }
                _ => false,
            };
        match attribute {
            true => BodyPlace::AttributeValue,
            false => BodyPlace::Text,
        }
    }

    /// Whether `escape` (one entity of the body) is needed here though
    /// the encoding alone would call it needless: an XML parser
    /// normalises a raw tab, line feed or carriage return in an attribute
    /// value to a space (XML 1.0, section 3.3.3), so the value carries
    /// them only as character references.
    fn needs(self, escape: &str) -> bool {
        self == BodyPlace::AttributeValue
            && matches!(decode_entities(escape).as_str(), "\t" | "\n" | "\r")
    }
}

/// The body carries the content: it decodes to it (or, data-marked, equals
/// it encoded), and no escape in it was needless where it is written.
pub(super) fn check_body_fidelity(
    findings: &mut Findings,
    request: &WrapRequest,
    framed: &str,
    (body, body_at): (&str, usize),
    (encoding, place): (Encoding, BodyPlace),
    mark: Datamark<'_>,
) {
    let mut from = 0;
    while let Some(e) = encoding::needless_escape(encoding, &body[from..]) {
        let escape = from + e.start..from + e.end;
        if !place.needs(&body[escape.clone()]) {
            findings.fidelity(
                Check::Fidelity,
                "the body escapes a character its encoding does not need escaped".into(),
                framed_excerpt(framed, body_at + escape.start..body_at + escape.end),
            );
            break;
        }
        from = escape.end;
    }
    if encoding::faithful(encoding, body, &request.content, mark) {
        return;
    }
    let expected = encoding::encode(encoding, &request.content, mark);
    let at = body_at + first_difference(body, &expected);
    let message = if !encoding.is_none() {
        format!(
            "the framed body does not decode to the content ({})",
            encoding
        )
    } else if body.trim() == request.content.trim() {
        "the framed body differs from the content only in leading or trailing whitespace".into()
    } else {
        "the framed body differs from the content".into()
    };
    findings.fidelity(Check::Fidelity, message, framed_excerpt(framed, at..at));
}

/// The provenance reaches the frame: verbatim in the header, or as the
/// value of an attribute of the opener (`source="…"`), which is read with
/// its entities decoded, since escaping `&` or `"` there is what keeps the
/// value in its attribute.
pub(super) fn check_provenance_fidelity(
    findings: &mut Findings,
    profile: &ResolvedProfile,
    request: &WrapRequest,
    framed: &str,
    (exact, tag): (&Regions, Option<&ParsedOpener>),
) {
    if !profile.can(Capability::Provenance) || request.provenance.is_empty() {
        return;
    }
    let in_attribute =
        tag.is_some_and(|t| t.attributes.iter().any(|a| a.value == request.provenance));
    if !in_attribute && !framed[exact.header.clone()].contains(&request.provenance) {
        findings.fidelity(
            Check::Fidelity,
            "the provenance does not appear verbatim in the header".into(),
            framed_excerpt(framed, exact.header.clone()),
        );
    }
}

pub(super) fn check_attribute_fidelity(
    findings: &mut Findings,
    profile: &ResolvedProfile,
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grammar::Attribute;
    use crate::oracle::{Excerpt, Finding};
    use crate::profile::BodyEncoding;

    fn request(content: &str) -> WrapRequest {
        WrapRequest {
            content: content.into(),
            kind: "tool-result".into(),
            attributes: [("source".to_string(), "web".to_string())]
                .into_iter()
                .collect(),
            provenance: String::new(),
        }
    }

    fn span(finding: &Finding) -> (usize, usize) {
        let Excerpt { start, end, .. } = finding.excerpt.clone().expect("an excerpt");
        (start, end)
    }

    /// The body judged at `body_at` of a framed text that holds it there.
    fn body_findings(content: &str, body: &str, encoding: BodyEncoding) -> Vec<Finding> {
        let framed = format!("<frame>\n{body}\n</frame>");
        let mut findings = Findings::default();
        check_body_fidelity(
            &mut findings,
            &request(content),
            &framed,
            (body, "<frame>\n".len()),
            (encoding.into(), BodyPlace::Text),
            "^".into(),
        );
        findings.0
    }

    #[test]
    fn an_attribute_value_needs_its_line_breaks_and_tabs_as_references() {
        // `<doc text="a&#10;b&#9;c"/>`: XML reads a raw line break or tab
        // in an attribute value as a space, so the references are needed
        // there, and only there; `&#120;` (an `x`) is needless anywhere.
        let findings = |body: &str, place| {
            let framed = format!("<doc text=\"{body}\"/>");
            let mut findings = Findings::default();
            let content = crate::grammar::entities::decode_entities(body);
            let at = "<doc text=\"".len();
            let encoding = (BodyEncoding::HtmlEntities.into(), place);
            check_body_fidelity(
                &mut findings,
                &request(&content),
                &framed,
                (body, at),
                encoding,
                "^".into(),
            );
            findings.0.len()
        };
        assert_eq!(findings("a&#10;b&#9;c&#13;", BodyPlace::AttributeValue), 0);
        assert_eq!(findings("a&#10;b&#9;c&#13;", BodyPlace::Text), 1);
        assert_eq!(findings("a&#10;b&#120;", BodyPlace::AttributeValue), 1);
    }

    #[test]
    fn a_needless_escape_is_pointed_at_in_the_framed_text() {
        // `&#120;` is an `x`, which no entity encoding needs escaped.
        let findings = body_findings("a x", "a &#120;", BodyEncoding::HtmlEntities);
        assert_eq!(findings.len(), 1, "{findings:#?}");
        assert!(findings[0].message.contains("does not need escaped"));
        let at = "<frame>\na ".len();
        assert_eq!(span(&findings[0]), (at, at + "&#120;".len()));
    }

    #[test]
    fn a_differing_body_is_pointed_at_its_first_difference() {
        let findings = body_findings("abcdef", "abcXef", BodyEncoding::None);
        assert_eq!(findings.len(), 1, "{findings:#?}");
        assert_eq!(
            findings[0].message,
            "the framed body differs from the content"
        );
        let at = "<frame>\nabc".len();
        assert_eq!(span(&findings[0]), (at, at));
    }

    /// An opener `<t kind="…" source="…">` as the grammar parses it.
    fn opener(kind: Option<&str>, source: &str) -> (String, ParsedOpener) {
        let mut text = "<t".to_string();
        let mut attributes = Vec::new();
        for (name, value) in kind
            .map(|k| ("kind", k))
            .into_iter()
            .chain([("source", source)])
        {
            text.push(' ');
            attributes.push(Attribute {
                name: name.into(),
                value: value.into(),
                at: text.len(),
            });
            text.push_str(&format!("{name}=\"{value}\""));
        }
        text.push('>');
        let span = 0..text.len();
        (text, ParsedOpener { attributes, span })
    }

    fn attribute_findings(req: &WrapRequest, kind: Option<&str>, source: &str) -> Vec<Finding> {
        let (framed, tag) = opener(kind, source);
        let mut findings = Findings::default();
        check_attribute_fidelity(
            &mut findings,
            &crate::profile::reference_for_tests(),
            req,
            &framed,
            &tag,
        );
        findings.0
    }

    #[test]
    fn attributes_and_the_kind_must_carry_what_was_supplied() {
        let req = request("x");
        assert!(attribute_findings(&req, Some("tool-result"), "web").is_empty());

        let findings = attribute_findings(&req, Some("tool-result"), "WEB");
        assert_eq!(findings.len(), 1, "{findings:#?}");
        assert_eq!(
            findings[0].message,
            "attribute \"source\" does not carry the supplied value"
        );
        let at = "<t kind=\"tool-result\" ".len();
        assert_eq!(span(&findings[0]), (at, at + "source".len()));

        let findings = attribute_findings(&req, Some("retrieval"), "web");
        assert_eq!(findings.len(), 1, "{findings:#?}");
        assert_eq!(
            findings[0].message,
            "the kind attribute \"kind\" does not carry the supplied kind"
        );
        assert_eq!(span(&findings[0]), (3, 3 + "kind".len()));

        let (framed, _) = opener(None, "web");
        let findings = attribute_findings(&req, None, "web");
        assert_eq!(findings.len(), 1, "{findings:#?}");
        assert_eq!(
            findings[0].message,
            "the kind attribute \"kind\" is missing"
        );
        assert_eq!(span(&findings[0]), (0, framed.len()));

        // No kind supplied, none written: nothing to carry.
        let no_kind = WrapRequest {
            kind: String::new(),
            ..req
        };
        assert!(attribute_findings(&no_kind, None, "web").is_empty());
    }
}
