//! A framing's delimiter declaration (`delimiters:` in a profile): the
//! grammar's name and the vocabulary it is built over. It lives beside the
//! grammars because every shape reads and writes it: `init`'s inference
//! experiments ([`super::Shape::guesses`]) answer one, and
//! [`Delimiters::try_grammar`] builds the grammar it names. The profile
//! re-exports it and checks it against the rest of the profile; a validated
//! profile ([`crate::profile::ResolvedProfile`]) keeps the one grammar its
//! delimiters were built into, so a declaration carries no grammar itself.

use serde::{Deserialize, Serialize};

use super::{
    Grammar, GrammarError, GrammarKind, LiteralEscape, NonceSpec, SectionMarker, TokenPattern,
    Vocabulary,
};

/// The delimiter vocabulary of a framing.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Delimiters {
    /// The delimiter grammar (`syntax` is the v1 spelling of the key).
    #[serde(alias = "syntax")]
    pub grammar: GrammarKind,
    /// The outer token: `framecheck-untrusted`, `A2A_RESULT_FROM_PEER`,
    /// `context`; may carry a `{nonce}`. A fence's info string (may be empty).
    pub token: String,
    /// An element inside the outer one that holds the content (`source`).
    #[serde(default)]
    pub inner: Option<String>,
    /// Further structural tokens content must not forge (`note`).
    #[serde(default)]
    pub reserved: Vec<String>,
    /// `begin-end` only: the opening marker template (`<<<{token}>>>`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub open: Option<String>,
    /// `begin-end` only: the closing marker template (`<<<END_{token}>>>`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub close: Option<String>,
    /// The per-call variable part that `{nonce}` stands for.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub nonce: Option<NonceSpec>,
    /// `section` only: how a section marker is spelled (`field-marker`,
    /// `heading`, `label`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub marker: Option<SectionMarker>,
    /// `string-literal` only: how the literal escapes a quote of its text
    /// (`backslash`, `none`); `backslash` when not declared.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub escape: Option<LiteralEscape>,
    /// Set by `delimiters: none`: the framing writes no marker around the
    /// content. The other fields are then placeholders nothing may read:
    /// the runner judges such a profile by its own rule (no catalogue case
    /// runs, `crates/run/src/runner/unmarked.rs`) and instantiates no case.
    #[serde(skip)]
    pub absent: bool,
}

impl Delimiters {
    /// These delimiters with the nonce removed from the token and templates
    /// as a forger would drop it ([`super::without_nonce`]), and no
    /// nonce declared: the delimiters of the marker an attacker writes
    /// without the value.
    pub fn bare(&self) -> Delimiters {
        let mut bare = self.clone();
        bare.nonce = None;
        bare.token = super::without_nonce(&self.token);
        bare.open = self.open.as_deref().map(super::without_nonce);
        bare.close = self.close.as_deref().map(super::without_nonce);
        bare
    }

    /// These delimiters as the framing writes them for a request of kind
    /// `kind`: every `{kind…}` spelled ([`super::with_kind`]). What the
    /// catalogue forges a case's own opener and closer from.
    pub fn with_kind(&self, kind: &str) -> Delimiters {
        let mut own = self.clone();
        let spell = |t: &str| super::with_kind(t, kind);
        own.token = spell(&self.token);
        own.inner = self.inner.as_deref().map(spell);
        own.reserved = self.reserved.iter().map(|t| spell(t)).collect();
        own.open = self.open.as_deref().map(spell);
        own.close = self.close.as_deref().map(spell);
        own
    }

    /// These delimiters with the request's kind in the outer token written
    /// as a `{kind…}` placeholder, when `output`, a wrap of kind `second`,
    /// shows the name follows the kind (`init`'s experiment,
    /// [`super::token::kind_in_token`]) and the result still validates.
    pub fn naming_kind(&self, first: &str, second: &str, output: &str) -> Option<Delimiters> {
        let token = super::token::kind_in_token(&self.token, first, second, output)?;
        let named = Delimiters {
            token,
            ..self.clone()
        };
        named.validate().is_ok().then_some(named)
    }

    /// Whether the outer token names the request's kind (`{kind}_output`).
    pub fn has_kind(&self) -> bool {
        TokenPattern::parse(&self.token).has_kind()
    }

    /// Delimiters of `grammar` with one token and nothing else.
    pub fn simple(grammar: GrammarKind, token: &str) -> Delimiters {
        Delimiters {
            grammar,
            token: token.into(),
            inner: None,
            reserved: Vec::new(),
            open: None,
            close: None,
            nonce: None,
            marker: None,
            escape: None,
            absent: false,
        }
    }

    /// `delimiters: none`: no marker around the content. The grammar and
    /// token are placeholders ([`Delimiters::absent`]).
    pub fn none() -> Delimiters {
        Delimiters {
            absent: true,
            ..Delimiters::simple(GrammarKind::XmlTag, "none")
        }
    }

    /// Every structural token: outer, inner, reserved.
    pub fn all_tokens(&self) -> Vec<&str> {
        std::iter::once(self.token.as_str())
            .chain(self.inner.as_deref())
            .chain(self.reserved.iter().map(String::as_str))
            .collect()
    }

    /// The tokens and nonce as a grammar matches them.
    pub fn vocabulary(&self) -> Vocabulary {
        Vocabulary {
            tokens: self
                .all_tokens()
                .into_iter()
                .map(TokenPattern::parse)
                .collect(),
            nonce: self.nonce,
        }
    }

    /// Builds the declared grammar, or says why the declaration is unusable.
    pub fn try_grammar(&self) -> Result<Box<dyn Grammar>, GrammarError> {
        super::build_declared(
            self.grammar,
            self.vocabulary(),
            self.open.as_deref(),
            self.close.as_deref(),
            self.marker,
            self.escape,
        )
    }
}
