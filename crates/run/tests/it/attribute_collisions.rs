//! Caller attribute keys that collide with the framing's own attribute
//! names, in any case, or with each other after case folding. A framing
//! that writes a second `kind` fails tag.integrity at every level; one that
//! writes `Kind` beside its own `kind` fails from the case-folding reader up.

use framecheck_core::catalogue;
use framecheck_core::level::ReaderLevel;
use framecheck_core::oracle::Check;
use framecheck_run::adapter::reference::Reference;
use framecheck_run::adapter::{Framing, TargetError, WrapRequest};
use framecheck_run::runner::{self, CaseResult, Outcome, RunOptions, RunResult, Verdict};

/// Writes its own `kind`, then every caller key as given (values escaped).
struct WritesKeysRaw;

fn escape(value: &str) -> String {
    value
        .replace('&', "&amp;")
        .replace('"', "&quot;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

impl Framing for WritesKeysRaw {
    fn wrap(&mut self, request: &WrapRequest) -> Result<String, TargetError> {
        let attributes: String = request
            .attributes
            .iter()
            .map(|(k, v)| format!(" {k}=\"{}\"", escape(v)))
            .collect();
        Ok(format!(
            "<framecheck-untrusted kind=\"{}\"{attributes}>\nProvenance: x\n\n{}\n</framecheck-untrusted>",
            escape(&request.kind),
            request.content
        ))
    }
    fn read(&mut self, text: &str) -> Result<Option<String>, TargetError> {
        Reference.read(text)
    }
}

fn collisions(framing: &mut dyn Framing) -> RunResult {
    let profile = framecheck_envelope::reference_profile();
    let cases = catalogue::select(
        catalogue::instantiate(&catalogue::builtin(), &profile),
        &[
            "attr-key-kind-*".to_string(),
            "attr-key-id-and-nonce-collisions".to_string(),
            "attr-key-duplicates-after-case-folding".to_string(),
        ],
    )
    .unwrap();
    assert_eq!(cases.len(), 5);
    runner::run(
        &cases,
        &profile,
        framing,
        &RunOptions::default(),
        &mut |_| {},
    )
}

fn result<'a>(run: &'a RunResult, id: &str) -> &'a CaseResult {
    run.results.iter().find(|r| r.case.id == id).unwrap()
}

fn tag_integrity_levels(result: &CaseResult) -> Vec<ReaderLevel> {
    match &result.outcome {
        Outcome::Judged { findings } => findings
            .iter()
            .filter(|f| f.check == Check::TagIntegrity)
            .flat_map(|f| f.levels.clone())
            .collect(),
        _ => Vec::new(),
    }
}

#[test]
fn a_second_kind_attribute_fails_tag_integrity_at_every_level() {
    let run = collisions(&mut WritesKeysRaw);
    let exact = result(&run, "attr-key-kind-exact");
    assert_eq!(exact.verdict_at(ReaderLevel::Exact), Verdict::Fail);
    assert_eq!(tag_integrity_levels(exact).len(), 3);
}

#[test]
fn a_case_variant_of_an_own_name_fails_for_readers_that_fold_case() {
    let run = collisions(&mut WritesKeysRaw);
    for id in [
        "attr-key-kind-capitalised",
        "attr-key-kind-upper",
        "attr-key-duplicates-after-case-folding",
    ] {
        let case = result(&run, id);
        // An XML parser compares names byte for byte: no duplicate for it.
        assert_eq!(case.verdict_at(ReaderLevel::Exact), Verdict::Pass, "{id}");
        assert_eq!(
            case.verdict_at(ReaderLevel::AsciiCaseInsensitive),
            Verdict::Fail,
            "{id}"
        );
        assert!(tag_integrity_levels(case).contains(&ReaderLevel::Unicode));
    }
}

#[test]
fn the_reference_refuses_every_collision() {
    let run = collisions(&mut Reference);
    for r in &run.results {
        assert_eq!(
            r.verdict_at(ReaderLevel::Unicode),
            Verdict::Refused,
            "{}",
            r.case.id
        );
    }
}
