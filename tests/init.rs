//! `framecheck init` against the shape fixtures: the proposed profile
//! validates, and its guesses (grammar, token, encoding, header) are the
//! fixture's own declarations.

use std::path::Path;
use std::process::Command;

use framecheck::grammar::GrammarKind;
use framecheck::layout::init::propose_for_command;
use framecheck::profile::{BodyEncoding, HeaderStyle, TargetProfile};

fn python_available() -> bool {
    let found = Command::new("python3").arg("--version").output().is_ok();
    if !found {
        assert!(
            std::env::var_os("CI").is_none(),
            "python3 is required in CI"
        );
        eprintln!("SKIP: python3 not found");
    }
    found
}

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
    if !python_available() {
        return;
    }
    let preamble = propose("preamble", "correct.py");
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
