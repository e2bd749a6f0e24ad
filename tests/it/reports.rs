//! Report formats on hand-built runs: hostile payloads in every field the
//! run lets an attacker or a broken target fill, round trips, schema
//! validation, exit codes and baseline diffs.

use std::collections::BTreeMap;
use std::path::PathBuf;

use framecheck::adapter::WrapRequest;
use framecheck::catalogue::{
    Category, ConcreteCase, Expectation, Field, Input, Operation, RefusalPolicy, Severity,
    SourceLocation, Variant,
};
use framecheck::level::ReaderLevel;
use framecheck::oracle::{Check, CheckClass, Excerpt, ExcerptSource, Finding};
use framecheck::profile::SourceRef;
use framecheck::report::{self, baseline, json, junit, markdown, sarif, Format, Summary};
use framecheck::runner::{CaseResult, Evidence, Outcome, RunMeta, RunResult, Verdict};

use ReaderLevel::{AsciiCaseInsensitive, Exact, Unicode};

/// Text that tries to break every format at once.
const HOSTILE: &str = "]]> <!-- & \u{0}\u{1B}[31m \u{FFFE}\u{FFFF} | `` ``` \u{202E}\u{200B} \
\r\n# heading\n| a | b |\n<script>x</script> \\u{41} \u{E0041}\u{85}";

fn case(id: &str, category: Category) -> ConcreteCase {
    ConcreteCase {
        id: id.to_string(),
        base_id: id.split('~').next().unwrap().to_string(),
        variant: Variant::Exact,
        category,
        title: format!("title of {id}"),
        why: "because".to_string(),
        references: vec!["CWE-74".to_string()],
        flags: vec!["Flag".to_string()],
        severity: Severity::High,
        operation: Operation::Wrap,
        input: Input::Wrap(WrapRequest {
            content: "content".to_string(),
            kind: "tool-result".to_string(),
            attributes: BTreeMap::new(),
            provenance: "test".to_string(),
        }),
        expect: Expectation::Hold,
        refusal: RefusalPolicy::Allowed,
        min_level: Exact,
        canary: "CANARY".to_string(),
        canary_fields: vec![Field::Content],
        requires: vec![],
        source: SourceLocation {
            file: PathBuf::from(format!("attacks/{}.yaml", category.name())),
            line: 7,
        },
        site: Default::default(),
        harvest: None,
    }
}

fn security(check: Check, levels: &[ReaderLevel]) -> Finding {
    Finding {
        consumer: Default::default(),
        check,
        class: CheckClass::Security,
        levels: levels.to_vec(),
        message: "a live closing delimiter in content".to_string(),
        excerpt: None,
        in_context: false,
        fault: None,
        live: None,
    }
}

fn fidelity() -> Finding {
    Finding {
        consumer: Default::default(),
        check: Check::Fidelity,
        class: CheckClass::Fidelity,
        levels: vec![],
        message: "content changed".to_string(),
        excerpt: None,
        in_context: false,
        fault: None,
        live: None,
    }
}

fn result(case: ConcreteCase, outcome: Outcome) -> CaseResult {
    CaseResult {
        case,
        outcome,
        evidence: Evidence::default(),
        elapsed_us: 42,
    }
}

fn judged(id: &str, category: Category, findings: Vec<Finding>) -> CaseResult {
    result(case(id, category), Outcome::Judged { findings })
}

fn run(level: ReaderLevel, results: Vec<CaseResult>) -> RunResult {
    RunResult {
        meta: RunMeta {
            framecheck_version: "0.1.0".to_string(),
            catalogue_hash: "abc123".to_string(),
            target: framecheck::envelope::reference_profile(),
            level,
            gate: Default::default(),
            started_unix: 1_700_000_000,
            duration_ms: 1234,
            filters: vec![],
            harness_error: None,
            manifest: None,
            layout: None,
            misfit: false,
            unmarked: false,
            passed_on_replay: 0,
            target_fault: None,
        },
        results,
        views: Vec::new(),
    }
}

/// The breakout case of [`hostile_run`]: a zero-width space in a closer,
/// hostile text in its title, flags, references, path and message.
fn hostile_breakout() -> CaseResult {
    let framed = format!(
        "<framecheck-untrusted>\n{HOSTILE}</framecheck\u{200B}-untrusted>\n</framecheck-untrusted>"
    );
    let start = framed.find("</framecheck\u{200B}").unwrap();
    let end = start + "</framecheck\u{200B}-untrusted>".len();
    let mut breakout = case("breakout-close~zero-width", Category::Breakout);
    breakout.title = format!("title {HOSTILE}");
    breakout.flags = vec![HOSTILE.to_string()];
    breakout.references = vec![HOSTILE.to_string()];
    breakout.source.file = PathBuf::from("attacks/break out #1.yaml");
    let mut breakout_result = result(
        breakout,
        Outcome::Judged {
            findings: vec![Finding {
                consumer: Default::default(),
                check: Check::DelimiterCensus,
                class: CheckClass::Security,
                levels: vec![Unicode],
                message: format!("message {HOSTILE}"),
                excerpt: Some(Excerpt::cut(ExcerptSource::Framed, &framed, start, end)),
                in_context: false,
                fault: None,
                live: None,
            }],
        },
    );
    breakout_result.evidence.framed = Some(framed);
    breakout_result
}

