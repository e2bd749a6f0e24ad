//! The HTML report and the cross-target matrix on hand-built runs whose
//! every free-text field is hostile: the pages must stay inert (no markup,
//! attribute or script from a payload), show invisible characters, and
//! highlight exactly the offending span.
//!
//! The browser-side checks (filters, screenshots) are in `tests/browser/`.

use std::collections::BTreeMap;
use std::path::PathBuf;

use framecheck::adapter::WrapRequest;
use framecheck::catalogue::{
    Category, ConcreteCase, Expectation, Field, Input, Operation, RefusalPolicy, Severity,
    SourceLocation, Variant,
};
use framecheck::level::ReaderLevel;
use framecheck::oracle::{Check, CheckClass, Excerpt, ExcerptSource, Finding};
use framecheck::report::html::{self, Lead, LeadItem};
use framecheck::report::matrix::{Column, Matrix};
use framecheck::runner::{CaseResult, Evidence, Outcome, RunMeta, RunResult};
use regex::Regex;

/// Payloads aimed at HTML specifically: closing the elements a renderer
/// might put text in, breaking out of quoted and unquoted attributes,
/// event handlers, `javascript:` URLs, comments, CDATA, and characters a
/// reviewer cannot see.
const HOSTILE: &str =
    "</textarea></pre></code></title></style></script><script>window.pwned=1</script>\
<img src=x onerror=\"window.pwned=2\"> \"><svg onload='window.pwned=3'> ' onmouseover=alert(1) x=' \
javascript:alert(1) <!-- --> ]]> &amp; &#60; \u{200B}\u{202E}\u{E0041}\u{0}\u{1B}[31m \u{FF1C}x";

fn case(id: &str, category: Category) -> ConcreteCase {
    ConcreteCase {
        id: id.to_string(),
        base_id: id.split('~').next().unwrap_or(id).to_string(),
        variant: Variant::Exact,
        category,
        title: format!("title {HOSTILE}"),
        why: format!("why {HOSTILE}"),
        references: vec![HOSTILE.to_string()],
        flags: vec![],
        severity: Severity::High,
        operation: Operation::Wrap,
        input: Input::Wrap(WrapRequest {
            content: format!("content {HOSTILE}"),
            kind: HOSTILE.to_string(),
            attributes: BTreeMap::from([(HOSTILE.to_string(), HOSTILE.to_string())]),
            provenance: HOSTILE.to_string(),
        }),
        expect: Expectation::Hold,
        refusal: RefusalPolicy::Allowed,
        min_level: ReaderLevel::Exact,
        canary: "CANARY".to_string(),
        canary_fields: vec![Field::Content],
        requires: vec![],
        site: Default::default(),
        harvest: None,
        source: SourceLocation {
            file: PathBuf::from(format!("attacks/{HOSTILE}.yaml")),
            line: 3,
        },
    }
}

const SPAN: &str = "</framecheck\u{200B}-untrusted>";

fn breakout() -> CaseResult {
    let framed = format!("<framecheck-untrusted>\n{HOSTILE}{SPAN}\n</framecheck-untrusted>");
    let start = framed.find(SPAN).unwrap();
    CaseResult {
        case: case(&format!("breakout-{HOSTILE}"), Category::Breakout),
        outcome: Outcome::Judged {
            findings: vec![Finding {
                consumer: Default::default(),
                check: Check::DelimiterCensus,
                class: CheckClass::Security,
                levels: vec![ReaderLevel::Unicode],
                message: format!("message {HOSTILE}"),
                excerpt: Some(Excerpt::cut(
                    ExcerptSource::Framed,
                    &framed,
                    start,
                    start + SPAN.len(),
                )),
                in_context: false,
                fault: None,
                live: None,
            }],
        },
        evidence: Evidence {
            framed: Some(framed),
            ..Evidence::default()
        },
        elapsed_us: 1,
    }
}

