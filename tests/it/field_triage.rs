//! `field/triage.py` against the committed field reports (issue 55): it
//! counts in the reports' unit and passes on the committed rules and
//! re-checks, and it can fail and say "false": a rule matching nothing, a
//! re-check contradicting its rule, and a rule marking a weakness false.

use std::path::Path;
use std::process::Command;

use crate::common;

/// Runs the triage with `rules` and `rechecks` (the committed files when
/// `None`): its exit code and output.
fn triage(rules: Option<&Path>, rechecks: Option<&Path>) -> (Option<i32>, String) {
    let mut command = Command::new("python3");
    command.arg(common::repo().join("field/triage.py"));
    if let Some(rules) = rules {
        command.arg("--rules").arg(rules);
    }
    if let Some(rechecks) = rechecks {
        command.arg("--rechecks").arg(rechecks);
    }
    let output = command.output().expect("python3 runs");
    let text = String::from_utf8_lossy(&output.stdout).into_owned();
    (output.status.code(), text)
}

fn committed(name: &str) -> String {
    std::fs::read_to_string(common::repo().join("field").join(name)).unwrap()
}

/// The first data line of a TSV file's text.
fn first_rule(text: &str) -> &str {
    text.lines()
        .find(|l| !l.starts_with('#') && !l.trim().is_empty())
        .unwrap()
}

#[test]
fn the_committed_triage_holds_and_can_fail_and_say_false() {
    if !common::have(
        "python3",
        "the_committed_triage_holds_and_can_fail_and_say_false",
    ) {
        return;
    }
    let (code, out) = triage(None, None);
    assert_eq!(code, Some(0), "{out}");
    assert!(out.contains("errors 0"), "{out}");
    // The committed triage's false weaknesses (a framecheck defect left
    // open is counted false, not hidden): flipping one rule adds one.
    let false_weaknesses = |out: &str| -> usize {
        let line = out.lines().find(|l| l.starts_with("weaknesses:")).unwrap();
        line.rsplit("false ")
            .next()
            .unwrap()
            .trim()
            .parse()
            .unwrap()
    };
    let committed_false = false_weaknesses(&out);

    let dir = tempfile::tempdir().unwrap();
    let rules = committed("triage.tsv");
    let rechecks = committed("recheck.tsv");

    // A rule naming a weakness no report has matches nothing: an error.
    let extra = dir.path().join("extra.tsv");
    let line = "pydantic-ai-wrap\tdelimiter.census/spacing/kind/delimiter\t*\ttrue\tnone";
    std::fs::write(&extra, format!("{rules}{line}\n")).unwrap();
    let (code, out) = triage(Some(&extra), None);
    assert_eq!(code, Some(1), "{out}");
    assert!(out.contains("the rule matches nothing"), "{out}");

    // The first rule marked false: its weakness and findings count false,
    // and a re-check that confirmed a finding of it now contradicts it.
    let first = first_rule(&rules);
    let fields: Vec<&str> = first.split('\t').collect();
    let flipped = dir.path().join("flipped.tsv");
    let falsified = first.replacen("\ttrue\t", "\tfalse\t", 1);
    std::fs::write(&flipped, rules.replacen(first, &falsified, 1)).unwrap();
    let (_, out) = triage(Some(&flipped), None);
    assert_eq!(false_weaknesses(&out), committed_false + 1, "{out}");
    // A re-check of that audit refuting a finding of that weakness agrees
    // with the false rule and contradicts the true one.
    let audit_rechecks: Vec<&str> = rechecks
        .lines()
        .filter(|l| l.starts_with(&format!("{}\t", fields[0])))
        .collect();
    assert!(!audit_rechecks.is_empty(), "{} has no re-check", fields[0]);
    let refuted: String = rechecks.replace("\tconfirmed\t", "\trefuted\t");
    let refuted_path = dir.path().join("refuted.tsv");
    std::fs::write(&refuted_path, refuted).unwrap();
    let (code, out) = triage(None, Some(&refuted_path));
    assert_eq!(code, Some(1), "{out}");
    assert!(
        out.contains("re-check refuted, but triage.tsv says true"),
        "{out}"
    );

    // An audit with findings and no recorded re-check fails.
    let none = dir.path().join("none.tsv");
    std::fs::write(&none, "# audit\tcase\tcheck\toutcome\thow\n").unwrap();
    let (code, out) = triage(None, Some(&none));
    assert_eq!(code, Some(1), "{out}");
    assert!(out.contains("no re-checked case"), "{out}");
}

/// Runs the triage over `reports` with `rules` and `rechecks`.
fn triage_in(reports: &Path, rules: &Path, rechecks: &Path) -> (Option<i32>, String) {
    let output = Command::new("python3")
        .arg(common::repo().join("field/triage.py"))
        .args(["--reports".as_ref(), reports.as_os_str()])
        .args(["--rules".as_ref(), rules.as_os_str()])
        .args(["--rechecks".as_ref(), rechecks.as_os_str()])
        .output()
        .expect("python3 runs");
    (
        output.status.code(),
        String::from_utf8_lossy(&output.stdout).into_owned(),
    )
}