/// A run with one case of every outcome and hostile text in every
/// free-text field, including a 1 MiB target reason.
fn hostile_run() -> RunResult {
    let breakout_result = hostile_breakout();
    let mut fid = judged("benign-plain", Category::Benign, vec![fidelity()]);
    fid.evidence.read_text = Some(HOSTILE.to_string());
    fid.evidence.read_body = Some(None);

    let mut accepted = judged("reader-accepts", Category::Reader, vec![]);
    accepted.evidence.read_body = Some(Some(HOSTILE.to_string()));

    let error = result(
        case("unicode-tag-chars", Category::Unicode),
        Outcome::Error {
            reason: "x".repeat(1 << 20) + HOSTILE,
            stderr_tail: format!("panic: {HOSTILE}\nline two ```` end"),
            fault: Some(framecheck::adapter::Fault {
                kind: framecheck::adapter::FaultKind::ProtocolViolation,
                exit_status: Some(HOSTILE.to_string()),
                offending_line: Some(format!("{HOSTILE}```` end")),
                stderr_tail: String::new(),
            }),
        },
    );
    let forbidden = result(
        case("benign-refused", Category::Benign),
        Outcome::Refused {
            reason: HOSTILE.to_string(),
            acceptable: false,
        },
    );
    let allowed = result(
        case("forgery-refused", Category::Forgery),
        Outcome::Refused {
            reason: HOSTILE.to_string(),
            acceptable: true,
        },
    );
    let skipped = result(
        case("attribute-skip", Category::AttributeInjection),
        Outcome::Skipped {
            reason: HOSTILE.to_string(),
        },
    );
    let mut hostile = run(
        Unicode,
        vec![
            breakout_result,
            fid,
            accepted,
            error,
            forbidden,
            allowed,
            skipped,
        ],
    );
    hostile.meta.harness_error = Some(HOSTILE.to_string());
    hostile.meta.filters = vec![HOSTILE.to_string()];
    hostile.meta.catalogue_hash = HOSTILE.to_string();
    hostile.meta.target = hostile
        .meta
        .target
        .edit(|p| {
            p.source = Some(SourceRef {
                path: "src/frame it #1.py".to_string(),
                line: Some(12),
            })
        })
        .unwrap();
    hostile
}

mod summary {
    use super::*;

    #[test]
    fn highest_level_held_fails_only_at_unicode() {
        let r = run(
            Exact,
            vec![
                judged(
                    "a",
                    Category::Unicode,
                    vec![security(Check::DelimiterCensus, &[Unicode])],
                ),
                judged("b", Category::Breakout, vec![]),
            ],
        );
        assert_eq!(
            Summary::of(&r).highest_level_held,
            Some(AsciiCaseInsensitive)
        );
        assert_eq!(
            Summary::of(&r).levels_held(),
            vec![Exact, AsciiCaseInsensitive]
        );
    }

    #[test]
    fn highest_level_held_passes_everything() {
        let r = run(
            Unicode,
            vec![
                judged("a", Category::Breakout, vec![]),
                // Fidelity failures do not depend on the level.
                judged("b", Category::Benign, vec![fidelity()]),
            ],
        );
        assert_eq!(Summary::of(&r).highest_level_held, Some(Unicode));
    }

    #[test]
    fn highest_level_held_fails_at_exact() {
        let r = run(
            Unicode,
            vec![judged(
                "a",
                Category::Breakout,
                vec![security(
                    Check::CanaryContainment,
                    &[Exact, AsciiCaseInsensitive, Unicode],
                )],
            )],
        );
        assert_eq!(Summary::of(&r).highest_level_held, None);
        // A failure at a stricter level only still caps the held level.
        let r = run(
            Unicode,
            vec![judged(
                "a",
                Category::Breakout,
                vec![security(Check::FrameShape, &[AsciiCaseInsensitive])],
            )],
        );
        assert_eq!(Summary::of(&r).highest_level_held, Some(Exact));
        // The levels held need not be a prefix of the chain.
        assert_eq!(Summary::of(&r).levels_held(), vec![Exact, Unicode]);
    }

    #[test]
    fn counts_by_category_and_level() {
        let r = run(
            AsciiCaseInsensitive,
            vec![
                judged(
                    "a",
                    Category::Unicode,
                    vec![security(Check::DelimiterCensus, &[Unicode])],
                ),
                judged(
                    "b",
                    Category::Unicode,
                    vec![security(
                        Check::DelimiterCensus,
                        &[AsciiCaseInsensitive, Unicode],
                    )],
                ),
                judged("c", Category::Breakout, vec![]),
                judged("d", Category::Benign, vec![fidelity()]),
            ],
        );
        let s = Summary::of(&r);
        assert_eq!(s.total, 4);
        let unicode = s.by_category[&Category::Unicode];
        assert_eq!((unicode.pass, unicode.fail), (1, 1));
        assert_eq!(s.by_category[&Category::Breakout].pass, 1);
        assert_eq!(s.by_category[&Category::Forgery].total(), 0);
        assert_eq!(s.by_level[&Exact].fail, 0);
        assert_eq!(s.by_level[&AsciiCaseInsensitive].fail, 1);
        assert_eq!(s.by_level[&Unicode].fail, 2);
        assert_eq!(
            s.security_failures_by_category.get(&Category::Unicode),
            Some(&1)
        );
        assert_eq!(s.security_failures(), 1);
        assert_eq!(s.fidelity_failures, 1);
        assert_eq!(s.by_level[&Unicode].total(), 4);
    }

    fn exit(level: ReaderLevel, results: Vec<CaseResult>) -> i32 {
        Summary::of(&run(level, results)).exit_code()
    }

    #[test]
    fn exit_codes() {
        assert_eq!(
            exit(Unicode, vec![judged("a", Category::Breakout, vec![])]),
            0
        );
        assert_eq!(exit(Unicode, vec![]), 0);
        let unicode_only = || {
            judged(
                "a",
                Category::Unicode,
                vec![security(Check::DelimiterCensus, &[Unicode])],
            )
        };
        assert_eq!(exit(Unicode, vec![unicode_only()]), 1);
        // Judged at a stricter level, a Unicode-only failure does not fail the run.
        assert_eq!(exit(AsciiCaseInsensitive, vec![unicode_only()]), 0);
        assert_eq!(
            exit(Exact, vec![judged("b", Category::Benign, vec![fidelity()])]),
            1
        );
        let refused = |acceptable| {
            result(
                case("r", Category::Forgery),
                Outcome::Refused {
                    reason: "no".into(),
                    acceptable,
                },
            )
        };
        assert_eq!(exit(Unicode, vec![refused(true)]), 0);
        assert_eq!(exit(Unicode, vec![refused(false)]), 1);
        let skipped = result(
            case("s", Category::Reader),
            Outcome::Skipped {
                reason: "read".into(),
            },
        );
        assert_eq!(exit(Unicode, vec![skipped]), 0);
        let error = result(
            case("e", Category::Reader),
            Outcome::Error {
                reason: "crash".into(),
                stderr_tail: String::new(),
                fault: None,
            },
        );
        // An error wins over a plain failure: the run has holes.
        assert_eq!(exit(Unicode, vec![unicode_only(), error]), 2);
        let mut harness = run(Unicode, vec![judged("a", Category::Breakout, vec![])]);
        harness.meta.harness_error = Some("calibration failed".into());
        let s = Summary::of(&harness);
        assert!(!s.passed());
        assert_eq!(s.exit_code(), report::EXIT_HARNESS_ERROR);
    }
}

