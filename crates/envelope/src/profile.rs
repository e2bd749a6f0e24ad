//! The reference envelope's own profiles, as a run is given them: what the
//! built-in targets `reference` and `reference-nonce` declare. They live
//! with the envelope because they state its token and nonce; the profile
//! model itself knows nothing of the envelope.

use framecheck_core::chat_template::TemplateContext;
use framecheck_core::grammar::GrammarKind;
use framecheck_launch::profile::{
    AdapterSpec, AttributeLayout, BodySection, BuiltinTarget, Capability, Delimiters, FrameProfile,
    FrameSection, HeaderStyle, ReaderSection, TagRole, TargetProfile, WrapSection,
};

/// The profile of a built-in target that runs in-process; `None` for
/// `caller`, whose profile the calling process gives.
pub fn builtin_profile(target: BuiltinTarget) -> Option<TargetProfile> {
    match target {
        BuiltinTarget::Reference => Some(reference_profile()),
        BuiltinTarget::ReferenceNonce => Some(reference_nonce_profile()),
        BuiltinTarget::Caller => None,
    }
}

/// The built-in profile of the reference envelope.
pub fn reference_profile() -> TargetProfile {
    built_in(BuiltinTarget::Reference, reference_framing())
}

/// The built-in `target` writing `framing`. The declarations here are
/// constants the tests below compare with the committed target files, so
/// one that does not validate is a defect of this file.
fn built_in(target: BuiltinTarget, framing: FrameProfile) -> TargetProfile {
    TargetProfile::new(AdapterSpec::builtin(target), framing)
        .unwrap_or_else(|e| panic!("the built-in {} profile is invalid: {e}", target.name()))
}

/// What the reference envelope writes.
fn reference_framing() -> FrameProfile {
    FrameProfile {
        name: "reference".into(),
        description: "framecheck's reference tag envelope (in-process)".into(),
        language: "rust".into(),
        delimiters: Delimiters::simple(GrammarKind::XmlTag, super::TOKEN),
        header: HeaderStyle::BlankLine.into(),
        attributes: AttributeLayout {
            on: TagRole::Outer,
            kind: Some("kind".into()),
            extra: vec![],
            names: None,
        },
        body_padding: None,
        frame: FrameSection::default(),
        body: BodySection::default(),
        wrap: WrapSection::default(),
        reader: ReaderSection::default(),
        records: None,
        capabilities: vec![
            Capability::Wrap,
            Capability::Read,
            Capability::Attributes,
            Capability::Provenance,
            Capability::Kind,
        ],
        source: None,
        packages: Vec::new(),
        chat_template: TemplateContext::default(),
    }
}

/// The built-in profile of the reference envelope in nonce mode
/// ([`super::nonce`]): the same envelope, its tag name the
/// token, a hyphen and a per-call nonce of 32 hex digits.
pub fn reference_nonce_profile() -> TargetProfile {
    let mut framing = reference_framing();
    framing.name = "reference-nonce".into();
    framing.description = "framecheck's reference tag envelope in nonce mode (in-process)".into();
    framing.delimiters.token = format!("{}-{}", super::TOKEN, "{nonce}");
    framing.delimiters.nonce = Some(framecheck_core::grammar::NonceSpec {
        alphabet: framecheck_core::grammar::NonceAlphabet::Hex,
        min_length: Some(super::nonce::NONCE_LEN),
    });
    built_in(BuiltinTarget::ReferenceNonce, framing)
}

#[cfg(test)]
mod tests {
    use framecheck_launch::profile::TargetProfile;

    /// `targets/reference*.yaml` declare the built-in targets (and the core
    /// crate's own tests read `reference.yaml` in place of the envelope's
    /// profile, which they cannot reach): the files and the profiles here
    /// must say the same.
    #[test]
    fn the_committed_target_files_are_the_built_in_profiles() {
        let parse = |text: &str| TargetProfile::parse(text).expect("a committed target parses");
        assert_eq!(
            parse(include_str!("../../../targets/reference.yaml")),
            super::reference_profile()
        );
        assert_eq!(
            parse(include_str!("../../../targets/reference-nonce.yaml")),
            super::reference_nonce_profile()
        );
    }
}