fn other(id: &str, category: Category, outcome: Outcome) -> CaseResult {
    CaseResult {
        case: case(id, category),
        outcome,
        evidence: Evidence {
            read_text: Some(HOSTILE.to_string()),
            read_body: Some(Some(HOSTILE.to_string())),
            ..Evidence::default()
        },
        elapsed_us: 1,
    }
}

fn hostile_run(name: &str) -> RunResult {
    let target = framecheck::envelope::reference_profile()
        .edit(|p| {
            // A target's name is validated (`[A-Za-z0-9_-]+`), so a report
            // can carry no hostile name; its free-text fields can.
            p.name = name.to_string();
            p.description = format!("{name} {HOSTILE}");
            p.language = HOSTILE.to_string();
        })
        .unwrap();
    RunResult {
        meta: RunMeta {
            framecheck_version: HOSTILE.to_string(),
            catalogue_hash: HOSTILE.to_string(),
            target,
            level: ReaderLevel::Unicode,
            gate: Default::default(),
            started_unix: 0,
            duration_ms: 1,
            filters: vec![HOSTILE.to_string()],
            harness_error: Some(HOSTILE.to_string()),
            manifest: None,
            layout: None,
            misfit: false,
            unmarked: false,
            passed_on_replay: 0,
            target_fault: None,
        },
        results: vec![
            breakout(),
            other(
                "benign-refused",
                Category::Benign,
                Outcome::Refused {
                    reason: HOSTILE.to_string(),
                    acceptable: false,
                },
            ),
            other(
                "unicode-error",
                Category::Unicode,
                Outcome::Error {
                    reason: HOSTILE.to_string(),
                    stderr_tail: HOSTILE.to_string(),
                    fault: Some(framecheck::adapter::Fault {
                        kind: framecheck::adapter::FaultKind::ProtocolViolation,
                        exit_status: Some(HOSTILE.to_string()),
                        offending_line: Some(HOSTILE.to_string()),
                        stderr_tail: HOSTILE.to_string(),
                    }),
                },
            ),
            other(
                "reader-pass",
                Category::Reader,
                Outcome::Judged { findings: vec![] },
            ),
            other(
                "attr-skip",
                Category::AttributeInjection,
                Outcome::Skipped {
                    reason: HOSTILE.to_string(),
                },
            ),
        ],
        views: Vec::new(),
    }
}

/// The elements the pages are made of. Any other tag in a page came from
/// a payload.
const OUR_TAGS: &[&str] = &[
    "html", "head", "meta", "title", "style", "body", "header", "section", "h1", "h2", "h4", "p",
    "span", "b", "i", "code", "pre", "mark", "table", "tr", "th", "td", "details", "summary",
    "div", "ul", "ol", "li", "a", "br", "button", "label", "select", "option", "script",
];