mod json_report {
    use super::*;

    #[test]
    fn round_trips_a_hostile_run() {
        let original = hostile_run();
        let text = json::render(&original);
        let back = json::parse(&text).expect("parses");
        assert_eq!(back, original);
        // The reader's three states survive: not called, rejected, accepted.
        assert_eq!(back.results[0].evidence.read_body, None);
        assert_eq!(back.results[1].evidence.read_body, Some(None));
        assert_eq!(
            back.results[2].evidence.read_body,
            Some(Some(HOSTILE.to_string()))
        );
    }

    /// Issue 57: how many requests passed only on replay is in the JSON
    /// report (and read back) and on the terminal's result line; a run with
    /// none writes neither, so the committed reports do not change.
    #[test]
    fn requests_that_passed_only_on_replay_are_counted_in_json_and_on_the_result_line() {
        let mut original = run(Unicode, vec![judged("a", Category::Benign, vec![])]);
        let none = json::render(&original);
        assert!(!none.contains("passed_on_replay"), "{none}");
        assert!(!markdown::terminal_summary(&original).contains("replay"));
        original.meta.passed_on_replay = 3;
        let text = json::render(&original);
        assert_eq!(json::parse(&text).expect("parses"), original);
        let value: serde_json::Value = serde_json::from_str(&text).unwrap();
        assert_eq!(value["passed_on_replay"], 3);
        let terminal = markdown::terminal_summary(&original);
        let result_line = terminal.lines().find(|l| l.starts_with("result:")).unwrap();
        assert!(
            result_line.ends_with(
                "; 3 requests timed out and passed only on replay, on a fresh target given up \
                 to 4 times as long"
            ),
            "{result_line}"
        );
        // A reproducible report leaves the count out: it measures the
        // machine's load, and committed reports must regenerate unchanged.
        report::omit_timings(&mut original);
        assert!(!json::render(&original).contains("passed_on_replay"));
    }

    /// A run of a profile with two consumers: a case that fools the model
    /// only, and one that fools the parser too.
    fn two_consumer_run() -> RunResult {
        use framecheck::profile::Consumer;
        let for_ = |consumer, check| Finding {
            consumer,
            ..security(check, &[Exact, AsciiCaseInsensitive, Unicode])
        };
        let mut run = run(
            Unicode,
            vec![
                judged(
                    "breakout-close",
                    Category::Breakout,
                    vec![for_(Consumer::Model, Check::DelimiterCensus)],
                ),
                judged(
                    "record-forged-after-ls",
                    Category::Breakout,
                    vec![
                        for_(Consumer::Model, Check::DelimiterCensus),
                        for_(Consumer::Parser, Check::ReaderStructure),
                    ],
                ),
            ],
        );
        run.meta.target = run
            .meta
            .target
            .edit(|p| {
                p.reader.consumers =
                    Some(vec![Consumer::Model, Consumer::Parser].try_into().unwrap())
            })
            .unwrap();
        run
    }

    /// Each finding's consumer survives the JSON round trip, the weaknesses
    /// are per consumer, and every human format names the parser's finding.
    #[test]
    fn each_finding_names_the_consumer_it_fools_in_every_format() {
        let original = two_consumer_run();
        let text = json::render(&original);
        assert_eq!(json::parse(&text).expect("parses"), original);
        let value: serde_json::Value = serde_json::from_str(&text).unwrap();
        let findings = &value["results"][1]["outcome"]["findings"];
        assert_eq!(findings[0]["consumer"], "model");
        assert_eq!(findings[1]["consumer"], "parser");
        let mut ids: Vec<(String, String)> = value["weaknesses"]
            .as_array()
            .unwrap()
            .iter()
            .map(|w| {
                (
                    w["id"].as_str().unwrap().into(),
                    w["consumer"].as_str().unwrap().into(),
                )
            })
            .collect();
        ids.sort();
        assert_eq!(
            ids,
            [
                (
                    "delimiter.census/exact/reader-input/body/model".to_string(),
                    "model".to_string()
                ),
                (
                    "reader.structure/exact/reader-input/body/parser".to_string(),
                    "parser".to_string()
                ),
            ]
        );
        assert!(markdown::render(&original).contains("`reader.structure` (fools the parser)"));
        assert!(!markdown::render(&original).contains("(fools the model)"));
        assert!(junit::render(&original).contains("reader.structure (fools the parser) at ["));
        let sarif: serde_json::Value = serde_json::from_str(&sarif::render(&original)).unwrap();
        let consumers: Vec<&str> = sarif["runs"][0]["results"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| r["properties"]["consumer"].as_str().unwrap())
            .collect();
        assert!(
            consumers.contains(&"parser") && consumers.contains(&"model"),
            "{consumers:?}"
        );
    }

    /// A report written before findings named their consumer reads back
    /// with every finding the model's.
    #[test]
    fn a_finding_without_a_consumer_is_the_models() {
        let mut value: serde_json::Value =
            serde_json::from_str(&json::render(&hostile_run())).unwrap();
        let mut removed = 0;
        for result in value["results"].as_array_mut().unwrap() {
            if let Some(findings) = result["outcome"]["findings"].as_array_mut() {
                for finding in findings {
                    removed += usize::from(
                        finding
                            .as_object_mut()
                            .unwrap()
                            .remove("consumer")
                            .is_some(),
                    );
                }
            }
        }
        assert!(removed > 0);
        let back = json::parse(&value.to_string()).expect("parses");
        assert_eq!(back, hostile_run());
    }

