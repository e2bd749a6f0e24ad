//! Line and column for profile errors that serde cannot see.
//!
//! A YAML error carries its position. A profile that parses but breaks a
//! rule [`TargetProfile::validate`](super::TargetProfile::validate) checks
//! (a token with a bracket, a name with a space) is found after parsing,
//! when positions are gone; this module reads the text once more into a
//! shadow of the profile that keeps each field's position, and points the
//! error at the field it is about. The shadow tolerates any shape: when it
//! cannot read the text, the error is printed without a position rather
//! than with a wrong one.

use serde::de::IgnoredAny;
use serde::Deserialize;
use serde_saphyr::Spanned;

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
    cwd: Option<Spanned<IgnoredAny>>,
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

fn at<T>(spanned: &Spanned<T>) -> Option<(u64, u64)> {
    let loc = spanned.referenced;
    (loc.line() > 0).then(|| (loc.line(), loc.column()))
}

/// The 1-based (line, column) of the field `message` is about, when the
/// message names one and the text shows where it is.
pub(super) fn locate(text: &str, message: &str) -> Option<(u64, u64)> {
    let shadow: Shadow = serde_saphyr::from_str_with_options(text, crate::yaml::options()).ok()?;
    let quoted = |value: &str| message.contains(&format!("{value:?}"));
    if message.starts_with("token ") || message.starts_with("delimiters: token ") {
        let delimiters = shadow.delimiters?;
        let token = delimiters.token.iter().filter(|t| quoted(&t.value));
        let inner = delimiters
            .inner
            .iter()
            .filter(|t| t.value.as_deref().is_some_and(quoted));
        return token
            .map(at)
            .chain(inner.map(at))
            .chain(
                delimiters
                    .reserved
                    .iter()
                    .filter(|t| quoted(&t.value))
                    .map(at),
            )
            .flatten()
            .next();
    }
    let field = message.split([' ', ':']).next().unwrap_or("");
    let adapter = shadow.adapter.unwrap_or_default();
    let attributes = shadow.attributes.unwrap_or_default();
    match field {
        "name" => shadow.name.as_ref().and_then(at),
        "adapter.command" => adapter.command.as_ref().and_then(at),
        "adapter.cwd" => adapter.cwd.as_ref().and_then(at),
        "adapter.timeout_ms" => adapter.timeout_ms.as_ref().and_then(at),
        "attributes.on" => attributes.on.as_ref().and_then(at),
        "attributes.names" => attributes
            .names
            .iter()
            .find(|n| quoted(&n.value))
            .and_then(at),
        "every" if message.contains("capability") => shadow.capabilities.as_ref().and_then(at),
        _ => None,
    }
}

/// `message`, prefixed with the line and column of its field when known.
pub(super) fn with_position(text: &str, message: String) -> String {
    match locate(text, &message) {
        Some((line, column)) => format!("line {line}, column {column}: {message}"),
        None => message,
    }
}

#[cfg(test)]
mod tests {
    use crate::profile::TargetProfile;

    fn error_of(text: &str) -> String {
        TargetProfile::parse(text).unwrap_err()
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
