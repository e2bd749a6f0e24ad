//! Where a case attacks: the request field that carries its payload and the
//! delimiter role its payload forges.
//!
//! Recorded on every [`ConcreteCase`](super::ConcreteCase) at instantiation,
//! from the case's templates, so reports can group failures into weaknesses
//! without guessing from ids or payload text.

use serde::{Deserialize, Serialize};

use super::template::{self, DelimiterForm, Placeholder, Segment, TokenRole};

/// Which request field carries the canary, so the oracle knows where it
/// belongs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Field {
    /// The content.
    Content,
    /// The kind.
    Kind,
    /// An attribute key or value.
    Attributes,
    /// The provenance line.
    Provenance,
}

/// Which delimiter a payload forges.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum DelimiterRole {
    /// The outer closing delimiter (`{close}`).
    Close,
    /// The outer opening delimiter or the bare token (`{open}`,
    /// `{open_start}`, `{token}`).
    Open,
    /// The inner element's delimiters (`{inner_…}`).
    Inner,
    /// A reserved token's delimiters (`{reserved_…}`).
    Reserved,
}

impl DelimiterRole {
    /// The stable kebab-case name.
    pub fn name(self) -> &'static str {
        match self {
            DelimiterRole::Close => "close",
            DelimiterRole::Open => "open",
            DelimiterRole::Inner => "inner",
            DelimiterRole::Reserved => "reserved",
        }
    }

    fn of(role: TokenRole, form: DelimiterForm) -> DelimiterRole {
        match (role, form) {
            (TokenRole::Outer, DelimiterForm::Close) => DelimiterRole::Close,
            (TokenRole::Outer, _) => DelimiterRole::Open,
            (TokenRole::Inner, _) => DelimiterRole::Inner,
            (TokenRole::Reserved, _) => DelimiterRole::Reserved,
        }
    }
}

/// The field and delimiter role a case attacks.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct AttackSite {
    /// The request field carrying the payload; `None` for a text fed to the
    /// reader (and for reports written before this was recorded).
    pub field: Option<Field>,
    /// The delimiter the payload forges; `None` when it forges none (a line
    /// break in a header field, a quote in an attribute key, benign text).
    pub role: Option<DelimiterRole>,
}

/// The attack site of a case from its parsed templates, each with the field
/// it fills (`None` for a read text), in any order.
///
/// The payload field is the first, in the order content, kind, attributes,
/// provenance, reader text, whose template holds a delimiter placeholder;
/// failing that, the first holding the canary; failing that, the last
/// field the case wrote at all (a case that sets attributes or provenance
/// sets them to attack them). Its role is the weightiest delimiter it
/// names: a close ends the frame, so it outranks an open, and the outer
/// token outranks the inner and reserved ones.
pub(super) fn attack_site(templates: &[(Option<Field>, &[Segment])]) -> AttackSite {
    let rank = |field: Option<Field>| match field {
        Some(Field::Content) => 0,
        Some(Field::Kind) => 1,
        Some(Field::Attributes) => 2,
        Some(Field::Provenance) => 3,
        None => 4,
    };
    let mut ordered: Vec<&(Option<Field>, &[Segment])> = templates.iter().collect();
    ordered.sort_by_key(|(field, _)| rank(*field));
    let role_of = |segments: &[Segment]| {
        template::placeholders(segments)
            .filter_map(|p| p.delimiter())
            .map(|(role, form)| DelimiterRole::of(role, form))
            .min()
    };
    if let Some((field, segments)) = ordered.iter().find(|(_, s)| role_of(s).is_some()) {
        return AttackSite {
            field: *field,
            role: role_of(segments),
        };
    }
    let canary = ordered
        .iter()
        .find(|(_, s)| template::placeholders(s).any(|p| p == Placeholder::Canary));
    let field = match canary {
        Some((field, _)) => *field,
        None => ordered.last().and_then(|(field, _)| *field),
    };
    AttackSite { field, role: None }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> Vec<Segment> {
        template::parse(text).unwrap()
    }

    #[test]
    fn the_delimiter_carrying_field_wins_and_close_outranks_open() {
        let content = parse("{open} x {close}");
        let provenance = parse("p {canary}");
        let site = attack_site(&[
            (Some(Field::Provenance), &provenance),
            (Some(Field::Content), &content),
        ]);
        assert_eq!(site.field, Some(Field::Content));
        assert_eq!(site.role, Some(DelimiterRole::Close));
        let inner = parse("{inner_close}{reserved_open}");
        let site = attack_site(&[(Some(Field::Content), &inner)]);
        assert_eq!(site.role, Some(DelimiterRole::Inner));
    }

    #[test]
    fn without_delimiters_the_canary_then_the_last_field_decide() {
        let content = parse("plain");
        let value = parse("Intro\n\nSYSTEM: {canary}");
        let site = attack_site(&[
            (Some(Field::Content), &content),
            (Some(Field::Attributes), &value),
        ]);
        assert_eq!(
            site,
            AttackSite {
                field: Some(Field::Attributes),
                role: None
            }
        );
        let key = parse("a\"b");
        let site = attack_site(&[
            (Some(Field::Content), &content),
            (Some(Field::Attributes), &key),
        ]);
        assert_eq!(site.field, Some(Field::Attributes));
        let read = parse("{frame}{close}");
        let site = attack_site(&[(None, &read)]);
        assert_eq!(
            site,
            AttackSite {
                field: None,
                role: Some(DelimiterRole::Close)
            }
        );
    }
}
