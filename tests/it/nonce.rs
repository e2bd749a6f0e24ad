//! What the report says of a nonce framing's run: the confusables the
//! probes record are listed apart and fail nothing. The probes themselves
//! are the run crate's tests (`crates/run/tests/it/nonce.rs`); this one stays
//! here because it renders the report.

use crate::common::{nonce_profile, random_hex};
use crate::nonce_framing::NonceFraming;

#[test]
fn confusables_are_reported_apart_and_fail_nothing() {
    use framecheck::level::ReaderLevel;
    use framecheck::runner::{self, RunOptions, Verdict};
    let mut framing = NonceFraming {
        nonce: |_: &str| random_hex(),
        strict_reader: true,
    };
    let options = RunOptions::default();
    let run = runner::run(&[], &nonce_profile(), &mut framing, &options, &mut |_| {});
    let replay = run
        .results
        .iter()
        .find(|r| r.case.id == "nonce-replay")
        .expect("the replay probe ran");
    assert_eq!(replay.verdict_at(ReaderLevel::Unicode), Verdict::Pass);
    let markdown = framecheck::report::markdown::render(&run);
    assert!(
        markdown.contains("## Confusables (not failures)"),
        "{markdown}"
    );
    assert!(markdown.contains("- `nonce-replay`"), "{markdown}");
    assert!(
        !markdown.contains("## Weaknesses at a glance"),
        "{markdown}"
    );
}