/// Asserts `page` is made only of our markup: ASCII only (every invisible
/// or lookalike character shown as an escape), every `<` opens one of
/// [`OUR_TAGS`] with well-formed double-quoted attributes and no event
/// handler, exactly one script element, and no `javascript:` link.
fn assert_inert(page: &str) {
    assert!(
        page.is_ascii(),
        "a raw non-ASCII character reached the page"
    );
    let tag = Regex::new(r#"<(/?)([a-zA-Z0-9!]+)([^<>]*)>"#).unwrap();
    let attributes = Regex::new(r#"^(\s+[a-z-]+(="[^"<>]*")?)*\s*$"#).unwrap();
    let values = Regex::new(r#"="[^"]*""#).unwrap();
    let mut tags = 0;
    for found in tag.captures_iter(page) {
        tags += 1;
        let name = found[2].to_ascii_lowercase();
        if name == "!doctype" {
            continue;
        }
        assert!(
            OUR_TAGS.contains(&name.as_str()),
            "foreign tag <{name}> in {}",
            &found[0]
        );
        assert!(
            attributes.is_match(&found[3]),
            "malformed attributes in {}",
            &found[0]
        );
        // Attribute names, with the (escaped) values taken out.
        let names = values.replace_all(&found[3], "");
        assert!(
            !names.split_whitespace().any(|n| n.starts_with("on")),
            "event handler in {}",
            &found[0]
        );
        assert!(!found[3].contains("href=\"javascript:"), "{}", &found[0]);
    }
    assert!(tags > 10);
    // No `<` outside a tag of ours: every one was matched above.
    assert_eq!(page.matches('<').count(), tags);
    assert_eq!(page.to_ascii_lowercase().matches("<script").count(), 1);
    assert!(!page.contains("<!--"));
}

#[test]
fn hostile_report_is_inert_and_shows_invisible_characters() {
    let page = html::render(&hostile_run("target"));
    assert_inert(&page);
    for escape in [
        r"\u{200B}",
        r"\u{202E}",
        r"\u{E0041}",
        r"\u{0}",
        r"\u{1B}",
        r"\u{FF1C}",
    ] {
        assert!(page.contains(escape), "{escape} not shown");
    }
    assert!(page.contains("&lt;/textarea&gt;&lt;/pre&gt;"));
    assert!(page.contains("&quot;&gt;&lt;svg onload=&#39;window.pwned=3&#39;&gt;"));
}

#[test]
fn offending_span_is_highlighted_exactly() {
    let page = html::render(&hostile_run("target"));
    let expected = "<mark>&lt;/framecheck<span class=\"esc\">\\u{200B}</span>-untrusted&gt;</mark>";
    // Once in the framed output, once after the finding's offsets.
    assert_eq!(page.matches(expected).count(), 2, "{expected}");
}

#[test]
fn cases_carry_the_filter_keys_and_verdicts() {
    let page = html::render(&hostile_run("target"));
    assert!(page.contains(
        "data-verdict=\"fail\" data-category=\"breakout\" data-checks=\"delimiter.census\""
    ));
    assert!(page.contains("data-verdict=\"fidelity-fail\" data-category=\"benign\""));
    assert!(page.contains("data-verdict=\"error\" data-category=\"unicode\""));
    assert!(page.contains("data-verdict=\"skipped\" data-category=\"attribute-injection\""));
    assert_eq!(page.matches("<details class=\"case\"").count(), 5);
    assert!(page.contains("INCOMPLETE (harness error)"));
    // The run has a harness error: an incomplete run holds no level.
    assert!(page.contains("<b class=\"mono\" id=\"held\">none (the run is incomplete)</b>"));
}

/// The heatmap row of `category`, from its `<tr>` to its `</tr>`.
fn heatmap_row<'a>(page: &'a str, category: &str) -> &'a str {
    let table = &page[page.find("<table id=\"heatmap\">").expect("a heatmap")..];
    let start = table
        .find(&format!("data-value=\"{category}\""))
        .unwrap_or_else(|| panic!("no heatmap row for {category}"));
    let row = &table[start..];
    &row[..row.find("</tr>").unwrap()]
}

/// A category whose every case was skipped or went unanswered shows as
/// not run, in grey, at every level: not a green "0" failures. Judged
/// categories keep their counts.
#[test]
fn the_heatmap_shows_categories_that_did_not_run_as_not_run() {
    let page = html::render(&hostile_run("target"));
    for category in ["attribute-injection", "unicode"] {
        let row = heatmap_row(&page, category);
        assert_eq!(
            row.matches("<td class=\"h-unrun\">not run</td>").count(),
            3,
            "{row}"
        );
        assert!(!row.contains("class=\"h0\""), "{row}");
        assert!(row.contains("<td>1 (1 not run)</td>"), "{row}");
    }
    let judged = heatmap_row(&page, "reader");
    assert_eq!(
        judged.matches("<td class=\"h0\">0</td>").count(),
        3,
        "{judged}"
    );
    assert!(judged.contains("<td>1</td>"), "{judged}");
    let failing = heatmap_row(&page, "breakout");
    assert!(failing.contains("<td class=\"h4\">1</td>"), "{failing}");
}

#[test]
fn lead_section_renders_only_when_given_entries() {
    let run = hostile_run("target");
    assert!(!html::render_with(&run, None, None).contains("id=\"lead\""));
    // The page as written leads with the run's weaknesses.
    assert!(html::render(&run).contains("id=\"lead\""));
    let lead = Lead {
        title: format!("Weaknesses {HOSTILE}"),
        items: vec![LeadItem {
            headline: HOSTILE.to_string(),
            detail: HOSTILE.to_string(),
            case_id: Some(format!("breakout-{HOSTILE}")),
            severity: Some(Severity::Critical),
            example: Some(HOSTILE.to_string()),
        }],
    };
    let page = html::render_with(&run, None, Some(&lead));
    assert_inert(&page);
    let lead_at = page.find("id=\"lead\"").unwrap();
    assert!(lead_at < page.find("id=\"heatmap\"").unwrap());
    // The example links to the case's own anchor.
    let anchor = framecheck::report::page::anchor("case-", &format!("breakout-{HOSTILE}"));
    assert!(page.contains(&format!("href=\"#{anchor}\"")));
    assert!(page.contains(&format!("id=\"{anchor}\"")));
}

#[test]
fn matrix_lines_up_cases_and_marks_the_ones_not_run() {
    let first = hostile_run("first");
    let mut second = hostile_run("second");
    second.results.truncate(2);
    let columns = vec![
        Column {
            run: first,
            link: Some(format!("first {HOSTILE}.html")),
        },
        Column {
            run: second,
            link: Some("second.md".into()),
        },
    ];
    let matrix = Matrix::new(&columns);
    let page = matrix.to_html();
    assert_inert(&page);
    // Three cases ran in the first target only.
    assert_eq!(page.matches("<td class=\"v-none\">-</td>").count(), 3);
    let anchor = framecheck::report::page::anchor("case-", "reader-pass");
    assert!(page.contains(&format!("#{anchor}\">pass</a>")));
    assert!(page.contains("<td class=\"v-fail\"><a href=\"second.md\">fail</a></td>"));

    let markdown = matrix.to_markdown();
    let rows: Vec<&str> = markdown.lines().filter(|l| l.starts_with("| ")).collect();
    assert_eq!(rows.len(), 1 + 5, "{markdown}");
    for row in &rows {
        // category, case, two targets: five unescaped pipes
        let pipes = row.matches('|').count() - row.matches("\\|").count();
        assert_eq!(pipes, 5, "{row}");
    }
    assert!(
        markdown.contains("| benign | `benign-refused` | **fidelity-fail** | **fidelity-fail** |")
    );
    assert!(markdown.contains("| reader | `reader-pass` | pass | - |"));
}

#[test]
fn matrix_command_writes_both_pages_skips_other_json_and_names_bad_files() {
    let dir = tempfile::tempdir().unwrap();
    let write = |name: &str, text: &str| {
        let path = dir.path().join(name);
        std::fs::write(&path, text).unwrap();
        path
    };
    let mut run = hostile_run("first");
    run.meta.target = run.meta.target.edit(|p| p.name = "first".into()).unwrap();
    let good = write("first.json", &framecheck::report::json::render(&run));
    let search = write("search-first.json", "{\"target\": \"first\", \"seed\": 1}");
    let broken = write(
        "broken.json",
        "{\"schema\": \"framecheck-report/1\", \"results\": 7}",
    );
    let out = dir.path().join("out");
    let output = crate::common::framecheck_command(&["matrix", "--html", "--out"])
        .arg(&out)
        .args([&good, &search, &broken])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    // A report that does not parse is a harness error naming the file; the
    // others still make the matrix.
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("broken.json"), "{stderr}");
    assert!(
        stderr.contains("search-first.json: not a run report; skipped"),
        "{stderr}"
    );
    let index = std::fs::read_to_string(out.join("index.html")).unwrap();
    assert_inert(&index);
    // The HTML report was written beside its JSON and the cells link into it.
    assert!(dir.path().join("first.html").exists());
    assert!(
        index.contains("href=\"../first.html#case-reader-pass\""),
        "links"
    );
    assert!(std::fs::read_to_string(out.join("matrix.md"))
        .unwrap()
        .contains("| reader | `reader-pass` | pass |"));
}

