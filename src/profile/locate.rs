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

#[derive(Deserialize, Default)]
#[serde(default)]
struct Shadow {
    name: Option<Spanned<IgnoredAny>>,
    adapter: Option<ShadowAdapter>,
    delimiters: Option<ShadowDelimiters>,
    attributes: Option<ShadowAttributes>,
    capabilities: Option<Spanned<IgnoredAny>>,
}

#[derive(Deserialize, Default)]
#[serde(default)]
struct ShadowAdapter {
    command: Option<Spanned<IgnoredAny>>,
    timeout_ms: Option<Spanned<IgnoredAny>>,
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
    let loc = spanned.referenced;
    (loc.line() > 0).then(|| Position {
        line: loc.line(),
        column: loc.column(),
    })
}

/// The 1-based position of `field` in `text`, when the text shows it.
///
/// The header, body and delimiters-as-a-whole fields are not located: their
/// messages have never carried a position, and issue 36 keeps every printed
/// message as it was.
pub(super) fn locate(text: &str, field: &Field) -> Option<Position> {
    let shadow: Shadow = serde_saphyr::from_str_with_options(text, crate::yaml::options()).ok()?;
    let adapter = shadow.adapter.unwrap_or_default();
    let delimiters = shadow.delimiters.unwrap_or_default();
    let attributes = shadow.attributes.unwrap_or_default();
    match field {
        Field::Name => shadow.name.as_ref().and_then(at),
        Field::AdapterCommand => adapter.command.as_ref().and_then(at),
        Field::AdapterTimeoutMs => adapter.timeout_ms.as_ref().and_then(at),
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
        Field::Delimiters
        | Field::HeaderSeparator
        | Field::HeaderLines
        | Field::HeaderField(_)
        | Field::BodyPadding
        | Field::BodyDatamark => None,
    }
}

/// `error`, with the position of its field in `text` when known.
pub(super) fn with_position(text: &str, mut error: InvalidProfile) -> InvalidProfile {
    if error.position.is_none() {
        error.position = error.field.as_ref().and_then(|field| locate(text, field));
    }
    error
}

#[cfg(test)]
mod tests {
    use crate::profile::TargetProfile;

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
}
