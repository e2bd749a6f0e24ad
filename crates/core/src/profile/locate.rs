//! Line and column for profile errors that serde cannot see.
//!
//! A YAML error carries its position. A profile that parses but breaks a
//! rule [`TargetProfile::validate`](super::TargetProfile::validate) checks
//! (a token with a bracket, a name with a space) is found after parsing,
//! when positions are gone; this module reads the text once more into a
//! shadow of the profile that keeps each field's position, and points the
//! error at the field its type names ([`Field`]). The shadow tolerates any
//! shape: when it cannot read the text, the error is printed without a
//! position rather than with a wrong one.

use serde::de::IgnoredAny;
use serde::Deserialize;
use serde_saphyr::Spanned;

use super::{Field, InvalidProfile, Position, TokenField};

/// The profile's located fields; `D` is how `delimiters:` is read (its
/// mapping, or anything at all for `delimiters: none`, which has no token
/// to point at while the other fields still do).
#[derive(Deserialize, Default)]
#[serde(default)]
struct Shadow<D> {
    name: Option<Spanned<IgnoredAny>>,
    delimiters: Option<D>,
    attributes: Option<ShadowAttributes>,
    capabilities: Option<Spanned<IgnoredAny>>,
    reader: Option<ShadowReader>,
}

#[derive(Deserialize, Default)]
#[serde(default)]
struct ShadowReader {
    consumers: Option<Spanned<IgnoredAny>>,
}

#[derive(Deserialize, Default)]
#[serde(default)]
struct ShadowDelimiters {
    token: Option<Spanned<String>>,
    inner: Option<Spanned<Option<String>>>,
    reserved: Vec<Spanned<String>>,
}

#[derive(Deserialize, Default)]
#[serde(default)]
struct ShadowAttributes {
    on: Option<Spanned<IgnoredAny>>,
    names: Vec<Spanned<String>>,
}

fn at<T>(spanned: &Spanned<T>) -> Option<Position> {
    Position::of(spanned)
}

/// The 1-based position of `field` in `text`, when the text shows it.
///
/// The header, body and delimiters-as-a-whole fields are not located: their
/// messages have never carried a position, and issue 36 keeps every printed
/// message as it was.
pub(super) fn locate(text: &str, field: &Field) -> Option<Position> {
    let options = crate::yaml::options;
    let shadow: Shadow<ShadowDelimiters> =
        match serde_saphyr::from_str_with_options(text, options()) {
            Ok(shadow) => shadow,
            Err(_) => {
                let any: Shadow<IgnoredAny> =
                    serde_saphyr::from_str_with_options(text, options()).ok()?;
                Shadow {
                    name: any.name,
                    delimiters: None,
                    attributes: any.attributes,
                    capabilities: any.capabilities,
                    reader: any.reader,
                }
            }
        };
    let delimiters = shadow.delimiters.unwrap_or_default();
    let attributes = shadow.attributes.unwrap_or_default();
    let reader = shadow.reader.unwrap_or_default();
    match field {
        Field::Name => shadow.name.as_ref().and_then(at),
        Field::Token(TokenField::Outer) => delimiters.token.as_ref().and_then(at),
        Field::Token(TokenField::Inner) => delimiters
            .inner
            .as_ref()
            .filter(|inner| inner.value.is_some())
            .and_then(at),
        Field::Token(TokenField::Reserved(i)) => delimiters.reserved.get(*i).and_then(at),
        Field::AttributesOn => attributes.on.as_ref().and_then(at),
        Field::AttributesName(i) => attributes.names.get(*i).and_then(at),
        Field::Capabilities => shadow.capabilities.as_ref().and_then(at),
        Field::ReaderConsumers => reader.consumers.as_ref().and_then(at),
        // The adapter section's fields are the launch configuration's to
        // place (`InvalidProfile::locate_in`).
        Field::Adapter
        | Field::Delimiters
        | Field::HeaderSeparator
        | Field::HeaderLines
        | Field::HeaderField(_)
        | Field::BodyPadding
        | Field::BodyDatamark
        | Field::BodyLinePrefix
        | Field::ReaderLines
        | Field::Records => None,
    }
}