/// A profile that does not state its language (as `init` used to propose
/// them) gets it from its adapter in every report: the built-in reference
/// is Rust, in process.
#[test]
fn the_language_a_profile_leaves_out_comes_from_its_adapter() {
    let dir = tempfile::tempdir().unwrap();
    let reference =
        std::fs::read_to_string(crate::common::repo().join("targets/reference.yaml")).unwrap();
    let unstated = reference.replace("language: rust\n", "");
    assert_ne!(unstated, reference);
    let profile = dir.path().join("mine.yaml");
    std::fs::write(&profile, unstated).unwrap();
    let out = dir.path().join("out");
    let output = crate::common::framecheck_command(&[
        "run", "--only", "benign", "--format", "html", "--format", "markdown",
    ])
    .arg("--target")
    .arg(&profile)
    .arg("--out")
    .arg(&out)
    .output()
    .unwrap();
    assert_eq!(output.status.code(), Some(0), "{output:?}");
    let page = std::fs::read_to_string(out.join("reference.html")).unwrap();
    assert!(page.contains("Target language Rust, in-process;"), "{page}");
    let markdown = std::fs::read_to_string(out.join("reference.md")).unwrap();
    assert!(
        markdown.contains("- language: Rust, in-process"),
        "{markdown}"
    );
}

