//! Header field lines: which request field each learned line carries, and
//! lines a framing writes only when their field has a value.
//!
//! Calibration fills every field with a marker, so it learns a `Name: value`
//! line for each field the framing writes. Many framings write such a line
//! only for a non-empty value (a `Subject:` line only with a subject): for a
//! request whose field is empty, [`Layout::without_empty_lines`] gives the
//! layout with those lines left out, which the oracle tries when the output
//! does not fit the full layout. A line whose field is *not* empty must be
//! there: dropping it is still `frame.shape`.
//!
//! The profile's `header.fields` mapping says which line carries which field:
//! it names lines the probes leave empty, and a learned layout that puts a
//! declared field on another line (or nowhere) is a calibration error.

use super::{FieldContext, FieldName, Layout, LayoutError, Part, PartKind};
use crate::profile::HeaderFields;
use crate::target::WrapRequest;

impl FieldName {
    /// Whether `request` leaves this field empty.
    pub fn is_empty_in(&self, request: &WrapRequest) -> bool {
        match self {
            FieldName::Kind => request.kind.is_empty(),
            FieldName::Provenance => request.provenance.is_empty(),
            FieldName::Attribute(key) => request.attributes.get(key).is_none_or(String::is_empty),
            FieldName::Attributes => request.attributes.is_empty(),
        }
    }
}

/// The field `header.fields` maps to the header line `line`, if any.
fn declared_field(declared: &HeaderFields, line: &str) -> Option<FieldName> {
    if declared.provenance.as_deref() == Some(line) {
        return Some(FieldName::Provenance);
    }
    if declared.kind.as_deref() == Some(line) {
        return Some(FieldName::Kind);
    }
    declared
        .attributes
        .iter()
        .find(|(_, name)| name.as_str() == line)
        .map(|(key, _)| FieldName::Attribute(key.clone()))
}

/// Names the attribute and header-line field parts: the probes' attribute
/// marker is the attribute `probe_key` (a header line does not spell the
/// key), and a line the declared mapping names carries its declared field.
pub(super) fn name_fields(parts: &mut [Part], probe_key: Option<&str>, declared: &HeaderFields) {
    for part in parts {
        let PartKind::Field { name, context } = &mut part.kind else {
            continue;
        };
        if let (FieldName::Attribute(key), Some(probe)) = (&mut *name, probe_key) {
            if key.is_empty() {
                *key = probe.to_string();
            }
        }
        if let FieldContext::HeaderLine(line) = context {
            if let Some(field) = declared_field(declared, line) {
                *name = field;
            }
        }
    }
}

/// Checks the learned layout against `header.fields`: every declared field
/// the probes filled sits on its declared line.
pub(super) fn check_declared(
    parts: &[Part],
    probe_key: Option<&str>,
    declared: &HeaderFields,
) -> Result<(), LayoutError> {
    let mut wanted: Vec<(FieldName, &str)> = Vec::new();
    wanted.extend(
        declared
            .provenance
            .as_deref()
            .map(|l| (FieldName::Provenance, l)),
    );
    wanted.extend(declared.kind.as_deref().map(|l| (FieldName::Kind, l)));
    for (key, line) in &declared.attributes {
        if probe_key == Some(key.as_str()) {
            wanted.push((FieldName::Attribute(key.clone()), line));
        }
    }
    for (field, line) in wanted {
        let on_line = |p: &Part| {
            matches!(&p.kind, PartKind::Field { name, context: FieldContext::HeaderLine(l) }
                if *name == field && l == line)
        };
        if !parts.iter().any(on_line) {
            return Err(LayoutError::HeaderField {
                field: field.label(),
                line: line.to_string(),
            });
        }
    }
    Ok(())
}

impl Layout {
    /// The layout with the header lines of the fields `request` leaves
    /// empty taken out (the `Name: ` text before the field and the line
    /// break after it), part for part, so a match against it lines up with
    /// this layout's parts; `None` when no such line is learned. Only a line
    /// holding nothing but its name and the field is taken out.
    pub fn without_empty_lines(&self, request: &WrapRequest) -> Option<Layout> {
        let mut out = self.clone();
        let mut changed = false;
        for parts in [&mut out.head, &mut out.tail] {
            for i in 1..parts.len().saturating_sub(1) {
                let PartKind::Field {
                    name,
                    context: FieldContext::HeaderLine(line),
                } = &parts[i].kind
                else {
                    continue;
                };
                if !name.is_empty_in(request) {
                    continue;
                }
                if let Some((before, after)) = drop_line(&parts[i - 1], &parts[i + 1], line) {
                    parts[i - 1].kind = PartKind::Fixed { text: before };
                    parts[i].kind = PartKind::Fixed {
                        text: String::new(),
                    };
                    parts[i + 1].kind = PartKind::Fixed { text: after };
                    changed = true;
                }
            }
        }
        changed.then_some(out)
    }
}