/// `error`, with the position of its field in `text` when known.
pub(super) fn with_position(text: &str, mut error: InvalidProfile) -> InvalidProfile {
    if error.position.is_none() {
        error.position = error.locate_in(text);
    }
    error
}

#[cfg(test)]
mod tests {
    use crate::profile::TestTarget as TargetProfile;

    fn error_of(text: &str) -> String {
        TargetProfile::parse(text).unwrap_err().to_string()
    }

    #[test]
    fn a_bad_token_has_a_line_and_column() {
        let message = error_of(
            "name: x\nadapter: { builtin: reference }\ndelimiters:\n  syntax: xml-tag\n  token: \"a<b\"\ncapabilities: [wrap]\n",
        );
        assert!(
            message.starts_with("line 5, column 10: delimiters: token \"a<b\""),
            "{message}"
        );
    }

    #[test]
    fn a_bad_reserved_token_points_at_itself() {
        let message = error_of(
            "name: x\nadapter: { builtin: reference }\ndelimiters: { syntax: xml-tag, token: t, reserved: [ok, \"b]\"] }\ncapabilities: [wrap]\n",
        );
        assert!(message.starts_with("line 3, column "), "{message}");
        assert!(message.contains("\"b]\""), "{message}");
    }

    #[test]
    fn a_bad_name_and_a_missing_wrap_have_positions() {
        let message = error_of(
            "name: a b\nadapter: { builtin: reference }\ndelimiters: { syntax: xml-tag, token: t }\ncapabilities: [wrap]\n",
        );
        assert!(message.starts_with("line 1, column 7: name"), "{message}");
        let message = error_of(
            "name: x\nadapter: { builtin: reference }\ndelimiters: { syntax: xml-tag, token: t }\ncapabilities: [read]\n",
        );
        assert!(message.starts_with("line 4, column"), "{message}");
    }

    /// `delimiters: none` has no token, and the other fields keep their place.
    #[test]
    fn a_bad_name_beside_delimiters_none_has_its_position() {
        let message = error_of(
            "name: a b\nadapter: { builtin: reference }\ndelimiters: none\ncapabilities: [wrap]\n",
        );
        assert!(message.starts_with("line 1, column 7: name"), "{message}");
    }
}

/// Each rule's typed error: its kind, the field it names and the place
/// that field has in the text (or none, for the fields not located).
#[cfg(test)]
mod typed {
    use crate::grammar::{GrammarError, GrammarKind};
    use crate::profile::{
        Field, HeaderError, HeaderName, InvalidKind, InvalidProfile, Position,
        TestTarget as TargetProfile, TokenField,
    };

    const BASE: &str = "name: x
adapter:
  command: [a]
delimiters:
  grammar: xml-tag
  token: t
  inner: s
  reserved: [u, v]
attributes:
  on: inner
  names: [a, b]
capabilities: [wrap]
";

    /// `BASE` with one line replaced (or, with an empty `line`, `new` appended).
    fn with(line: &str, new: &str) -> String {
        if line.is_empty() {
            return format!("{BASE}{new}");
        }
        assert!(BASE.contains(line), "{line}");
        BASE.replacen(line, new, 1)
    }

    fn error(text: &str) -> InvalidProfile {
        TargetProfile::parse(text).unwrap_err()
    }

    fn expect(field: Field, kind: InvalidKind, at: Option<(u64, u64)>) -> InvalidProfile {
        InvalidProfile {
            kind,
            field: Some(field),
            position: at.map(|(line, column)| Position { line, column }),
        }
    }

    #[test]
    fn the_base_profile_is_valid() {
        TargetProfile::parse(BASE).unwrap();
    }

    #[test]
    fn name_and_capability_errors_point_at_their_field() {
        let cases = [
            (
                with("name: x", "name: 'a b'"),
                expect(
                    Field::Name,
                    InvalidKind::BadName("a b".into()),
                    Some((1, 7)),
                ),
            ),
            (
                with("capabilities: [wrap]", "capabilities: [read]"),
                expect(Field::Capabilities, InvalidKind::NoWrap, Some((12, 15))),
            ),
        ];
        for (text, expected) in cases {
            assert_eq!(error(&text), expected, "{text}");
        }
    }

