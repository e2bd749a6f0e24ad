//! Every count README.md states about the catalogue and the committed
//! reports, computed: the hand-written cases and their categories, the
//! variant generators, the concrete cases of an xml-tag target and of the
//! nonce reference, and each row of the audits table, from the committed
//! JSON reports. A change to the catalogue, or regenerated reports, that
//! moves a number fails here until README says the new one.

use std::collections::BTreeMap;
use std::path::Path;

use framecheck::catalogue::{self, Category, Variant};
use framecheck::oracle::CheckClass;
use framecheck::profile::TargetProfile;
use framecheck::report::Summary;
use regex::Regex;

fn repo(path: &str) -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(path)
}

fn readme() -> String {
    std::fs::read_to_string(repo("README.md")).unwrap()
}

/// A number as README writes it: digits with thousands commas, or a word.
fn number(text: &str) -> usize {
    let words = [
        "zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
        "eleven", "twelve",
    ];
    if let Some(n) = words.iter().position(|w| *w == text) {
        return n;
    }
    text.replace(',', "")
        .parse()
        .unwrap_or_else(|_| panic!("{text:?} is not a number"))
}

/// The captures of `pattern`'s one match in `text` (exactly one: a second
/// statement of the same count would go unchecked).
fn one_match(text: &str, pattern: &str) -> Vec<String> {
    let re = Regex::new(pattern).unwrap();
    let all: Vec<_> = re.captures_iter(text).collect();
    assert_eq!(all.len(), 1, "README should say {pattern:?} once");
    all[0]
        .iter()
        .skip(1)
        .map(|m| m.map_or(String::new(), |m| m.as_str().to_string()))
        .collect()
}

#[test]
fn the_catalogue_counts_readme_states_are_the_catalogue_s() {
    let text = readme().split_whitespace().collect::<Vec<_>>().join(" ");
    let builtin = catalogue::builtin();
    let found = one_match(
        &text,
        r"([\d,]+) hand-written cases in (\w+) categories \(([^)]*)\)",
    );
    assert_eq!(number(&found[0]), builtin.cases.len(), "hand-written cases");
    assert_eq!(number(&found[1]), Category::ALL.len(), "categories");
    let names: Vec<&str> = Category::ALL.iter().map(|c| c.name()).collect();
    assert_eq!(found[2], names.join(", "), "the categories, in order");

    let generators = Variant::ALL
        .iter()
        .filter(|&&v| v != Variant::Exact)
        .count();
    let found = one_match(&text, r"([\d,]+) variant generators");
    assert_eq!(number(&found[0]), generators, "variant generators");

    let concrete = catalogue::instantiate(&builtin, &TargetProfile::reference()).len();
    let found = one_match(
        &text,
        r"expand them to ([\d,]+) concrete cases for an xml-tag target",
    );
    assert_eq!(number(&found[0]), concrete, "concrete cases");
}

/// A committed JSON report and its summary.
fn committed(target: &str) -> (framecheck::runner::RunResult, Summary) {
    let path = repo(&format!("reports/{target}.json"));
    let run = framecheck::report::json::parse(&std::fs::read_to_string(path).unwrap()).unwrap();
    let summary = Summary::of(&run);
    (run, summary)
}

/// The cells of the audits table's row for `target`.
fn table_row(target: &str) -> Vec<String> {
    let start = format!("| [{target}](reports/{target}.md) |");
    let readme = readme();
    let line = readme
        .lines()
        .find(|l| l.starts_with(&start))
        .unwrap_or_else(|| panic!("no README table row for {target}"));
    line.trim_matches('|')
        .split(" | ")
        .map(|c| c.trim().to_string())
        .collect()
}

/// The level held, as the table writes it (bold when one is held).
fn held(summary: &Summary) -> String {
    match summary.highest_level_held {
        Some(level) => format!("**{}**", level.name()),
        None => "none".to_string(),
    }
}

#[test]
fn the_reference_rows_are_the_committed_reports() {
    let (_, reference) = committed("reference");
    let row = table_row("reference");
    assert_eq!(row[2], held(&reference));
    let found = one_match(
        &row[3],
        r"^none \(([\d,]+) cases: ([\d,]+) pass, (\d+) acceptable refusals, (\d+) skipped\)$",
    );
    let at = reference.at_level();
    assert_eq!(reference.security_failures(), 0);
    let expected = [reference.total, at.pass, at.refused, at.skipped];
    let stated: Vec<usize> = found.iter().map(|n| number(n)).collect();
    assert_eq!(stated, expected, "reference: cases, pass, refused, skipped");
    assert_eq!(number(&row[4]), reference.fidelity_failures);

    let (nonce_run, nonce) = committed("reference-nonce");
    let row = table_row("reference-nonce");
    assert_eq!(row[2], held(&nonce));
    let found = one_match(
        &row[3],
        r"^none \(([\d,]+) cases: the reference's ([\d,]+), the (\d+) nonce cases and the (\w+) nonce probes; ([\d,]+) pass, (\d+) acceptable refusals, (\d+) skipped; no confusable\)$",
    );
    // From the reports, not the catalogue: between a catalogue change and
    // the reports' regeneration the two differ, and the row describes the
    // report it links to.
    let probes = nonce_run
        .results
        .iter()
        .filter(|r| framecheck::nonce::probe::is_probe(&r.case))
        .count();
    let at = nonce.at_level();
    assert_eq!(nonce.security_failures(), 0);
    let expected = [
        nonce.total,
        reference.total,
        nonce.total - reference.total - probes,
        probes,
        at.pass,
        at.refused,
        at.skipped,
    ];
    let stated: Vec<usize> = found.iter().map(|n| number(n)).collect();
    assert_eq!(stated, expected, "reference-nonce row");
    let confusable = nonce
        .apart
        .get(&CheckClass::Confusable)
        .map_or(0, |a| a.cases);
    assert_eq!(confusable, 0, "the row says no confusable");
    assert_eq!(number(&row[4]), nonce.fidelity_failures);
}

#[test]
fn the_seed_rows_are_the_committed_reports() {
    for target in ["seed-ts-envelope", "seed-a2a-markers", "seed-go-context"] {
        let (_, summary) = committed(target);
        let row = table_row(target);
        assert_eq!(row[2], held(&summary), "{target}: level held");
        let stated: BTreeMap<String, usize> = row[3]
            .split(", ")
            .map(|cell| {
                let (name, count) = cell.rsplit_once(' ').expect("`category count`");
                (name.to_string(), number(count))
            })
            .collect();
        let counted: BTreeMap<String, usize> = summary
            .security_failures_by_category
            .iter()
            .filter(|(_, &n)| n > 0)
            .map(|(c, &n)| (c.name().to_string(), n))
            .collect();
        assert_eq!(stated, counted, "{target}: security failures by category");
        assert_eq!(
            number(&row[4]),
            summary.fidelity_failures,
            "{target}: fidelity failures"
        );
    }
}
