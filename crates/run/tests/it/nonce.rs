//! The nonce probes against in-process framings written the way real ones
//! are: a correct one (fresh random value, strict reader) and broken ones,
//! each caught by the right check and no other.

use crate::common;
use crate::nonce_framing::NonceFraming;

use common::random_hex;

use std::collections::BTreeSet;

use framecheck_core::oracle::{Check, CheckClass};
use framecheck_launch::profile::TargetProfile;
use framecheck_run::nonce_probe::probe;
use framecheck_run::runner::{CaseResult, Outcome};
use sha2::{Digest, Sha256};

fn profile() -> TargetProfile {
    common::nonce_profile()
}

fn run(nonce: impl FnMut(&str) -> String, strict_reader: bool) -> Vec<CaseResult> {
    let mut framing = NonceFraming {
        nonce,
        strict_reader,
    };
    let p = profile();
    // Learned as the runner learns it, so the replay is judged the same way.
    let layout = framecheck_run::runner::learn_layout(&p, &mut framing).expect("a layout");
    let results = probe(&p, &mut framing, Some(&layout), 32);
    let ids: Vec<&str> = results.iter().map(|r| r.case.id.as_str()).collect();
    assert_eq!(
        ids,
        [
            "nonce-unpredictable",
            "nonce-replay",
            "nonce-reader-mismatch"
        ]
    );
    results
}

/// The security checks that failed, per probe.
fn failed(results: &[CaseResult]) -> Vec<(String, BTreeSet<Check>)> {
    results
        .iter()
        .map(|r| {
            let Outcome::Judged { findings } = &r.outcome else {
                panic!("{} was not judged: {:?}", r.case.id, r.outcome);
            };
            let checks = findings
                .iter()
                .filter(|f| f.class == CheckClass::Security)
                .map(|f| f.check)
                .collect();
            (r.case.id.clone(), checks)
        })
        .filter(|(_, checks): &(String, BTreeSet<Check>)| !checks.is_empty())
        .collect()
}

fn message(results: &[CaseResult]) -> String {
    match &results[0].outcome {
        Outcome::Judged { findings } => findings[0].message.clone(),
        other => panic!("{other:?}"),
    }
}

#[test]
fn a_correct_nonce_framing_passes_every_probe() {
    let results = run(|_| random_hex(), true);
    assert_eq!(failed(&results), vec![]);
    // The replayed closer carries a stale value: a confusable, not a breakout.
    let Outcome::Judged { findings } = &results[1].outcome else {
        panic!()
    };
    assert!(findings
        .iter()
        .all(|f| f.check == Check::NonceConfusable && f.class == CheckClass::Confusable));
}

#[test]
fn a_counter_nonce_is_caught_by_unpredictable_only() {
    let mut n = 1000u64;
    let results = run(
        move |_| {
            n += 1;
            format!("{n:016x}")
        },
        true,
    );
    let only = [Check::NonceUnpredictable].into_iter().collect();
    assert_eq!(failed(&results), vec![("nonce-unpredictable".into(), only)]);
    assert!(
        message(&results).contains("counter"),
        "{}",
        message(&results)
    );
}

#[test]
fn a_content_hash_nonce_is_caught_by_unpredictable_only() {
    let results = run(
        |content| {
            let d = Sha256::digest(content.as_bytes());
            d.iter().take(8).map(|b| format!("{b:02x}")).collect()
        },
        true,
    );
    let only = [Check::NonceUnpredictable].into_iter().collect();
    assert_eq!(failed(&results), vec![("nonce-unpredictable".into(), only)]);
    assert!(message(&results).contains("determined by the content"));
}

#[test]
fn a_reused_nonce_is_named_and_its_closer_replays() {
    let fixed = random_hex();
    let results = run(move |_| fixed.clone(), true);
    let failed = failed(&results);
    assert_eq!(failed.len(), 2, "{failed:?}");
    assert_eq!(
        failed[0].1,
        [Check::NonceUnpredictable].into_iter().collect()
    );
    assert!(message(&results).contains("one value for every call"));
    assert_eq!(failed[1].0, "nonce-replay");
    assert!(failed[1].1.contains(&Check::NonceReplay), "{failed:?}");
}

#[test]
fn a_reader_that_ignores_the_nonce_is_caught_by_matched_only() {
    let results = run(|_| random_hex(), false);
    let only = [Check::NonceMatched].into_iter().collect();
    assert_eq!(
        failed(&results),
        vec![("nonce-reader-mismatch".into(), only)]
    );
}
