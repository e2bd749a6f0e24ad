//! The reference envelope's nonce mode as a target: in-process
//! (`--target reference-nonce`), over the protocol (`serve-reference
//! --nonce`), its profile, and its committed, reproducible report.

use crate::common;
use common::{framecheck, load_report, repo};

use std::path::Path;
use std::process::Output;

use framecheck::level::ReaderLevel;
use framecheck::runner::{Outcome, RunResult, Verdict};

/// Runs `target` with `--reproducible` and `extra` arguments into `out`.
fn run(target: &str, out: &Path, extra: &[&str]) -> Output {
    let mut args = vec![
        "run",
        "--target",
        target,
        "--reproducible",
        "--out",
        out.to_str().unwrap(),
    ];
    args.extend_from_slice(extra);
    framecheck(&args)
}

#[test]
fn profile_files_match_the_builtin() {
    common::assert_profile_files_match(
        "reference-nonce",
        &framecheck::envelope::reference_nonce_profile(),
        &["framecheck", "serve-reference", "--nonce"],
    );
    // The nonce profile differs from the plain one in its name, adapter and
    // token only.
    let plain = framecheck::envelope::reference_nonce_profile()
        .edit(|p| {
            p.name = "reference".into();
            p.description = framecheck::envelope::reference_profile()
                .description
                .clone();
            p.delimiters = framecheck::envelope::reference_profile().delimiters.clone();
        })
        .unwrap()
        .with_adapter(framecheck::envelope::reference_profile().adapter)
        .unwrap();
    assert_eq!(plain, framecheck::envelope::reference_profile());
}

/// The whole catalogue and the nonce probes pass at the unicode level with
/// no finding of any class; two `--reproducible` runs write the same bytes,
/// which are the committed reports, and no random value is in them.
#[test]
fn the_nonce_reference_passes_and_its_report_is_reproducible() {
    let (a, b) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    // As reports/regenerate.sh writes it: with the embedded tokenizer views.
    let views = ["--view", "tok:cl100k", "--view", "tok:o200k"];
    let first = run("reference-nonce", a.path(), &views);
    let second = run("reference-nonce", b.path(), &views);
    assert_eq!(first.status.code(), Some(0), "{first:?}");
    assert_eq!(second.status.code(), Some(0));
    for ext in ["json", "md", "junit.xml", "sarif", "html"] {
        let name = format!("reference-nonce.{ext}");
        let x = std::fs::read(a.path().join(&name)).unwrap();
        let y = std::fs::read(b.path().join(&name)).unwrap();
        assert!(x == y, "{name} differs between two --reproducible runs");
        let committed = std::fs::read(repo().join("reports").join(&name)).unwrap();
        assert!(
            x == committed,
            "reports/{name} is not what `framecheck run --target reference-nonce --reproducible` writes now"
        );
    }
    let report = load_report(&a.path().join("reference-nonce.json"));
    assert_no_finding_and_every_probe_passes(&report);
    let md = std::fs::read_to_string(a.path().join("reference-nonce.md")).unwrap();
    assert!(md.contains("nonce values redacted"), "{md}");
    assert_no_live_random_value(
        &String::from_utf8(std::fs::read(a.path().join("reference-nonce.json")).unwrap()).unwrap(),
    );
}

fn assert_no_finding_and_every_probe_passes(report: &RunResult) {
    let mut probes = Vec::new();
    for result in &report.results {
        // No finding of any class: security, fidelity, confusable or
        // outer-layer.
        if let Outcome::Judged { findings } = &result.outcome {
            assert!(findings.is_empty(), "{}: {findings:#?}", result.case.id);
        }
        assert!(
            !matches!(result.outcome, Outcome::Error { .. }),
            "{}: {:?}",
            result.case.id,
            result.outcome
        );
        // Every nonce case passes; the probes among them are counted.
        if result.case.id.starts_with("nonce-") {
            assert_eq!(
                result.verdict_at(ReaderLevel::Unicode),
                Verdict::Pass,
                "{}",
                result.case.id
            );
        }
        if framecheck::nonce::is_probe(&result.case) {
            assert_eq!(
                result.verdict_at(ReaderLevel::Unicode),
                Verdict::Pass,
                "{}",
                result.case.id
            );
            probes.push(result.case.id.as_str());
        }
    }
    probes.sort_unstable();
    assert_eq!(
        probes,
        [
            "nonce-reader-mismatch",
            "nonce-replay",
            "nonce-unpredictable"
        ]
    );
}

/// Every tag name in the report carries a redaction label or the catalogue's
/// fixed forged value, never a value the target drew.
fn assert_no_live_random_value(json: &str) {
    let stem = "framecheck-untrusted-";
    let mut labelled = 0;
    for (at, _) in json.match_indices(stem) {
        let value = &json[at + stem.len()..];
        if value.starts_with("{nonce-") {
            labelled += 1;
            continue;
        }
        let hex: String = value.chars().take_while(char::is_ascii_hexdigit).collect();
        assert!(
            hex.len() < 32 || hex.starts_with("0123456789abcdef"),
            "an unredacted value: {}",
            &json[at..at + stem.len() + 40]
        );
    }
    assert!(labelled > 1000, "only {labelled} redacted tag names");
}

/// Over the protocol (`serve-reference --nonce`), the same cases get the
/// same verdicts and, redacted, the same evidence as in-process.
#[test]
fn serve_reference_nonce_matches_the_in_process_target() {
    let (a, b) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let only = [
        "--only", "nonce*", "--only", "breakout", "--only", "reader", "--format", "json",
    ];
    let inside = run("reference-nonce", a.path(), &only);
    let outside = run("reference-nonce-subprocess", b.path(), &only);
    assert_eq!(inside.status.code(), Some(0), "{inside:?}");
    assert_eq!(outside.status.code(), Some(0), "{outside:?}");
    let inside = load_report(&a.path().join("reference-nonce.json"));
    let outside = load_report(&b.path().join("reference-nonce-subprocess.json"));
    assert!(inside.results.len() > 200, "{}", inside.results.len());
    assert_eq!(inside.results.len(), outside.results.len());
    for (x, y) in inside.results.iter().zip(&outside.results) {
        assert_eq!(x, y, "{} differs over the protocol", x.case.id);
    }
}
