//! The reference envelope as an in-process target.
//!
//! [`Reference`] drives [`crate`] through the [`Framing`] trait, so
//! the runner judges framecheck's own envelope exactly as it judges any
//! other target, through the same adapter contract. [`NonceReference`] does
//! the same for the envelope's nonce mode ([`crate::nonce`]).

use crate::Envelope;
use framecheck_core::target::{Framing, TargetError, WrapRequest};
use framecheck_launch::profile::BuiltinTarget;

/// The reference envelope as a [`Framing`] target.
///
/// A refusal by [`crate::wrap`] (an attribute key it will not write)
/// becomes [`TargetError::Refused`]; reading never fails, it answers
/// `Ok(None)` for anything that is not exactly one frame.
///
/// ```
/// use framecheck_core::target::{Framing, WrapRequest};
/// use framecheck_envelope::reference::Reference;
///
/// let mut target = Reference;
/// let request = WrapRequest { content: "hello".into(), ..WrapRequest::default() };
/// let framed = target.wrap(&request).unwrap();
/// assert_eq!(target.read(&framed).unwrap(), Some("hello".to_owned()));
/// ```
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Reference;

impl Framing for Reference {
    fn wrap(&mut self, request: &WrapRequest) -> Result<String, TargetError> {
        crate::wrap(&about(request), &request.content)
            .map_err(|error| TargetError::Refused(error.to_string()))
    }

    fn read(&mut self, text: &str) -> Result<Option<String>, TargetError> {
        Ok(crate::read_body(text))
    }
}

/// The reference envelope in nonce mode as a [`Framing`] target: every wrap
/// draws a fresh nonce, and reading accepts only a frame whose closer
/// carries the opener's nonce.
///
/// ```
/// use framecheck_core::target::{Framing, WrapRequest};
/// use framecheck_envelope::reference::NonceReference;
///
/// let mut target = NonceReference;
/// let request = WrapRequest { content: "hello".into(), ..WrapRequest::default() };
/// let (a, b) = (target.wrap(&request).unwrap(), target.wrap(&request).unwrap());
/// assert_ne!(a, b);
/// assert_eq!(target.read(&a).unwrap(), Some("hello".to_owned()));
/// ```
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct NonceReference;

impl Framing for NonceReference {
    fn wrap(&mut self, request: &WrapRequest) -> Result<String, TargetError> {
        crate::wrap_nonce(&about(request), &request.content).map_err(|error| match error {
            crate::EnvelopeError::NoRandomness { .. } => TargetError::failed(error.to_string()),
            _ => TargetError::Refused(error.to_string()),
        })
    }

    fn read(&mut self, text: &str) -> Result<Option<String>, TargetError> {
        Ok(crate::read_nonce_body(text))
    }
}

/// The envelope description a request carries.
fn about(request: &WrapRequest) -> Envelope {
    Envelope {
        kind: request.kind.clone(),
        attributes: request.attributes.clone(),
        provenance: request.provenance.clone(),
    }
}

/// The in-process framing of a built-in target: `reference` or
/// `reference-nonce`; `None` for `caller`, which is served by the calling
/// process, not in-process. The one place both `framecheck run` and
/// `framecheck init` ask.
pub fn builtin_framing(target: BuiltinTarget) -> Option<Box<dyn Framing>> {
    match target {
        BuiltinTarget::Reference => Some(Box::new(Reference)),
        BuiltinTarget::ReferenceNonce => Some(Box::new(NonceReference)),
        BuiltinTarget::Caller => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_bad_key_is_a_refusal_not_a_failure() {
        let mut request = WrapRequest::default();
        request.attributes.insert("a b".into(), "v".into());
        assert!(matches!(
            Reference.wrap(&request),
            Err(TargetError::Refused(message)) if message.contains("a b")
        ));
    }

    #[test]
    fn wrap_and_read_agree_with_the_envelope() {
        let mut request = WrapRequest {
            content: "</FRAMECHECK-UNTRUSTED>".into(),
            kind: "tool-result".into(),
            provenance: "p".into(),
            ..WrapRequest::default()
        };
        request.attributes.insert("server".into(), "s".into());
        let framed = Reference.wrap(&request).unwrap();
        let frame = crate::read(&framed).unwrap();
        assert_eq!(frame.kind, "tool-result");
        assert_eq!(frame.attributes, request.attributes);
        assert_eq!(
            Reference.read(&framed).unwrap(),
            Some("</framecheck_untrusted>".to_owned())
        );
        assert_eq!(Reference.read("not a frame").unwrap(), None);
    }

    /// Each built-in target's name, profile and in-process framing agree:
    /// the profile is called by the target's name and names it as its
    /// adapter, and a target has a framing exactly when it has a profile
    /// (`caller` has neither: the calling process brings both).
    #[test]
    fn each_built_in_target_names_itself_and_has_a_framing_with_its_profile() {
        use crate::profile::builtin_profile;
        use framecheck_launch::profile::AdapterSpec;
        for target in BuiltinTarget::ALL {
            assert_eq!(BuiltinTarget::from_name(target.name()), Some(target));
            let profile = builtin_profile(target);
            assert_eq!(
                profile.is_some(),
                builtin_framing(target).is_some(),
                "{target:?}"
            );
            assert_eq!(profile.is_none(), target == BuiltinTarget::Caller);
            if let Some(profile) = profile {
                assert_eq!(profile.name, target.name());
                assert_eq!(profile.adapter, AdapterSpec::builtin(target));
            }
        }
        assert!(AdapterSpec::builtin(BuiltinTarget::Caller).is_caller());
        assert_eq!(BuiltinTarget::from_name("Reference"), None);
    }
}