    #[test]
    fn carries_schema_summary_and_verdicts() {
        let text = json::render(&hostile_run());
        let value: serde_json::Value = serde_json::from_str(&text).unwrap();
        assert_eq!(value["schema"], json::SCHEMA);
        // The weaknesses lead: the census failure, then the two fidelity
        // cases (a fidelity finding and a forbidden refusal) as one.
        let weaknesses = value["weaknesses"].as_array().unwrap();
        assert_eq!(weaknesses.len(), 2);
        assert_eq!(weaknesses[0]["check"], "delimiter.census");
        assert_eq!(weaknesses[0]["count"], 1);
        assert_eq!(weaknesses[1]["check"], "fidelity");
        assert_eq!(weaknesses[1]["count"], 2);
        assert_eq!(value["level"], "unicode");
        assert_eq!(value["exit_code"], 2);
        assert_eq!(value["status"], "harness-error");
        assert_eq!(value["summary"]["total"], 7);
        assert_eq!(value["summary"]["by_category"]["breakout"]["fail"], 1);
        assert_eq!(value["results"][0]["verdicts"]["exact"], "pass");
        assert_eq!(value["results"][0]["verdicts"]["unicode"], "fail");
        assert_eq!(
            value["results"][1]["evidence"]["reader"]["answer"],
            "rejected"
        );
        assert!(value.get("baseline").is_none());
    }

    #[test]
    fn rejects_other_schemas() {
        let text = json::render(&run(Exact, vec![]));
        let other = text.replacen("framecheck-report/1", "framecheck-report/2", 1);
        assert!(matches!(
            json::parse(&other),
            Err(json::ParseError::Schema { .. })
        ));
        assert!(json::parse("{}").is_err());
        assert!(json::parse("not json").is_err());
    }
}

mod junit_report {
    use super::*;

    fn suite<'a>(doc: &'a roxmltree::Document, name: &str) -> roxmltree::Node<'a, 'a> {
        doc.descendants()
            .find(|n| n.has_tag_name("testsuite") && n.attribute("name") == Some(name))
            .unwrap_or_else(|| panic!("no suite {name}"))
    }

    #[test]
    fn hostile_run_is_well_formed_with_the_right_counts() {
        let xml = junit::render(&hostile_run());
        let doc = roxmltree::Document::parse(&xml).expect("well-formed XML");
        let suites: Vec<_> = doc
            .descendants()
            .filter(|n| n.has_tag_name("testsuite"))
            .collect();
        // harness (the run has a harness error and a target error), then
        // weaknesses, then breakout, forgery, attribute-injection, unicode,
        // reader, benign.
        assert_eq!(suites.len(), 8);
        assert_eq!(suites[0].attribute("name"), Some("harness"));
        assert_eq!(suites[1].attribute("name"), Some("weaknesses"));
        assert_eq!(suites[1].attribute("failures"), Some("2"));
        let cases = doc
            .descendants()
            .filter(|n| n.has_tag_name("testcase"))
            .count();
        assert_eq!(cases, 8 + 2);
        let count = |tag: &str| doc.descendants().filter(|n| n.has_tag_name(tag)).count();
        // Two weaknesses; breakout fail + benign fidelity + benign forbidden refusal.
        assert_eq!(count("failure"), 2 + 3);
        // The target error, and the harness error as a test of its own.
        assert_eq!(count("error"), 2);
        assert_eq!(count("skipped"), 1);

        let benign = suite(&doc, "benign");
        assert_eq!(benign.attribute("tests"), Some("2"));
        assert_eq!(benign.attribute("failures"), Some("2"));
        let breakout = suite(&doc, "breakout");
        let case = breakout
            .children()
            .find(|n| n.has_tag_name("testcase"))
            .unwrap();
        assert_eq!(case.attribute("name"), Some("breakout-close~zero-width"));
        assert_eq!(case.attribute("classname"), Some("breakout"));
        let failure = case.children().find(|n| n.has_tag_name("failure")).unwrap();
        assert_eq!(failure.attribute("type"), Some("delimiter.census"));
        let text = failure.text().unwrap_or_default();
        // The payload is shown, with the unrepresentable characters escaped.
        assert!(text.contains("]]>"), "{text}");
        assert!(text.contains(r"\u{0}"), "{text}");
        assert!(text.contains(r"\u{1B}"), "{text}");
        assert!(text.contains(r"\u{FFFE}"), "{text}");
        // The excerpt makes the zero-width space visible.
        assert!(text.contains(r"</framecheck\u{200B}-untrusted>"), "{text}");
        for raw in ['\u{0}', '\u{1B}', '\u{FFFE}', '\u{202E}', '\u{200B}', '\r'] {
            assert!(!xml.contains(raw), "raw {raw:?} in the JUnit report");
        }
        let message = failure.attribute("message").unwrap();
        assert!(
            message.contains(r"\u{202E}\u{200B} \r\n# heading"),
            "{message}"
        );
        let error = doc
            .descendants()
            .find(|n| n.has_tag_name("error") && n.attribute("type") == Some("target-error"))
            .unwrap();
        let stderr = error.text().unwrap_or_default();
        // The stderr tail keeps its lines and shows the rest escaped.
        assert!(stderr.contains("\nline two ```` end"), "{stderr}");
    }

    #[test]
    fn passing_run_has_no_failures() {
        let xml = junit::render(&run(Exact, vec![judged("a", Category::Breakout, vec![])]));
        let doc = roxmltree::Document::parse(&xml).unwrap();
        assert_eq!(
            doc.descendants()
                .filter(|n| n.has_tag_name("testcase"))
                .count(),
            1
        );
        assert_eq!(
            doc.descendants()
                .filter(|n| n.has_tag_name("failure"))
                .count(),
            0
        );
    }
}

mod sarif_report {
    use super::*;

    fn validator() -> jsonschema::Validator {
        let schema: serde_json::Value =
            serde_json::from_str(include_str!("../data/sarif-schema-2.1.0.json")).unwrap();
        jsonschema::options()
            .should_validate_formats(true)
            .build(&schema)
            .expect("the SARIF schema compiles")
    }

