//! The gate policy (`--strict`): which findings fail a case, recorded in
//! every report, and every format showing the classes reported apart.

use framecheck::catalogue::{self, ConcreteCase};
use framecheck::gate::Gate;
use framecheck::level::ReaderLevel::{self, Unicode};
use framecheck::oracle::{Check, CheckClass, Finding};
use framecheck::report::{baseline, json, junit, markdown, sarif, weakness, Summary};
use framecheck::runner::{RunMeta, RunResult, Verdict};

use crate::common::judged;

fn finding(check: Check, class: CheckClass, in_context: bool) -> Finding {
    Finding {
        consumer: Default::default(),
        check,
        class,
        levels: ReaderLevel::ALL.to_vec(),
        message: format!("a {} finding", class.name()),
        excerpt: None,
        in_context,
        fault: None,
        live: None,
    }
}

fn outer_layer(in_context: bool) -> Finding {
    finding(Check::TemplateControl, CheckClass::OuterLayer, in_context)
}

fn confusable() -> Finding {
    finding(Check::NonceConfusable, CheckClass::Confusable, false)
}

/// The first `n` cases of the built-in catalogue for the reference.
fn cases(n: usize) -> Vec<ConcreteCase> {
    catalogue::instantiate(
        &catalogue::builtin(),
        &framecheck::envelope::reference_profile(),
    )
    .into_iter()
    .take(n)
    .collect()
}

/// Three cases: one clean, one with an outer-layer finding, one with a
/// confusable finding, decided under `gate`.
fn run(gate: Gate) -> RunResult {
    let mut cases = cases(3).into_iter();
    RunResult {
        meta: RunMeta {
            framecheck_version: "test".into(),
            catalogue_hash: "h".into(),
            target: framecheck::envelope::reference_profile(),
            level: Unicode,
            gate,
            started_unix: 0,
            duration_ms: 0,
            filters: vec![],
            harness_error: None,
            manifest: None,
            layout: None,
            misfit: false,
            unmarked: false,
            passed_on_replay: 0,
            target_fault: None,
        },
        results: vec![
            judged(cases.next().unwrap(), vec![]),
            judged(cases.next().unwrap(), vec![outer_layer(false)]),
            judged(cases.next().unwrap(), vec![confusable()]),
        ],
        views: Vec::new(),
    }
}

#[test]
fn classes_apart_fail_only_under_strict() {
    let default = run(Gate::Default);
    let strict = run(Gate::Strict);
    for (result, expected) in
        default
            .results
            .iter()
            .zip([Verdict::Pass, Verdict::Pass, Verdict::Pass])
    {
        assert_eq!(result.verdict(Unicode, Gate::Default), expected);
        // The default-gate shorthand agrees.
        assert_eq!(result.verdict_at(Unicode), expected);
    }
    let strict_verdicts: Vec<Verdict> = strict
        .results
        .iter()
        .map(|r| r.verdict(Unicode, Gate::Strict))
        .collect();
    assert_eq!(
        strict_verdicts,
        [Verdict::Pass, Verdict::Fail, Verdict::Fail]
    );
    assert_eq!(Summary::of(&default).exit_code(), 0);
    assert_eq!(Summary::of(&strict).exit_code(), 1);
}

#[test]
fn a_declared_context_fails_outer_layer_findings_by_default() {
    let case = cases(1).remove(0);
    let result = judged(case, vec![outer_layer(true)]);
    assert_eq!(result.verdict(Unicode, Gate::Default), Verdict::Fail);
}

#[test]
fn the_summary_counts_each_class_apart() {
    let summary = Summary::of(&run(Gate::Default));
    let outer = summary.apart[&CheckClass::OuterLayer];
    let conf = summary.apart[&CheckClass::Confusable];
    assert_eq!((outer.cases, outer.failing), (1, 0));
    assert_eq!((conf.cases, conf.failing), (1, 0));
    let strict = Summary::of(&run(Gate::Strict));
    assert_eq!(strict.apart[&CheckClass::OuterLayer].failing, 1);
    assert_eq!(strict.gate, Gate::Strict);
}

#[test]
fn the_gate_reads_back_and_older_reports_mean_default() {
    for gate in Gate::ALL {
        let text = json::render(&run(gate));
        assert!(
            text.contains(&format!("\"gate\": \"{}\"", gate.name())),
            "{gate}"
        );
        let back = json::parse(&text).unwrap();
        assert_eq!(back.meta.gate, gate);
        // The verdicts written are the gate's own.
        let strict_fail = text.contains("\"unicode\": \"fail\"");
        assert_eq!(strict_fail, gate == Gate::Strict, "{gate}");
    }
    let mut value: serde_json::Value =
        serde_json::from_str(&json::render(&run(Gate::Default))).unwrap();
    value.as_object_mut().unwrap().remove("gate");
    let old = json::parse(&value.to_string()).unwrap();
    assert_eq!(old.meta.gate, Gate::Default);
}