    #[test]
    fn token_errors_name_which_token() {
        let bad = |t: &str| InvalidKind::BadToken(t.into());
        let token = |t| Field::Token(t);
        let cases = [
            (
                with("  token: t", "  token: \"a<b\""),
                expect(token(TokenField::Outer), bad("a<b"), Some((6, 10))),
            ),
            (
                with("  inner: s", "  inner: \"s]\""),
                expect(token(TokenField::Inner), bad("s]"), Some((7, 10))),
            ),
            (
                with("  reserved: [u, v]", "  reserved: [u, \"v]\"]"),
                expect(token(TokenField::Reserved(1)), bad("v]"), Some((8, 17))),
            ),
            (
                with("  grammar: xml-tag", "  grammar: fence"),
                expect(
                    Field::Delimiters,
                    InvalidKind::Grammar(GrammarError::ExtraTokens(GrammarKind::Fence)),
                    None,
                ),
            ),
        ];
        for (text, expected) in cases {
            assert_eq!(error(&text), expected, "{text}");
        }
    }

    #[test]
    fn a_duplicate_points_at_the_first_token_spelled_as_the_message_prints() {
        let twice = |token: &str, repeat| InvalidKind::DuplicateToken {
            token: token.into(),
            repeat: TokenField::Reserved(repeat),
        };
        let cases = [
            // Exactly the outer token again: the outer token is pointed at.
            (
                with("  reserved: [u, v]", "  reserved: [u, t]"),
                expect(
                    Field::Token(TokenField::Outer),
                    twice("t", 1),
                    Some((6, 10)),
                ),
            ),
            (
                with("  reserved: [u, v]", "  reserved: [u, v, u]"),
                expect(
                    Field::Token(TokenField::Reserved(0)),
                    twice("u", 2),
                    Some((8, 14)),
                ),
            ),
            // Only the case differs: "S" is first written at the repeat.
            (
                with("  reserved: [u, v]", "  reserved: [u, S]"),
                expect(
                    Field::Token(TokenField::Reserved(1)),
                    twice("S", 1),
                    Some((8, 17)),
                ),
            ),
        ];
        for (text, expected) in cases {
            assert_eq!(error(&text), expected, "{text}");
        }
    }

    #[test]
    fn attribute_errors_point_at_the_entry() {
        let cases = [
            (
                with("  names: [a, b]", "  names: [a, 'b c']"),
                expect(
                    Field::AttributesName(1),
                    InvalidKind::NotPlainAttributeName("b c".into()),
                    Some((11, 14)),
                ),
            ),
            (
                with("  inner: s", "  inner: null"),
                expect(
                    Field::AttributesOn,
                    InvalidKind::InnerWithoutInnerToken,
                    Some((10, 7)),
                ),
            ),
        ];
        for (text, expected) in cases {
            assert_eq!(error(&text), expected, "{text}");
        }
    }