    fn assert_valid(log: &serde_json::Value) {
        let validator = validator();
        let errors: Vec<String> = validator
            .iter_errors(log)
            .map(|e| format!("{} at {}", e, e.instance_path))
            .collect();
        assert!(errors.is_empty(), "SARIF schema violations: {errors:#?}");
    }

    #[test]
    fn schema_rejects_a_broken_log() {
        // The validator must be able to fail, or the other tests prove nothing.
        let mut log = sarif::log(&hostile_run());
        log["runs"][0]["results"][0]["level"] = "fatal".into();
        assert!(!validator().is_valid(&log));
        let mut log = sarif::log(&hostile_run());
        log["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["region"]["startLine"] =
            0.into();
        assert!(!validator().is_valid(&log));
        // Formats are checked too: a raw space is no URI reference.
        let mut log = sarif::log(&hostile_run());
        log["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["artifactLocation"]
            ["uri"] = "attacks/break out #1.yaml".into();
        assert!(!validator().is_valid(&log));
    }

    #[test]
    fn hostile_run_validates_against_the_schema() {
        let text = sarif::render(&hostile_run());
        let log: serde_json::Value = serde_json::from_str(&text).unwrap();
        assert_valid(&log);
        let run = &log["runs"][0];
        assert_eq!(run["tool"]["driver"]["name"], "framecheck");
        assert_eq!(
            run["tool"]["driver"]["rules"].as_array().unwrap().len(),
            sarif::RULES.len()
        );
        let results = run["results"].as_array().unwrap();
        // One result per weakness: the census failure, and the fidelity
        // finding and the forbidden refusal together.
        assert_eq!(results.len(), 2);
        let first = &results[0];
        assert_eq!(first["ruleId"], "delimiter.census");
        assert_eq!(first["level"], "error");
        let rule_index = first["ruleIndex"].as_u64().unwrap() as usize;
        assert_eq!(
            run["tool"]["driver"]["rules"][rule_index]["id"],
            "delimiter.census"
        );
        // The user's source, not framecheck's catalogue, percent-encoded.
        assert_eq!(
            first["locations"][0]["physicalLocation"]["artifactLocation"]["uri"],
            "src/frame%20it%20%231.py"
        );
        assert_eq!(
            first["locations"][0]["physicalLocation"]["region"]["startLine"],
            12
        );
        assert_eq!(
            first["relatedLocations"][0]["logicalLocations"][0]["name"],
            "breakout-close~zero-width"
        );
        assert_eq!(
            first["properties"]["levels"],
            serde_json::json!(["unicode"])
        );
        assert_eq!(results[1]["properties"]["count"], 2);
        let message = first["relatedLocations"][0]["message"]["text"]
            .as_str()
            .unwrap();
        assert!(
            message.contains(r"\u{200B}") && !message.contains('\u{200B}'),
            "{message}"
        );
        assert_eq!(run["invocations"][0]["executionSuccessful"], false);
        assert_eq!(
            run["invocations"][0]["toolExecutionNotifications"]
                .as_array()
                .unwrap()
                .len(),
            2
        );
    }

    #[test]
    fn every_check_has_a_rule() {
        for check in sarif::RULES {
            assert!(!sarif::rule_description(check).is_empty());
        }
        let mut names: Vec<_> = sarif::RULES.iter().map(|c| c.name()).collect();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), sarif::RULES.len());
    }

    #[test]
    fn a_failing_case_is_one_result_named_by_its_primary_check() {
        let r = run(
            AsciiCaseInsensitive,
            vec![judged(
                "a",
                Category::Breakout,
                vec![
                    fidelity(),
                    security(Check::TagIntegrity, &[AsciiCaseInsensitive, Unicode]),
                    // Not at the run's level: not reported.
                    security(Check::HeaderIntegrity, &[Unicode]),
                ],
            )],
        );
        let log = sarif::log(&r);
        assert_valid(&log);
        let results = log["runs"][0]["results"].as_array().unwrap();
        let rules: Vec<_> = results
            .iter()
            .map(|r| r["ruleId"].as_str().unwrap())
            .collect();
        assert_eq!(rules, ["tag.integrity"]);
        assert_eq!(results[0]["level"], "error");
    }

    #[test]
    fn without_a_source_results_point_at_the_profile_file() {
        let mut r = hostile_run();
        r.meta.target = r.meta.target.edit(|p| p.source = None).unwrap();
        let uri = |r: &RunResult| {
            sarif::log(r)["runs"][0]["results"][0]["locations"][0]["physicalLocation"]
                ["artifactLocation"]["uri"]
                .clone()
        };
        assert_eq!(uri(&r), "targets/reference.yaml");
        let loaded = framecheck::profile::LoadedProfile {
            profile: r.meta.target.clone(),
            dir: PathBuf::from("."),
        };
        r.meta.manifest = Some(framecheck::manifest::collect(
            &loaded,
            Some(std::path::Path::new("ci/my profile.yaml")),
            "abc",
            None,
            vec![],
        ));
        assert_eq!(uri(&r), "ci/my%20profile.yaml");
        assert_valid(&sarif::log(&r));
    }

    #[test]
    fn fingerprints_do_not_depend_on_order_or_counts() {
        let fingerprints = |r: &RunResult| -> Vec<String> {
            let log = sarif::log(r);
            let mut out: Vec<String> = log["runs"][0]["results"]
                .as_array()
                .unwrap()
                .iter()
                .map(|r| r["partialFingerprints"]["framecheckWeakness/v1"].to_string())
                .collect();
            out.sort();
            out
        };
        let original = hostile_run();
        let mut changed = hostile_run();
        changed.results.reverse();
        // One case fewer in the fidelity weakness: same alert.
        changed.results.retain(|r| r.case.id != "benign-refused");
        assert_eq!(fingerprints(&original), fingerprints(&changed));
        assert_eq!(fingerprints(&original).len(), 2);
    }

    #[test]
    fn clean_run_validates() {
        let log = sarif::log(&run(Exact, vec![judged("a", Category::Breakout, vec![])]));
        assert_valid(&log);
        assert_eq!(log["runs"][0]["results"].as_array().unwrap().len(), 0);
        assert_eq!(
            log["runs"][0]["invocations"][0]["executionSuccessful"],
            true
        );
    }
}