/// The fixed texts around a field with its `Name: ` prefix and its ending
/// line break removed, when the field's line holds nothing else.
fn drop_line(before: &Part, after: &Part, line: &str) -> Option<(String, String)> {
    let (PartKind::Fixed { text: b }, PartKind::Fixed { text: a }) = (&before.kind, &after.kind)
    else {
        return None;
    };
    let line_start = b.rfind('\n').map_or(0, |i| i + 1);
    let prefix = &b[line_start..];
    let named = prefix
        .trim_end()
        .strip_suffix(':')
        .is_some_and(|n| n.trim() == line);
    let ends = a.strip_prefix("\r\n").or_else(|| a.strip_prefix('\n'))?;
    named.then(|| (b[..line_start].to_string(), ends.to_string()))
}

#[cfg(test)]
mod tests {
    use super::super::{Padding, Region, Sample};
    use super::*;
    use crate::profile::BodyEncoding;

    fn fixed(text: &str) -> Part {
        Part {
            region: Region::Header,
            kind: PartKind::Fixed { text: text.into() },
        }
    }

    fn field(name: FieldName, line: &str) -> Part {
        Part {
            region: Region::Header,
            kind: PartKind::Field {
                name,
                context: FieldContext::HeaderLine(line.into()),
            },
        }
    }

    fn layout() -> Layout {
        let opener = Part {
            region: Region::Opener,
            kind: PartKind::Fixed {
                text: "<<<X>>>".into(),
            },
        };
        Layout {
            head: vec![
                opener,
                fixed("\nFrom: "),
                field(FieldName::Provenance, "From"),
                fixed("\nSubject: "),
                field(FieldName::Attribute("subject".into()), "Subject"),
                fixed("\n---\n"),
            ],
            encoding: BodyEncoding::None.into(),
            encoding_declared: true,
            per_content: Vec::new(),
            datamark: "^".into(),
            datamark_replaces: Default::default(),
            tail: vec![Part {
                region: Region::Closer,
                kind: PartKind::Fixed {
                    text: "\n<<<END_X>>>".into(),
                },
            }],
            padding: Padding::default(),
            sample: Sample {
                framed: String::new(),
                slot: 0..0,
            },
            empty: None,
            one_line: None,
        }
    }

    fn request(provenance: &str, subject: Option<&str>) -> WrapRequest {
        WrapRequest {
            content: "hi".into(),
            kind: String::new(),
            attributes: subject
                .map(|s| [("subject".to_string(), s.to_string())].into())
                .unwrap_or_default(),
            provenance: provenance.into(),
        }
    }

    #[test]
    fn lines_of_empty_fields_are_taken_out_and_others_kept() {
        let l = layout();
        let out = "<<<X>>>\nFrom: ann\n---\nhi\n<<<END_X>>>";
        assert!(l.matches(out).mismatch.is_some());
        let variant = l.without_empty_lines(&request("ann", None)).unwrap();
        assert_eq!(variant.head.len(), l.head.len());
        let m = variant.matches(out);
        assert_eq!(m.mismatch, None);
        assert_eq!(&out[m.content.clone()], "hi");
        assert_eq!(&out[m.head[2].clone()], "ann");
        let none = "<<<X>>>\n---\nhi\n<<<END_X>>>";
        let both = l.without_empty_lines(&request("", Some(""))).unwrap();
        assert_eq!(both.matches(none).mismatch, None);
        // The subject has a value: its line may not be left out.
        assert_eq!(l.without_empty_lines(&request("ann", Some("re"))), None);
        let only_from = l.without_empty_lines(&request("", Some("re"))).unwrap();
        assert!(only_from.matches(out).mismatch.is_some());
    }

    #[test]
    fn declared_fields_name_lines_and_are_checked() {
        let declared: HeaderFields =
            serde_json::from_str(r#"{"provenance": "From", "attributes": {"subject": "Subject"}}"#)
                .unwrap();
        let mut parts = vec![field(FieldName::Attribute(String::new()), "Subject")];
        name_fields(&mut parts, Some("subject"), &declared);
        assert_eq!(
            parts[0],
            field(FieldName::Attribute("subject".into()), "Subject")
        );
        let l = layout();
        assert_eq!(check_declared(&l.head, Some("subject"), &declared), Ok(()));
        let elsewhere: HeaderFields = serde_json::from_str(r#"{"kind": "Type"}"#).unwrap();
        assert!(matches!(
            check_declared(&l.head, None, &elsewhere),
            Err(LayoutError::HeaderField { .. })
        ));
    }
}
