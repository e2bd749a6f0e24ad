//! Check `fidelity`: benign content, provenance and attributes come through
//! unchanged (judged once, at the exact level, for faithful cases).

use std::ops::Range;

use super::findings::{framed_excerpt, Findings};
use crate::encoding::{self, Datamark};
use crate::grammar::ParsedOpener;
use crate::layout::Echo;
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

/// Every framed echo slot (a title, a preview: the content written again
/// outside the body) reads back as a prefix of the content ([`Echo::faithful`]): a
/// slot cut short loses nothing while the body carries the content, but
/// one that reads as text the content never had (an escape cut in half and
/// left raw) misinforms its reader as a lossy body does.
pub(super) fn check_echo_fidelity(
    findings: &mut Findings,
    request: &WrapRequest,
    framed: &str,
    echoes: &[(Range<usize>, Echo)],
    mark: Datamark<'_>,
) {
    // An unframed echo is outer text whatever it holds: judged there.
    let unfaithful = echoes.iter().find(|(span, echo)| {
        echo.framed && !echo.faithful(&framed[span.clone()], &request.content, mark)
    });
    if let Some((span, echo)) = unfaithful {
        findings.fidelity(
            Check::Fidelity,
            format!(
                "the content written again outside the body ({}) does not read back as a prefix of the content",
                echo.encoding
            ),
            framed_excerpt(framed, span.clone()),
        );
    }
}

/// The body carries the content: it decodes to it (or, data-marked, equals
/// it encoded). That is the whole rule ([`encoding::faithful`]): an escape
/// the writer did not need but the reader gives back exactly is no finding.
pub(super) fn check_body_fidelity(
    findings: &mut Findings,
    request: &WrapRequest,
    framed: &str,
    (body, body_at): (&str, usize),
    encoding: Encoding,
    mark: Datamark<'_>,
) {
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
            encoding.into(),
            "^".into(),
        );
        findings.0
    }

    #[test]
    fn an_escape_read_back_exactly_is_no_finding_and_one_that_is_not_is_pointed_at() {
        // `&#120;` and `&#233;` read back as `x` and `é`: the content.
        assert!(body_findings("a x é", "a &#120; &#233;", BodyEncoding::HtmlEntities).is_empty());
        assert!(body_findings("a x é", r#""a x \u00e9""#, BodyEncoding::JsonString).is_empty());
        // `&eacute;` is no entity an XML reader knows: it stays as written.
        let findings = body_findings("a é", "a &eacute;", BodyEncoding::HtmlEntities);
        assert_eq!(findings.len(), 1, "{findings:#?}");
        assert!(findings[0]
            .message
            .contains("does not decode to the content"));
        let at = "<frame>\na ".len();
        assert_eq!(span(&findings[0]), (at, at));
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