mod markdown_report {
    use super::*;

    /// Cells in a GFM table row: unescaped pipes, minus the outer two.
    fn cells(row: &str) -> usize {
        let mut pipes = 0;
        let mut escaped = false;
        for c in row.chars() {
            match c {
                '\\' if !escaped => escaped = true,
                '|' if !escaped => pipes += 1,
                _ => escaped = false,
            }
            if c != '\\' {
                escaped = false;
            }
        }
        pipes - 1
    }

    /// Lines outside fenced code blocks, where Markdown syntax is live.
    fn prose_lines(md: &str) -> Vec<&str> {
        let mut lines = Vec::new();
        let mut fence: Option<usize> = None;
        for line in md.lines() {
            let ticks = line.chars().take_while(|&c| c == '`').count();
            match fence {
                Some(open) => {
                    if ticks >= open && line.trim_start_matches('`').trim().is_empty() {
                        fence = None;
                    }
                }
                None if ticks >= 3 => fence = Some(ticks),
                None => lines.push(line),
            }
        }
        assert!(fence.is_none(), "unclosed code block in {md}");
        lines
    }

    fn tables(md: &str) -> Vec<Vec<&str>> {
        let mut tables = Vec::new();
        let mut current = Vec::new();
        for line in prose_lines(md) {
            if line.starts_with('|') {
                current.push(line);
            } else if !current.is_empty() {
                tables.push(std::mem::take(&mut current));
            }
        }
        if !current.is_empty() {
            tables.push(current);
        }
        tables
    }

    #[test]
    fn tables_keep_their_columns() {
        let old = run(Unicode, vec![judged("x|y", Category::Breakout, vec![])]);
        let mut hostile_new = hostile_run();
        hostile_new.results.push(judged(
            "x|y",
            Category::Breakout,
            vec![security(Check::FrameShape, &[Exact])],
        ));
        let diff = baseline::diff(&old, &hostile_new, Unicode);
        let md = markdown::render_with_baseline(&hostile_new, Some(&diff));
        let tables = tables(&md);
        // Summary, weaknesses at a glance, baseline.
        assert_eq!(tables.len(), 3, "{md}");
        for table in tables {
            let width = cells(table[0]);
            for row in &table {
                assert_eq!(cells(row), width, "row {row:?} in {md}");
            }
        }
    }

    #[test]
    fn hostile_text_is_visible_and_inert() {
        let md = markdown::render(&hostile_run());
        for raw in [
            '\u{200B}',
            '\u{202E}',
            '\u{0}',
            '\u{1B}',
            '\u{FFFE}',
            '\r',
            '\u{E0041}',
            '\u{85}',
        ] {
            assert!(!md.contains(raw), "raw {raw:?} in the Markdown report");
        }
        assert!(md.contains(r"\u{200B}"), "zero-width space not shown");
        assert!(md.contains(r"\u{202E}"), "bidi override not shown");
        // The payload's line breaks cannot start a heading or a table row.
        let prose = prose_lines(&md);
        assert!(!prose.iter().any(|l| l.starts_with("# heading")));
        assert!(!prose.iter().any(|l| l.starts_with("| a | b |")));
        // In prose (the case title), HTML is escaped.
        assert!(md.contains(r"\<script\>x\</script\>"), "{md}");
        // The offending span and its offsets are shown.
        assert!(md.contains(r"`</framecheck\u{200B}-untrusted>`"), "{md}");
        assert!(md.contains("framed output, bytes"));
        // Fix hints and the honesty note.
        assert!(md.contains(Check::DelimiterCensus.hint()));
        assert!(md.contains("not a security boundary against an adaptive attacker"));
        // The 1 MiB reason is cut.
        assert!(md.len() < 200 * 1024, "report is {} bytes", md.len());
        assert!(md.contains("more bytes]"));
    }

    #[test]
    fn summary_comes_first_and_sections_split_by_kind() {
        let md = markdown::render(&hostile_run());
        let position = |needle: &str| md.find(needle).unwrap_or_else(|| panic!("no {needle:?}"));
        assert!(position("## Summary") < position("## Target"));
        assert!(position("## Security failures (1)") < position("## Fidelity failures (2)"));
        assert!(position("## Fidelity failures (2)") < position("## Errors (1)"));
        assert!(
            position("## Summary") < 2000,
            "summary not on the first screen"
        );
    }

    #[test]
    fn code_spans_survive_backtick_payloads() {
        let mut r = run(Unicode, vec![]);
        let mut result = judged(
            "a",
            Category::Breakout,
            vec![Finding {
                consumer: Default::default(),
                check: Check::CanaryContainment,
                class: CheckClass::Security,
                levels: vec![Unicode],
                message: "m".into(),
                excerpt: Some(Excerpt::cut(ExcerptSource::Framed, "x````y", 0, 6)),
                in_context: false,
                fault: None,
                live: None,
            }],
        );
        result.evidence.framed = Some("x````y".into());
        r.results.push(result);
        let md = markdown::render(&r);
        assert!(md.contains("`````x````y`````"), "{md}");
    }

    #[test]
    fn terminal_summary_fits_one_screen() {
        let results = (0..300)
            .map(|i| {
                let category = Category::ALL[i % Category::ALL.len()];
                judged(
                    &format!("case-{i}"),
                    category,
                    vec![security(Check::DelimiterCensus, &[Unicode])],
                )
            })
            .collect();
        let r = run(Unicode, results);
        let text = markdown::terminal_summary(&r);
        assert!(text.lines().count() <= 40, "{text}");
        assert!(text.contains("FAIL (exit 1)"));
        // The category with the fewest cases lists three and counts the rest.
        let fewest = 300 / Category::ALL.len();
        assert!(text.contains(&format!("and {} more", fewest - 3)), "{text}");
        let hostile = markdown::terminal_summary(&hostile_run());
        assert!(!hostile.contains('\u{1B}') && !hostile.contains('\u{202E}'));
        assert!(hostile.contains("HARNESS-ERROR (exit 2)"));
    }
}