/// An audit with two consumers counts one finding per (case, check,
/// consumer), as its report's tally keys say (`check/consumer`): the
/// parser's weakness can be triaged false while the model's is true, and a
/// re-check must say which consumer's finding it re-ran when the case has
/// both.
#[test]
fn the_triage_counts_each_consumer_s_finding() {
    if !common::have("python3", "the_triage_counts_each_consumer_s_finding") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let reports = dir.path().join("reports");
    std::fs::create_dir(&reports).unwrap();
    let model = "delimiter.census/exact/content/delimiter/model";
    let parser = "delimiter.census/exact/content/delimiter/parser";
    let report = serde_json::json!({
        "target": {"name": "two"},
        "counts": {"weaknesses": 2, "findings": 3},
        "weaknesses": [{"id": model, "counted": true}, {"id": parser, "counted": true}],
        "results": [
            {"id": "a", "tally": {"findings": {
                "delimiter.census/model": model, "delimiter.census/parser": parser}}},
            {"id": "b", "tally": {"findings": {"delimiter.census/model": model}}},
        ],
    });
    std::fs::write(reports.join("two.json"), report.to_string()).unwrap();
    let rules = dir.path().join("rules.tsv");
    std::fs::write(
        &rules,
        format!("two\t{model}\t*\ttrue\tr\ntwo\t{parser}\t*\tfalse\tr\n"),
    )
    .unwrap();
    let rechecks = dir.path().join("rechecks.tsv");
    let write = |lines: &str| std::fs::write(&rechecks, lines).unwrap();

    write("two\ta\tdelimiter.census/parser\trefuted\tre-ran\ntwo\tb\tdelimiter.census\tconfirmed\tre-ran\n");
    let (code, out) = triage_in(&reports, &rules, &rechecks);
    assert_eq!(code, Some(0), "{out}");
    assert!(out.contains("weaknesses: 2, true 1, false 1"), "{out}");
    assert!(out.contains("findings: 3, true 2, false 1"), "{out}");

    // A bare check where the case has both consumers' findings names none.
    write("two\ta\tdelimiter.census\trefuted\tre-ran\n");
    let (code, out) = triage_in(&reports, &rules, &rechecks);
    assert_eq!(code, Some(1), "{out}");
    assert!(out.contains("is not a counted finding of two"), "{out}");

    // The parser's finding re-checked as confirmed contradicts its rule.
    write("two\ta\tdelimiter.census/parser\tconfirmed\tre-ran\n");
    let (code, out) = triage_in(&reports, &rules, &rechecks);
    assert_eq!(code, Some(1), "{out}");
    assert!(
        out.contains("re-check confirmed, but triage.tsv says false"),
        "{out}"
    );
}

/// `field/matrix.py` with `args`: its exit code and what it said.
fn matrix(args: &[&std::ffi::OsStr]) -> (Option<i32>, String) {
    let output = Command::new("python3")
        .arg(common::repo().join("field/matrix.py"))
        .args(args)
        .output()
        .expect("python3 runs");
    let said = format!(
        "{}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
    (output.status.code(), said)
}

/// The MCP server matrix (issue 52): the committed page is what
/// `field/matrix.py` writes from the committed reports, pins and
/// `field/matrix.tsv`, and its check fails on a page that is not.
#[test]
fn the_committed_mcp_matrix_is_what_its_command_writes() {
    if !common::have(
        "python3",
        "the_committed_mcp_matrix_is_what_its_command_writes",
    ) {
        return;
    }
    let (code, said) = matrix(&["--check".as_ref()]);
    assert_eq!(code, Some(0), "{said}");
    let dir = tempfile::tempdir().unwrap();
    let page = dir.path().join("MATRIX.md");
    let (code, said) = matrix(&["--page".as_ref(), page.as_os_str()]);
    assert_eq!(code, Some(0), "{said}");
    let written = std::fs::read_to_string(&page).unwrap();
    assert_eq!(written, committed("MATRIX.md"));
    // One row per server in matrix.tsv, each linking its report.
    let servers = committed("matrix.tsv")
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .count();
    let rows = written
        .lines()
        .filter(|l| l.contains("](../reports/field/"))
        .count();
    assert_eq!(rows, servers, "{written}");
    // A stale page (a verdict changed by hand) fails the check.
    let stale = written.replacen("unframed", "pass", 1);
    std::fs::write(&page, stale).unwrap();
    let (code, said) = matrix(&["--check".as_ref(), "--page".as_ref(), page.as_os_str()]);
    assert_eq!(code, Some(1), "{said}");
    assert!(said.contains("is stale"), "{said}");
}