#[test]
fn the_header_counts_the_targets_faults_by_kind() {
    let mut run = hostile_run("target");
    let one = "<p id=\"faults\">1 case made the target fault: 1 protocol violation.</p>";
    assert!(html::render(&run).contains(one));
    // A fault that replayed is recorded on the case's finding, not as an
    // error: it is counted too.
    let mut crash = run.results[0].clone();
    crash.case.id = "crash-case".into();
    crash.outcome = Outcome::Judged {
        findings: vec![Finding {
            consumer: Default::default(),
            fault: Some(framecheck::adapter::Fault::new(
                framecheck::adapter::FaultKind::Crash,
            )),
            check: Check::TargetFault,
            class: CheckClass::Fault,
            levels: ReaderLevel::ALL.to_vec(),
            message: "crashed".into(),
            excerpt: None,
            in_context: false,
            live: None,
        }],
    };
    run.results.push(crash);
    let two = "2 cases made the target fault: 1 crash, 1 protocol violation.";
    assert!(html::render(&run).contains(two));
    assert!(framecheck::report::markdown::render(&run).contains(two));
    // A target that never faulted gets no fault line.
    run.results
        .retain(|r| !matches!(r.outcome, Outcome::Error { .. }));
    run.results.pop();
    assert!(!html::render(&run).contains("id=\"faults\""));
}

#[test]
fn weaknesses_lead_with_a_plain_title_their_severity_and_an_example() {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("reports/seed-go-context.json");
    let run = framecheck::report::json::parse(&std::fs::read_to_string(path).unwrap()).unwrap();
    let weaknesses = framecheck::report::weakness::weaknesses(&run);
    let page = html::render(&run);
    let lead = &page[page.find("id=\"lead\"").unwrap()..page.find("</section>").unwrap()];
    assert_eq!(lead.matches("<li>").count(), weaknesses.len());
    assert_eq!(
        lead.matches("<pre class=\"example\">").count(),
        weaknesses.len()
    );
    for weakness in &weaknesses {
        let title = framecheck::report::page::shown(&weakness.title());
        assert!(lead.contains(&format!("<b>{title}</b>")), "{title}");
        // The machine id is detail, never the headline.
        assert!(!weakness.title().contains(&weakness.id));
    }
    assert!(lead.contains("<span class=\"badge sev-critical\">critical</span> <b>"));
    let titles: Vec<String> = weaknesses.iter().map(|w| w.title()).collect();
    for expected in [
        "The closing, opening, inner-element and reserved-element delimiters in the content \
         are written through as declared",
        "Upper-case and mixed-case spellings of the closing delimiter in an attribute are left \
         live",
        "Case-folded spellings of a chat-template control string in the content pass (read as \
         no control token)",
    ] {
        assert!(titles.iter().any(|t| t == expected), "{titles:#?}");
    }
}
