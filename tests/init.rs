//! `framecheck init` against the shape fixtures: the proposed profile
//! validates, and its guesses (grammar, token, encoding, header) are the
//! fixture's own declarations.

mod common;

use std::path::Path;

use framecheck::grammar::GrammarKind;
use framecheck::layout::init::{propose_for_command, propose_for_profile};
use framecheck::profile::{AdapterSpec, BodyEncoding, HeaderStyle, TargetProfile};

/// Proposes a profile for a fixture adapter and parses it back.
fn propose(dir: &str, script: &str) -> TargetProfile {
    let cwd = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/shapes")
        .join(dir);
    let yaml = propose_for_command(vec!["python3".into(), script.into()], &cwd)
        .unwrap_or_else(|e| panic!("{dir}/{script}: {e}"));
    TargetProfile::parse(&yaml).unwrap_or_else(|e| panic!("{dir}/{script}: {e}\n{yaml}"))
}

#[test]
fn proposals_validate_and_match_the_fixtures_declarations() {
    if !common::have(
        "python3",
        "proposals_validate_and_match_the_fixtures_declarations",
    ) {
        return;
    }
    let preamble = propose("preamble", "correct.py");
    // The language, which the command tells, is proposed (a GUESS).
    assert_eq!(preamble.language, "Python");
    assert_eq!(preamble.delimiters.grammar, GrammarKind::XmlTag);
    assert_eq!(preamble.delimiters.token, "external-data");
    assert_eq!(preamble.body.encoding, Some(BodyEncoding::None));

    let markers = propose("begin-end", "correct_angle.py");
    assert_eq!(markers.delimiters.grammar, GrammarKind::BeginEnd);

    let fence = propose("fence", "correct.py");
    assert_eq!(fence.delimiters.grammar, GrammarKind::Fence);

    let lines = propose("fixed-lines", "correct.py");
    assert_eq!(lines.header.style, HeaderStyle::Lines);

    let separated = propose("separator-header", "correct.py");
    assert_eq!(separated.delimiters.grammar, GrammarKind::BeginEnd);
    assert_eq!(separated.header.style, HeaderStyle::Separator);
    assert_eq!(separated.header.separator.as_deref(), Some("---"));
}

/// `init` on a built-in profile drives that built-in target: the nonce
/// reference is calibrated as itself, and its proposal keeps the adapter and
/// declares the nonce, so it validates.
#[test]
fn a_builtin_profile_is_proposed_from_its_own_target() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("targets/reference-nonce.yaml");
    let loaded = TargetProfile::load(&path).expect("the nonce reference's profile loads");
    let yaml = propose_for_profile(&loaded).expect("a proposal");
    let proposed = TargetProfile::parse(&yaml).unwrap_or_else(|e| panic!("{e}\n{yaml}"));
    assert!(
        matches!(&proposed.adapter, AdapterSpec::Builtin { builtin } if builtin == "reference-nonce"),
        "{yaml}"
    );
    assert!(proposed.delimiters.nonce.is_some(), "{yaml}");
    // A stated language is kept as written.
    assert_eq!(proposed.language, "rust", "{yaml}");
    assert!(
        yaml.contains("{nonce:hex"),
        "the learned layout shows the nonce:\n{yaml}"
    );
}