mod baseline_diff {
    use super::*;

    fn fail(id: &str) -> CaseResult {
        judged(
            id,
            Category::Breakout,
            vec![security(
                Check::CanaryContainment,
                &[Exact, AsciiCaseInsensitive, Unicode],
            )],
        )
    }

    fn pass(id: &str) -> CaseResult {
        judged(id, Category::Breakout, vec![])
    }

    fn ids(entries: &[baseline::DiffEntry]) -> Vec<&str> {
        entries.iter().map(|e| e.id.as_str()).collect()
    }

    #[test]
    fn finds_new_failures_and_fixes() {
        let old = run(
            Unicode,
            vec![fail("a"), pass("b"), fail("c"), pass("d"), fail("gone")],
        );
        let new = run(
            Unicode,
            vec![
                pass("a"),
                fail("b"),
                fail("c"),
                pass("d"),
                fail("e"),
                pass("f"),
            ],
        );
        let diff = baseline::diff(&old, &new, Unicode);
        assert_eq!(ids(&diff.new_failures), ["b", "e"]);
        assert_eq!(ids(&diff.fixed), ["a"]);
        assert_eq!(ids(&diff.still_failing), ["c"]);
        assert_eq!(ids(&diff.new_cases), ["e", "f"]);
        assert_eq!(ids(&diff.removed_cases), ["gone"]);
        assert_eq!(diff.new_failures[0].old, Some(Verdict::Pass));
        assert_eq!(diff.new_failures[0].new, Some(Verdict::Fail));
        assert!(diff.is_regression());
        assert!(!diff.catalogue_changed);

        let same = baseline::diff(&new, &new, Unicode);
        assert!(!same.is_regression());
        assert_eq!(ids(&same.still_failing), ["b", "c", "e"]);
    }

    #[test]
    fn cases_outside_the_selection_are_not_run_not_removed() {
        let old = run(
            Unicode,
            vec![
                fail("kept"),
                fail("gone"),
                judged("elsewhere", Category::Unicode, vec![]),
            ],
        );
        let mut new = run(Unicode, vec![fail("kept")]);
        new.meta.filters = vec!["breakout".to_string()];
        let diff = baseline::diff(&old, &new, Unicode);
        // `gone` is a breakout case the selection takes, so it is removed;
        // `elsewhere` is outside it, so it was only not run.
        assert_eq!(ids(&diff.removed_cases), ["gone"]);
        assert_eq!(ids(&diff.not_run), ["elsewhere"]);
        assert_eq!(ids(&diff.still_failing), ["kept"]);
        // Without a selection every missing case is a removal.
        new.meta.filters.clear();
        let whole = baseline::diff(&old, &new, Unicode);
        assert_eq!(ids(&whole.removed_cases), ["gone", "elsewhere"]);
        assert!(whole.not_run.is_empty());
    }

    #[test]
    fn the_decision_is_the_gate_that_gave_the_exit_code() {
        let old = run(Unicode, vec![fail("a"), pass("b")]);
        let same = run(Unicode, vec![fail("a"), pass("b")]);
        let summary = Summary::of(&same);
        let accepted =
            baseline::Decision::of(&summary, Some(&baseline::diff(&old, &same, Unicode)));
        assert_eq!(accepted.exit_code, 0);
        assert_eq!(accepted.conformance_exit_code, 1);
        assert_eq!(accepted.decided_by, baseline::Decider::Baseline);
        assert_eq!(
            accepted.reason().unwrap(),
            "the baseline gate accepts the 1 failing case(s) the baseline already had \
             and finds no new failure (without the baseline: fail, exit 1)"
        );
        let terminal = markdown::terminal_summary_with_baseline(
            &same,
            Some(&baseline::diff(&old, &same, Unicode)),
        );
        assert!(
            terminal.contains("result: PASS (exit 0): the baseline gate"),
            "{terminal}"
        );
        let worse = run(Unicode, vec![fail("a"), fail("b")]);
        let regressed = baseline::Decision::of(
            &Summary::of(&worse),
            Some(&baseline::diff(&old, &worse, Unicode)),
        );
        assert_eq!(regressed.exit_code, 1);
        assert_eq!(
            regressed.reason().unwrap(),
            "the baseline gate finds 1 new failure(s)"
        );
        let clean = run(Unicode, vec![pass("b")]);
        let nothing = baseline::Decision::of(
            &Summary::of(&clean),
            Some(&baseline::diff(&clean, &clean, Unicode)),
        );
        assert_eq!(
            (nothing.exit_code, nothing.reason().unwrap().as_str()),
            (0, "the baseline gate finds no new failure")
        );
        let alone = baseline::Decision::of(&summary, None);
        assert_eq!((alone.exit_code, alone.reason()), (1, None));
    }

    #[test]
    fn level_decides_what_fails() {
        let unicode_only = judged(
            "u",
            Category::Unicode,
            vec![security(Check::DelimiterCensus, &[Unicode])],
        );
        let old = run(Unicode, vec![pass("u")]);
        let new = run(Unicode, vec![unicode_only]);
        assert!(baseline::diff(&old, &new, Unicode).is_regression());
        assert!(!baseline::diff(&old, &new, AsciiCaseInsensitive).is_regression());
    }

    #[test]
    fn errors_count_as_failing() {
        let error = result(
            case("a", Category::Breakout),
            Outcome::Error {
                reason: "hang".into(),
                stderr_tail: String::new(),
                fault: None,
            },
        );
        let diff = baseline::diff(
            &run(Exact, vec![pass("a")]),
            &run(Exact, vec![error]),
            Exact,
        );
        assert_eq!(ids(&diff.new_failures), ["a"]);
    }

