//! Every count README.md states about the catalogue and the committed
//! reports, computed: the hand-written cases and their categories, the
//! variant generators, the concrete cases of an xml-tag target and of the
//! nonce reference, and each row of the audits table, from the committed
//! JSON reports; and the field audits' table and totals, from `field/` (the
//! profiles, `triage.tsv`) and the committed `reports/field/` reports,
//! counted as `field/triage.py` counts them. A change to the catalogue, or
//! regenerated reports, that moves a number fails here until README says
//! the new one.

use std::collections::BTreeMap;
use std::path::Path;

use framecheck::catalogue::{self, Category, Variant};
use framecheck::oracle::CheckClass;
use framecheck::report::Summary;
use regex::Regex;

fn repo(path: &str) -> std::path::PathBuf {
    crate::common::repo().join(path)
}

fn readme() -> String {
    std::fs::read_to_string(repo("README.md")).unwrap()
}

/// A number as README writes it: digits with thousands commas, or a word.
fn number(text: &str) -> usize {
    let words = [
        "zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
        "eleven", "twelve", "thirteen", "fourteen", "fifteen",
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

/// What README says search finds, and in how many mutants, is what
/// `search_power` asserts.
#[test]
fn the_search_power_readme_states_is_the_tested_one() {
    use crate::power_budget::{BUDGET, FIND_BUDGET, SEEDS};
    let text = readme().split_whitespace().collect::<Vec<_>>().join(" ");
    let found = one_match(
        &text,
        r"Each is found at each of (\w+) seeds within a budget of ([\d,]+) mutants",
    );
    assert_eq!(number(&found[0]), SEEDS.len(), "seeds");
    assert_eq!(number(&found[1]) as u64, FIND_BUDGET, "budget to find");
    let found = one_match(
        &text,
        r"and ([\d,]+) mutants over the reference or a correct framing",
    );
    assert_eq!(number(&found[0]) as u64, BUDGET, "budget finding nothing");
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

    let concrete =
        catalogue::instantiate(&builtin, &framecheck::envelope::reference_profile()).len();
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
        .filter(|r| framecheck::nonce::is_probe(&r.case))
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

/// One field audit's committed report, in the counting unit of
/// docs/report-schema.md ("Counting"), as `field/triage.py` reads it from
/// the report's `counts` and `tally`: computed here from the run the report
/// reads back into, so a report written by older code fails here.
struct FieldAudit {
    name: String,
    held: Option<framecheck::level::ReaderLevel>,
    counts: framecheck::report::count::Counts,
    /// `(weakness id, case id)` of every counted finding.
    findings: Vec<(String, String)>,
}

fn field_audit(path: &Path) -> FieldAudit {
    use framecheck::report::{count, weakness};
    let text = std::fs::read_to_string(path).unwrap();
    let run = framecheck::report::json::parse(&text).unwrap();
    let written: serde_json::Value = serde_json::from_str(&text).unwrap();
    let weaknesses = weakness::weaknesses(&run);
    let counts = count::counts(&run, &weaknesses);
    assert_eq!(
        written["counts"],
        serde_json::to_value(counts).unwrap(),
        "{}: the report's counts are not what the current code counts: regenerate it",
        path.display()
    );
    let index = count::by_case(&run, &weaknesses);
    let mut findings = Vec::new();
    for result in &run.results {
        let tally = count::case_tally(result, run.meta.level, &index);
        for (check, owner) in tally.findings {
            let owner = owner.unwrap_or_else(|| {
                panic!(
                    "{}: {} {check}: in no weakness",
                    path.display(),
                    result.case.id
                )
            });
            findings.push((owner, result.case.id.clone()));
        }
    }
    FieldAudit {
        name: run.meta.target.name.clone(),
        held: Summary::of(&run).highest_level_held,
        counts,
        findings,
    }
}

/// `field/triage.tsv`'s rules: `(audit, weakness, case glob, true?)`.
fn triage_rules() -> Vec<(String, String, Regex, bool)> {
    let text = std::fs::read_to_string(repo("field/triage.tsv")).unwrap();
    text.lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|line| {
            let f: Vec<&str> = line.split('\t').collect();
            assert_eq!(f.len(), 5, "triage.tsv: {line}");
            // fnmatch's `*` and `?`; every other character literal.
            let glob: String = f[2]
                .chars()
                .map(|c| match c {
                    '*' => ".*".to_string(),
                    '?' => ".".to_string(),
                    c => regex::escape(&c.to_string()),
                })
                .collect();
            let glob = Regex::new(&format!("^{glob}$")).unwrap();
            let verdict = match f[3] {
                "true" => true,
                "false" => false,
                other => panic!("triage.tsv: verdict {other:?}"),
            };
            (f[0].into(), f[1].into(), glob, verdict)
        })
        .collect()
}

/// The rows of README's field audits table: `(audit, package cell, level
/// held cell, weaknesses cell)`, in order.
fn field_rows(readme: &str) -> Vec<(String, String, String, String)> {
    let section = readme
        .split("## Field audits")
        .nth(1)
        .expect("a Field audits section")
        .split("\n## ")
        .next()
        .unwrap();
    section
        .lines()
        .filter(|l| l.starts_with("| ") && l.ends_with("|"))
        .skip(1)
        .map(|l| {
            let cells: Vec<&str> = l.trim_matches('|').split(" | ").map(str::trim).collect();
            (
                cells[0].into(),
                cells[1].into(),
                cells[3].into(),
                cells[4].into(),
            )
        })
        .collect()
}

/// README's package cell of `audit` ("`pydantic-ai-slim` 2.68.0 (PyPI)")
/// names the package, version and registry its profile's heading names.
fn assert_package_stated(audit: &str, package: &str) {
    let heading: String = std::fs::read_to_string(repo(&format!("field/{audit}/profile.yaml")))
        .unwrap()
        .lines()
        .take_while(|l| l.starts_with('#'))
        .map(|l| l.trim_start_matches('#').trim())
        .collect::<Vec<_>>()
        .join(" ");
    let stated = one_match(package, r"^`([^`]+)` ([\w.-]+) \((PyPI|npm)\)$");
    let said = format!("{} {} ({},", stated[0], stated[1], stated[2]);
    assert!(
        heading.contains(&said),
        "{audit}: {said:?} not in {heading:?}"
    );
}

#[test]
fn the_field_audit_table_and_totals_are_the_committed_field_reports() {
    let readme = readme();
    let rows = field_rows(&readme);
    let mut profiles: Vec<String> = std::fs::read_dir(repo("field"))
        .unwrap()
        .flatten()
        .filter(|e| e.path().join("profile.yaml").is_file())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    profiles.sort();
    let mut named: Vec<String> = rows.iter().map(|r| r.0.clone()).collect();
    named.sort();
    assert_eq!(named, profiles, "one table row per field/*/profile.yaml");

    let rules = triage_rules();
    let mut total = framecheck::report::count::Counts::default();
    let (mut false_findings, mut true_weaknesses, mut false_weaknesses) = (0, 0, 0);
    for (audit, package, held_cell, weaknesses_cell) in &rows {
        let report = field_audit(&repo(&format!("reports/field/{audit}.json")));
        assert_eq!(&report.name, audit);
        let held = report
            .held
            .map_or("none".to_string(), |l| format!("`{}`", l.name()));
        assert_eq!(held_cell, &held, "{audit}: level held");
        assert_eq!(
            number(weaknesses_cell),
            report.counts.weaknesses,
            "{audit}: weaknesses"
        );
        assert_package_stated(audit, package);
        let mut verdicts: BTreeMap<&str, bool> = BTreeMap::new();
        for (weakness, case) in &report.findings {
            let rule = rules
                .iter()
                .find(|(a, w, glob, _)| (a, w) == (audit, weakness) && glob.is_match(case));
            let (.., verdict) =
                rule.unwrap_or_else(|| panic!("{audit} {weakness} {case}: no triage rule"));
            false_findings += usize::from(!verdict);
            // A weakness some of whose findings are false is not wholly
            // the audited code's (field/triage.py counts it false too).
            let whole = verdicts.entry(weakness).or_insert(true);
            *whole &= *verdict;
        }
        true_weaknesses += verdicts.values().filter(|v| **v).count();
        false_weaknesses += verdicts.values().filter(|v| !**v).count();
        for (field, add) in [
            (&mut total.weaknesses, report.counts.weaknesses),
            (&mut total.folded_spellings, report.counts.folded_spellings),
            (&mut total.cases, report.counts.cases),
            (&mut total.findings, report.counts.findings),
            (&mut total.linked, report.counts.linked),
            (&mut total.apart, report.counts.apart),
        ] {
            *field += add;
        }
    }
    assert_eq!(true_weaknesses + false_weaknesses, total.weaknesses);

    let text = readme.split_whitespace().collect::<Vec<_>>().join(" ");
    let found = one_match(
        &text,
        r"\*\*Counted as docs/report-schema.md \(\x22Counting\x22\) counts: ([\d,]+) weaknesses in the (\w+) audits, ([\d,]+) true and ([\d,]+) false by the triage; they show in ([\d,]+) cases with ([\d,]+) findings, ([\d,]+) of them false \(false-finding share ([\d.]+) %\)\.\*\* ([\d,]+) findings linked to their cause [^;]*; ([\d,]+) reported apart [^;]*; and ([\d,]+) groups of folded",
    );
    assert_eq!(number(&found[0]), total.weaknesses, "weaknesses");
    assert_eq!(number(&found[1]), rows.len(), "audits");
    assert_eq!(number(&found[2]), true_weaknesses, "true weaknesses");
    assert_eq!(number(&found[3]), false_weaknesses, "false weaknesses");
    assert_eq!(number(&found[4]), total.cases, "cases");
    assert_eq!(number(&found[5]), total.findings, "findings");
    assert_eq!(number(&found[6]), false_findings, "false findings");
    let share = 100.0 * false_findings as f64 / total.findings as f64;
    assert_eq!(found[7], format!("{share:.1}"), "false-finding share");
    assert_eq!(number(&found[8]), total.linked, "linked findings");
    assert_eq!(number(&found[9]), total.apart, "findings apart");
    assert_eq!(number(&found[10]), total.folded_spellings, "folded groups");
}

/// docs/report-schema.md says how many report formats a run writes, and
/// where they are written from: the formats `Format::ALL` lists, and a
/// directory that exists.
#[test]
fn the_report_schema_counts_the_formats() {
    let text = std::fs::read_to_string(repo("docs/report-schema.md")).unwrap();
    let found = one_match(
        &text,
        r"framecheck writes (\w+) report formats from one run \(`([^`]+)`\)",
    );
    assert_eq!(number(&found[0]), framecheck::report::Format::ALL.len());
    assert!(repo(&found[1]).is_dir(), "{} is no directory", found[1]);
}

/// Quick start's times for the main job and the test command are the ones
/// `docs/quickstart-times.tsv` records: what `.ci/run` measured for
/// README's two commands on a fresh clone (the main job's release build
/// and the test command's debug build included), rounded to the minute.
#[test]
fn the_quick_start_times_are_the_recorded_measurements() {
    let tsv = std::fs::read_to_string(repo("docs/quickstart-times.tsv")).unwrap();
    let recorded = |row: &str| -> usize {
        tsv.lines()
            .filter(|l| !l.starts_with('#'))
            .find_map(|l| l.strip_prefix(row)?.strip_prefix('\t')?.trim().parse().ok())
            .unwrap_or_else(|| panic!("docs/quickstart-times.tsv has no {row} row"))
    };
    let text = readme().split_whitespace().collect::<Vec<_>>().join(" ");
    let said = one_match(
        &text,
        r"the main job took about (\w+) minutes, .*?, and the test command about (\w+) minutes",
    );
    assert_eq!(number(&said[0]), (recorded("main-job") + 30) / 60);
    assert_eq!(number(&said[1]), (recorded("test-command") + 30) / 60);
}

/// The counted weakness ids of a committed field report, and its results.
fn field_weaknesses(audit: &str) -> (Vec<String>, framecheck::runner::RunResult) {
    let path = repo(&format!("reports/field/{audit}.json"));
    let run = framecheck::report::json::parse(&std::fs::read_to_string(path).unwrap()).unwrap();
    let ids = framecheck::report::weakness::weaknesses(&run)
        .into_iter()
        .filter(|w| w.counted)
        .map(|w| w.id)
        .collect();
    (ids, run)
}

/// field/README.md's section on the audits that overlap, its whitespace
/// as written.
fn overlap_section() -> String {
    let field = std::fs::read_to_string(repo("field/README.md")).unwrap();
    field
        .split("## Audits that overlap, and what each adds")
        .nth(1)
        .unwrap()
        .split("\n## ")
        .next()
        .unwrap()
        .to_string()
}

/// field/README.md's overlapping audits: each bullet's audit repeats the
/// audit it names first, and adds no weakness (every counted weakness id
/// of its report is one of the other's); README's field total set aside
/// the repeating audits is the field's distinct count.
#[test]
fn the_overlapping_audits_add_no_weakness() {
    let section = overlap_section();
    let bullet = Regex::new(r"(?m)^- \*\*([a-z0-9-]+)\*\* repeats\s+`([a-z0-9-]+)`").unwrap();
    let pairs: Vec<(String, String)> = bullet
        .captures_iter(&section)
        .map(|c| (c[1].to_string(), c[2].to_string()))
        .collect();
    assert_eq!(pairs.len(), 4, "{pairs:?}");
    let mut repeated = 0;
    for (audit, original) in &pairs {
        let (ids, _) = field_weaknesses(audit);
        let (theirs, _) = field_weaknesses(original);
        let own: Vec<&String> = ids.iter().filter(|id| !theirs.contains(id)).collect();
        assert!(
            own.is_empty(),
            "{audit} has weaknesses {original} lacks: {own:?}"
        );
        repeated += ids.len();
    }
    let text = readme().split_whitespace().collect::<Vec<_>>().join(" ");
    let found = one_match(
        &text,
        r"\*\*Counted as docs/report-schema.md \(\x22Counting\x22\) counts: ([\d,]+) weaknesses in the \w+ audits.*? (\w+) audits call code another audit covers [^;]*; each weakness they count is also counted by the audit they repeat, so the field shows \*\*([\d,]+) weaknesses once each audit that repeats another is set aside\*\*",
    );
    assert_eq!(
        number(&found[1].to_lowercase()),
        pairs.len(),
        "repeating audits"
    );
    assert_eq!(
        number(&found[2]),
        number(&found[0]) - repeated,
        "distinct weaknesses"
    );
}

/// The guard's refusals its overlapping-audits bullet states are its
/// committed report's.
#[test]
fn the_overlapping_guard_s_refusals_are_its_report_s() {
    use framecheck::outcome::Outcome;
    let (_, guard) = field_weaknesses("agent-cordon-guard-tool-result");
    let refused = |acceptable: bool| {
        guard
            .results
            .iter()
            .filter(
                |r| matches!(r.outcome, Outcome::Refused { acceptable: a, .. } if a == acceptable),
            )
            .count()
    };
    let stated = one_match(
        &overlap_section()
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" "),
        r"It refuses (\d+) cases whose refusal the catalogue accepts \(attacks its scanner flags\) and (\d+) it does not",
    );
    assert_eq!(number(&stated[0]), refused(true), "acceptable refusals");
    assert_eq!(number(&stated[1]), refused(false), "forbidden refusals");
}

/// The handoff's parser findings its overlapping-audits bullet states are
/// its committed report's: all `reader.structure`.
#[test]
fn the_overlapping_handoff_s_parser_findings_are_its_report_s() {
    use framecheck::outcome::Outcome;
    let (_, handoff) = field_weaknesses("openai-agents-handoff-history");
    let parser: Vec<_> = handoff
        .results
        .iter()
        .flat_map(|r| match &r.outcome {
            Outcome::Judged { findings } => findings.iter().collect(),
            _ => Vec::new(),
        })
        .filter(|f| f.consumer == framecheck::profile::Consumer::Parser)
        .collect();
    assert!(parser
        .iter()
        .all(|f| f.check == framecheck::oracle::Check::ReaderStructure));
    let stated = one_match(
        &overlap_section()
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" "),
        r"each of its (\d+) parser findings is `reader.structure`",
    );
    assert_eq!(
        number(&stated[0]),
        parser.len(),
        "the handoff's parser findings"
    );
}