    #[test]
    fn header_and_body_errors_name_their_field_without_a_position() {
        let header = |e: HeaderError| expect(e.field(), InvalidKind::Header(e), None);
        let cases = [
            (
                "header: { style: separator }\n",
                header(HeaderError::MissingSeparator),
                Field::HeaderSeparator,
            ),
            (
                "header: { style: separator, separator: \"a\\nb\" }\n",
                header(HeaderError::MultilineSeparator("a\nb".into())),
                Field::HeaderSeparator,
            ),
            (
                "header: { style: lines, lines: 0 }\n",
                header(HeaderError::NoLineCount),
                Field::HeaderLines,
            ),
            (
                "header: { style: blank-line, fields: { attributes: { title: 'a:b' } } }\n",
                header(HeaderError::BadFieldName {
                    field: HeaderName::Attribute("title".into()),
                    name: "a:b".into(),
                }),
                Field::HeaderField(HeaderName::Attribute("title".into())),
            ),
            (
                "header: { style: blank-line, fields: { provenance: '' } }\n",
                header(HeaderError::BadFieldName {
                    field: HeaderName::Provenance,
                    name: String::new(),
                }),
                Field::HeaderField(HeaderName::Provenance),
            ),
            (
                "body_padding: ' '\nbody: { padding: ' ' }\n",
                expect(Field::BodyPadding, InvalidKind::TwoPaddings, None),
                Field::BodyPadding,
            ),
            (
                "body: { datamark: 'a b' }\n",
                expect(
                    Field::BodyDatamark,
                    InvalidKind::BadDatamark("a b".into()),
                    None,
                ),
                Field::BodyDatamark,
            ),
            (
                "body: { encoding: line-prefix, line_prefix: \"> \\u2028\" }\n",
                expect(
                    Field::BodyLinePrefix,
                    InvalidKind::BadLinePrefix("> \u{2028}".into()),
                    None,
                ),
                Field::BodyLinePrefix,
            ),
            (
                "body: { encoding: line-prefix }\n",
                expect(Field::BodyLinePrefix, InvalidKind::LinePrefixMismatch, None),
                Field::BodyLinePrefix,
            ),
            (
                "body: { line_prefix: \"> \" }\n",
                expect(Field::BodyLinePrefix, InvalidKind::LinePrefixMismatch, None),
                Field::BodyLinePrefix,
            ),
            (
                "body: { encoding: [line-prefix, datamark], line_prefix: \"> \" }\n",
                expect(Field::BodyLinePrefix, InvalidKind::LinePrefixMismatch, None),
                Field::BodyLinePrefix,
            ),
        ];
        for (extra, expected, field) in cases {
            let got = error(&with("", extra));
            assert_eq!(got, expected, "{extra}");
            assert_eq!(got.field, Some(field), "{extra}");
        }
    }

    #[test]
    fn a_yaml_error_has_the_parsers_position_and_no_field() {
        let text = with("", "bogus: 1\n");
        let got = error(&text);
        // Printed as `yaml::describe` prints it, as parse printed it before.
        let parser =
            serde_saphyr::from_str_with_options::<TargetProfile>(&text, crate::yaml::options())
                .unwrap_err();
        assert_eq!(got.to_string(), crate::yaml::describe(&parser));
        assert_eq!(got.field, None);
        assert_eq!(
            got.position,
            Some(Position {
                line: 13,
                column: 1
            })
        );
        assert!(
            matches!(&got.kind, InvalidKind::Yaml(m) if m.starts_with("unknown field `bogus`")),
            "{got:?}"
        );
        assert!(got
            .to_string()
            .starts_with("line 13, column 1: unknown field"));
    }

    #[test]
    fn validate_names_the_field_and_parse_adds_its_place() {
        let text = with("  reserved: [u, v]", "  reserved: [u, \"v]\"]");
        let file: crate::profile::file::ProfileFile<serde_json::Value> =
            serde_saphyr::from_str_with_options(&text, crate::yaml::options()).unwrap();
        let (adapter, framing) = file.split();
        let unplaced = TargetProfile::new(adapter, framing).unwrap_err();
        assert_eq!(unplaced.field, Some(Field::Token(TokenField::Reserved(1))));
        assert_eq!(unplaced.position, None);
        let placed = error(&text);
        assert_eq!(placed.to_string(), format!("line 8, column 17: {unplaced}"));
    }

    /// The message of a bad reserved token `a"b\` quotes it as `"a\"b\\"`,
    /// which contains `"b\\"`, the quoted outer token `b\`. Finding the
    /// field by its quoted text pointed at the outer token (line 6); the
    /// typed field points at the reserved entry.
    #[test]
    fn the_position_comes_from_the_typed_field_not_the_text() {
        let text = with("  token: t", "  token: 'b\\'").replacen(
            "  reserved: [u, v]",
            "  reserved: ['a\"b\\']",
            1,
        );
        let got = error(&text);
        let message = got.to_string();
        assert!(message.contains(&format!("{:?}", "b\\")), "{message}");
        assert_eq!(got.field, Some(Field::Token(TokenField::Reserved(0))));
        assert_eq!(
            got.position,
            Some(Position {
                line: 8,
                column: 14
            })
        );
        assert!(
            message.starts_with("line 8, column 14: delimiters: token "),
            "{message}"
        );
    }
}