    #[test]
    fn loads_a_written_report_and_shows_up_in_every_summary() {
        let dir = tempfile::tempdir().unwrap();
        let old = run(Unicode, vec![fail("a"), pass("b")]);
        let written = report::write_all(&old, dir.path(), "old", &[Format::Json]).unwrap();
        let loaded = json::load(&written[0]).unwrap();
        assert_eq!(loaded, old);

        let mut new = run(Unicode, vec![pass("a"), fail("b")]);
        new.meta.catalogue_hash = "changed".into();
        let diff = baseline::diff(&loaded, &new, Unicode);
        assert!(diff.catalogue_changed);
        let text = json::render_with_baseline(&new, Some(&diff));
        let value: serde_json::Value = serde_json::from_str(&text).unwrap();
        assert_eq!(value["baseline"]["new_failures"][0]["id"], "b");
        assert_eq!(value["baseline"]["fixed"][0]["id"], "a");
        // The diff is derived data: the run reads back without it.
        assert_eq!(json::parse(&text).unwrap(), new);

        let md = markdown::render_with_baseline(&new, Some(&diff));
        assert!(md.contains("**Regression**"), "{md}");
        assert!(md.contains("| new failure | `b` |"), "{md}");
        let terminal = markdown::terminal_summary_with_baseline(&new, Some(&diff));
        assert!(terminal.contains("1 new failures, 1 fixed"), "{terminal}");
        assert!(terminal.contains("new failure: b (fail)"), "{terminal}");
    }

    #[test]
    fn load_reports_missing_and_malformed_files() {
        let dir = tempfile::tempdir().unwrap();
        assert!(matches!(
            json::load(&dir.path().join("missing.json")),
            Err(report::BaselineError::Io { .. })
        ));
        let bad = dir.path().join("bad.json");
        std::fs::write(&bad, "{\"schema\": \"framecheck-report/1\"}").unwrap();
        let error = json::load(&bad).unwrap_err();
        assert!(matches!(error, report::BaselineError::Report { .. }));
        assert!(error.to_string().contains("bad.json"));
    }
}

mod writing {
    use super::*;

    fn listing(dir: &std::path::Path) -> Vec<String> {
        let mut names: Vec<String> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        names
    }

    #[test]
    fn writes_every_format_atomically_and_overwrites() {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("nested/reports");
        let first = run(Unicode, vec![judged("a", Category::Breakout, vec![])]);
        let paths = report::write_all(&first, &out, "reference", Format::ALL).unwrap();
        assert_eq!(
            listing(&out),
            [
                "reference.html",
                "reference.json",
                "reference.junit.xml",
                "reference.md",
                "reference.sarif"
            ]
        );
        assert_eq!(paths.len(), 5);
        assert_eq!(
            std::fs::read_to_string(&paths[0]).unwrap(),
            json::render(&first)
        );

        let second = run(Unicode, vec![judged("b", Category::Forgery, vec![])]);
        let again = report::write_all(&second, &out, "reference", Format::ALL).unwrap();
        assert_eq!(again, paths);
        for (path, format) in again.iter().zip(Format::ALL) {
            let text = std::fs::read_to_string(path).unwrap();
            assert_eq!(text, report::render(&second, *format, None), "{path:?}");
        }
        assert_eq!(
            listing(&out).len(),
            5,
            "temporary files left: {:?}",
            listing(&out)
        );
    }

    #[test]
    fn rejects_stems_that_leave_the_directory() {
        let dir = tempfile::tempdir().unwrap();
        let r = run(Exact, vec![]);
        for stem in ["", ".", "..", "../escape", "a/b", "a\\b"] {
            let error = report::write_all(&r, dir.path(), stem, &[Format::Json]).unwrap_err();
            assert_eq!(error.kind(), std::io::ErrorKind::InvalidInput, "{stem:?}");
        }
        assert!(listing(dir.path()).is_empty());
    }
}

/// Reports render what the checks decided and never judge liveness again:
/// no file under crates/report/src/ calls the oracle's scanner or asks a grammar
/// what is live (a finding carries its live delimiter as typed data).
#[test]
fn no_report_code_calls_the_scanner() {
    let files = crate::common::rust_files(&crate::common::repo().join("crates/report/src"));
    assert!(files.len() > 5, "{files:?}");
    let forbidden = [
        "scan::",
        "live_delimiters",
        "readings(",
        ".live(",
        "live_in(",
        "frame_key(",
        "classify(",
    ];
    for file in files {
        let text = std::fs::read_to_string(&file).unwrap();
        for word in forbidden {
            assert!(
                !text.contains(word),
                "{} calls `{word}`: a report must read the finding's `live`, not scan again",
                file.display()
            );
        }
    }
}

/// A SARIF result shows the delimiter the check found live in its minimal
/// case, from the finding's own record, and nothing when the finding
/// records none.
#[test]
fn sarif_shows_the_representative_s_live_delimiter() {
    let framed = "<framecheck-untrusted>\nx </framecheck-untrusted> y\n</framecheck-untrusted>";
    let census = |c: &ConcreteCase| {
        let Input::Wrap(request) = &c.input else {
            panic!("a wrap case")
        };
        framecheck::oracle::judge_wrap(
            c,
            &framecheck::envelope::reference_profile(),
            request,
            framed,
        )
        .into_iter()
        .find(|f| f.check == Check::DelimiterCensus && f.live.is_some())
        .expect("the census records the closer it found live")
    };
    let breakout = case("breakout", Category::Breakout);
    let finding = census(&breakout);
    let log = sarif::log(&run(
        Unicode,
        vec![judged("breakout", Category::Breakout, vec![finding])],
    ));
    let live = &log["runs"][0]["results"][0]["properties"]["representativeLive"];
    assert_eq!(live["role"], "close", "{log:#}");
    assert_eq!(live["text"], "framed");
    assert_eq!(live["level"], "exact");
    let (start, end) = (
        live["start"].as_u64().unwrap(),
        live["end"].as_u64().unwrap(),
    );
    assert_eq!(
        &framed[start as usize..end as usize],
        "</framecheck-untrusted"
    );
    // A finding without the record: no property, and nothing scanned.
    let log = sarif::log(&run(
        Unicode,
        vec![judged(
            "breakout",
            Category::Breakout,
            vec![security(
                Check::DelimiterCensus,
                &[Exact, AsciiCaseInsensitive, Unicode],
            )],
        )],
    ));
    let properties = &log["runs"][0]["results"][0]["properties"];
    assert!(
        properties.get("representativeLive").is_none(),
        "{properties:#}"
    );
}
