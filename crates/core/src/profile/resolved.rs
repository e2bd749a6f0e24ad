//! A frame description that passed validation, with the grammar it was
//! built into.
//!
//! [`FrameProfile`] is the declaration as written: public fields that
//! inference, search and tests change freely. What judges a framing reads a
//! [`ResolvedProfile`] instead: it is made only by validating a declaration
//! ([`FrameProfile::resolve`]), its grammar is built once then, and it cannot
//! be changed in place, so the grammar always is the one its delimiters
//! declare. A changed profile is a new declaration resolved again
//! ([`ResolvedProfile::edit`]).

use std::sync::Arc;

use super::{Capability, Delimiters, FrameProfile, HeaderSpec, InvalidProfile};
use crate::grammar::Grammar;

/// A validated frame description and its grammar.
#[derive(Clone)]
pub struct ResolvedProfile {
    declared: FrameProfile,
    grammar: Arc<dyn Grammar>,
}

impl FrameProfile {
    /// Validates the declaration and builds its grammar, once.
    pub fn resolve(self) -> Result<ResolvedProfile, InvalidProfile> {
        let grammar = self.validated_grammar()?;
        Ok(ResolvedProfile {
            declared: self,
            grammar,
        })
    }
}

impl ResolvedProfile {
    /// A profile named `name` writing `delimiters`, every other part at
    /// its default and only the `wrap` capability: the start of a
    /// [`ProfileBuilder`].
    pub fn builder(name: &str, delimiters: Delimiters) -> ProfileBuilder {
        ProfileBuilder {
            declared: FrameProfile::new(name, delimiters),
        }
    }

    /// The grammar the delimiters declare, built when the profile was
    /// resolved.
    pub fn grammar(&self) -> Arc<dyn Grammar> {
        Arc::clone(&self.grammar)
    }

    /// The declaration as written.
    pub fn declared(&self) -> &FrameProfile {
        &self.declared
    }

    /// The declaration, to change and resolve again.
    pub fn into_declared(self) -> FrameProfile {
        self.declared
    }

    /// This profile with `change` made to its declaration, validated and
    /// resolved again: the grammar validation builds is kept only when the
    /// delimiters changed.
    pub fn edit(
        &self,
        change: impl FnOnce(&mut FrameProfile),
    ) -> Result<ResolvedProfile, InvalidProfile> {
        let mut declared = self.declared.clone();
        change(&mut declared);
        let rebuilt = declared.validated_grammar()?;
        // An unchanged declaration keeps the grammar it was built into, so
        // that renaming a profile does not make a second grammar.
        let grammar = match declared.delimiters == self.declared.delimiters {
            true => Arc::clone(&self.grammar),
            false => rebuilt,
        };
        Ok(ResolvedProfile { declared, grammar })
    }
}

impl ResolvedProfile {
    /// This profile read by `consumer` alone, as the oracle judges a frame
    /// with several consumers once for each. Not validated again: a reader
    /// narrowed to one of its consumers is valid whenever the whole one is
    /// (one consumer, a model's lines the default), and the delimiters,
    /// so the grammar, are unchanged.
    pub(crate) fn for_consumer(&self, consumer: super::Consumer) -> ResolvedProfile {
        let mut declared = self.declared.clone();
        declared.reader = self.declared.reader.for_consumer(consumer);
        ResolvedProfile {
            declared,
            grammar: Arc::clone(&self.grammar),
        }
    }
}

/// A resolved profile is read as its declaration; there is no way to
/// change one in place.
impl std::ops::Deref for ResolvedProfile {
    type Target = FrameProfile;

    fn deref(&self) -> &FrameProfile {
        &self.declared
    }
}

/// Two resolved profiles are equal when their declarations are: the
/// grammar follows from the delimiters.
impl PartialEq for ResolvedProfile {
    fn eq(&self, other: &Self) -> bool {
        self.declared == other.declared
    }
}

impl Eq for ResolvedProfile {}

/// Printed as its declaration, so a profile prints the same resolved or not.
impl std::fmt::Debug for ResolvedProfile {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.declared.fmt(f)
    }
}

/// Builds a [`ResolvedProfile`] part by part, for code and tests that make
/// a profile without a file; [`ProfileBuilder::build`] validates it.
#[derive(Debug, Clone)]
pub struct ProfileBuilder {
    declared: FrameProfile,
}

impl ProfileBuilder {
    /// The header after the opening delimiter.
    pub fn header(mut self, header: impl Into<HeaderSpec>) -> ProfileBuilder {
        self.declared.header = header.into();
        self
    }

    /// What the framing supports (`wrap` must be among them).
    pub fn capabilities(mut self, capabilities: &[Capability]) -> ProfileBuilder {
        self.declared.capabilities = capabilities.to_vec();
        self
    }

    /// Any other part of the declaration.
    pub fn with(mut self, change: impl FnOnce(&mut FrameProfile)) -> ProfileBuilder {
        change(&mut self.declared);
        self
    }

    /// The profile, validated and resolved.
    pub fn build(self) -> Result<ResolvedProfile, InvalidProfile> {
        self.declared.resolve()
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::ResolvedProfile;
    use crate::grammar::{Form, GrammarKind};
    use crate::profile::{Capability, Delimiters, FrameProfile, HeaderStyle, InvalidKind};

    fn context() -> ResolvedProfile {
        ResolvedProfile::builder("t", Delimiters::simple(GrammarKind::XmlTag, "context"))
            .header(HeaderStyle::None)
            .build()
            .unwrap()
    }

    #[test]
    fn resolving_builds_the_declared_grammar_once() {
        let profile = context();
        assert!(Arc::ptr_eq(&profile.grammar(), &profile.clone().grammar()));
        assert_eq!(
            profile.grammar().render(Form::Close, 0).plain(),
            "</context>"
        );
        assert_eq!(profile.capabilities, [Capability::Wrap]);
    }

    #[test]
    fn an_edit_is_validated_and_rebuilds_only_a_changed_grammar() {
        let profile = context();
        let renamed = profile.edit(|p| p.name = "u".into()).unwrap();
        assert!(Arc::ptr_eq(&profile.grammar(), &renamed.grammar()));
        let retokened = profile.edit(|p| p.delimiters.token = "doc".into()).unwrap();
        assert_eq!(retokened.grammar().render(Form::Close, 0).plain(), "</doc>");
        assert_eq!(
            profile.grammar().render(Form::Close, 0).plain(),
            "</context>"
        );
        let error = profile.edit(|p| p.capabilities.clear()).unwrap_err();
        assert_eq!(error.kind, InvalidKind::NoWrap);
        let error = profile
            .edit(|p| p.delimiters.token = "a<b".into())
            .unwrap_err();
        assert!(matches!(error.kind, InvalidKind::BadToken(_)), "{error}");
    }

    #[test]
    fn an_invalid_declaration_does_not_resolve() {
        let mut declared = FrameProfile::new("a b", Delimiters::simple(GrammarKind::XmlTag, "t"));
        assert!(matches!(
            declared.clone().resolve().unwrap_err().kind,
            InvalidKind::BadName(_)
        ));
        declared.name = "ab".into();
        assert_eq!(declared.clone().resolve().unwrap().declared(), &declared);
    }

    #[test]
    fn a_parsed_target_s_frame_resolves_to_its_own_grammar() {
        let target = crate::profile::reference_for_tests();
        let resolved = target.framing.declared().clone().resolve().unwrap();
        assert_eq!(resolved, target.framing);
        assert_eq!(
            resolved.grammar().render(Form::Close, 0).plain(),
            format!("</{}>", target.delimiters.token)
        );
    }
}