#[test]
fn a_baseline_from_another_gate_cannot_gate_the_run() {
    let old = run(Gate::Default);
    assert!(baseline::check_gate(&old, Gate::Default).is_ok());
    let error = baseline::check_gate(&old, Gate::Strict).unwrap_err();
    assert!(error.to_string().contains("strict"), "{error}");
}

#[test]
fn every_format_names_the_gate_and_shows_the_classes_apart() {
    for gate in Gate::ALL {
        let run = run(gate);
        let md = markdown::render(&run);
        assert!(md.contains(&format!("{} gate", gate.name())), "{gate}");
        assert!(md.contains("## Outer-layer breakouts (1)"), "{md}");
        assert!(md.contains("## Confusables"), "{md}");
        assert!(md.contains("template.control` (outer-layer)"), "{md}");
        let terminal = markdown::terminal_summary(&run);
        assert!(terminal.contains(&format!("{} gate", gate.name())));
        assert!(
            terminal.contains("reported apart (cases): 1 confusable"),
            "{terminal}"
        );
        assert!(terminal.contains("1 outer-layer"), "{terminal}");
        // A strict `fail` is not called a security failure.
        let counted = match gate {
            Gate::Default => "0 security failures",
            Gate::Strict => "2 failures (security or a class --strict fails)",
        };
        assert!(terminal.contains(counted), "{terminal}");
        let xml = junit::render(&run);
        let doc = roxmltree::Document::parse(&xml).unwrap();
        let suite = |name: &str| {
            doc.descendants()
                .find(|n| n.has_tag_name("testsuite") && n.attribute("name") == Some(name))
                .unwrap_or_else(|| panic!("no {name} suite in {xml}"))
        };
        for class in ["outer-layer", "confusable"] {
            let failures = suite(class)
                .descendants()
                .filter(|n| n.has_tag_name("failure"))
                .count();
            assert_eq!(failures, usize::from(gate == Gate::Strict), "{class}");
        }
        let log = sarif::log(&run);
        assert_eq!(log["runs"][0]["properties"]["gate"], gate.name());
        let results = log["runs"][0]["results"].as_array().unwrap();
        let outer = results
            .iter()
            .find(|r| r["ruleId"] == "template.control")
            .expect("an outer-layer result");
        assert_eq!(outer["properties"]["class"], "outer-layer");
        let level = if gate == Gate::Strict {
            "warning"
        } else {
            "note"
        };
        assert_eq!(outer["level"], level);
        let weaknesses = weakness::weaknesses(&run);
        let w = weaknesses
            .iter()
            .find(|w| w.check == Check::TemplateControl)
            .expect("an outer-layer weakness");
        assert_eq!(w.class, CheckClass::OuterLayer);
        assert_eq!(w.fails, gate == Gate::Strict);
        let html = framecheck::report::html::render(&run);
        assert!(html.contains(&format!("<b class=\"mono\">{}</b> gate", gate.name())));
        assert!(html.contains("id=\"apart\""));
    }
}

/// `framecheck run --strict` records its gate, and a baseline from the
/// other gate is refused with exit 2, saying why.
#[test]
fn the_cli_records_strict_and_refuses_a_baseline_from_another_gate() {
    let out = tempfile::tempdir().unwrap();
    let dir = out.path().to_str().unwrap();
    let run = |extra: &[&str]| {
        let mut args = vec!["run", "--only", "chat-template", "--out", dir];
        args.extend_from_slice(extra);
        crate::common::framecheck(&args)
    };
    let strict = run(&["--strict", "--format", "json"]);
    assert_eq!(strict.status.code(), Some(0), "{strict:?}");
    assert!(String::from_utf8_lossy(&strict.stdout).contains("strict gate"));
    let report = out.path().join("reference.json");
    let text = std::fs::read_to_string(&report).unwrap();
    assert_eq!(json::parse(&text).unwrap().meta.gate, Gate::Strict);
    let other = tempfile::tempdir().unwrap();
    let default = crate::common::framecheck(&[
        "run",
        "--only",
        "chat-template",
        "--out",
        other.path().to_str().unwrap(),
        "--baseline",
        report.to_str().unwrap(),
    ]);
    assert_eq!(default.status.code(), Some(2), "{default:?}");
    assert!(
        String::from_utf8_lossy(&default.stderr).contains("strict gate"),
        "{default:?}"
    );
}
