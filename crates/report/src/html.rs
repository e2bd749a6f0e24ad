//! The HTML report: one self-contained page a reviewer opens in a browser.
//!
//! At the top: the verdict, the level the run was decided at, the highest
//! level held, and what a pass does not prove. Then an optional lead section
//! (the slot for a grouped "weaknesses" list, see [`Lead`]), a category ×
//! reader-level heatmap of security failures, filters by verdict, category
//! and check, and every case: its findings with fix hints, its payload, and
//! the target's framed output (and reader input and body) with each
//! finding's span highlighted and invisible characters shown as `\u{…}`.
//!
//! The page fetches nothing (see [`super::page`] for the escaping rules and
//! the Content Security Policy). Without JavaScript every case is shown; the
//! script only hides cases that do not match the filters.
//!
//! ```
//! use framecheck_report::html;
//! # fn run() -> framecheck_launch::outcome::RunResult { unimplemented!() }
//! # fn doc() {
//! let page = html::render(&run());
//! assert!(page.starts_with("<!DOCTYPE html>"));
//! # }
//! ```

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;

use super::baseline::{BaselineDiff, Decision};
use super::page::{self, anchor, shown, shown_block, text};
use super::summary::Summary;
use super::weakness::Surface;
use framecheck_core::catalogue::{Category, Input, Severity};
use framecheck_core::gate::Gate;
use framecheck_core::level::ReaderLevel;
use framecheck_core::oracle::{Check, CheckClass, ExcerptSource, Finding};
use framecheck_core::target::WrapRequest;
use framecheck_launch::outcome::{CaseResult, Outcome, RunResult, Verdict};

/// Longest run-supplied text shown in one evidence block, in bytes; the JSON
/// report keeps every text whole.
pub const MAX_BLOCK_BYTES: usize = 16 * 1024;

/// A list shown right under the status, before the heatmap: the hook for a
/// grouped summary such as "weaknesses" (one entry per distinct weakness,
/// each with a case that shows it). Every string is escaped when rendered.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Lead {
    /// The section heading.
    pub title: String,
    /// The entries, in display order.
    pub items: Vec<LeadItem>,
}

/// One entry of a [`Lead`] section.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct LeadItem {
    /// One line naming the weakness.
    pub headline: String,
    /// More words on it; may be empty.
    pub detail: String,
    /// A case that shows it; linked to the case on the page.
    pub case_id: Option<String>,
    /// How bad it is, shown as a badge before the headline.
    pub severity: Option<Severity>,
    /// The text that shows it (the case's payload), shown under the
    /// headline so a reviewer reads the defect without a click.
    pub example: Option<String>,
}

/// Renders `run` as an HTML page, led by its weaknesses.
pub fn render(run: &RunResult) -> String {
    render_with(run, None, Some(&weakness_lead(run)))
}

/// The run's weaknesses (see [`super::weakness`]) as the page's lead
/// section: the conclusions first, the cases below them.
pub fn weakness_lead(run: &RunResult) -> Lead {
    let items = super::weakness::weaknesses(run)
        .into_iter()
        .map(|w| LeadItem {
            headline: w.title(),
            detail: format!(
                "{} case{}; {}{} at {}; id {}",
                w.count,
                if w.count == 1 { "" } else { "s" },
                match (w.counted, CheckClass::APART.contains(&w.class)) {
                    (false, _) => format!("{}, a folded spelling not counted, ", w.class.name()),
                    (true, true) => format!("{}, ", w.class.name()),
                    (true, false) => String::new(),
                },
                if w.fails {
                    "fails"
                } else {
                    "reported, not failing,"
                },
                super::weakness::levels_text(&w),
                w.id
            ),
            severity: Some(w.severity),
            example: example_text(run, &w.representative, w.field),
            case_id: Some(w.representative),
        })
        .collect();
    Lead {
        title: "Weaknesses".into(),
        items,
    }
}

/// The text of case `id` that a weakness on `surface` attacks: the
/// payload field, or the text the reader was given; `None` when it is empty.
fn example_text(run: &RunResult, id: &str, surface: Surface) -> Option<String> {
    let result = run.results.iter().find(|r| r.case.id == id)?;
    let text = match (&result.case.input, surface) {
        (_, Surface::ReaderInput) => result.evidence.read_text.clone()?,
        (Input::Read(_), _) => return None,
        (Input::Wrap(request), Surface::Content) => request.content.clone(),
        (Input::Wrap(request), Surface::Kind) => request.kind.clone(),
        (Input::Wrap(request), Surface::Provenance) => request.provenance.clone(),
        // Every attribute, one per line: the attacked one is among them.
        (Input::Wrap(request), Surface::Attributes) => request
            .attributes
            .iter()
            .map(|(key, value)| format!("{key}={value}"))
            .collect::<Vec<_>>()
            .join("\n"),
    };
    (!text.is_empty()).then(|| clip(&text).0.into_owned())
}

/// Renders `run` as an HTML page with the baseline diff and a lead section,
/// each when given.
pub fn render_with(
    run: &RunResult,
    baseline: Option<&BaselineDiff>,
    lead: Option<&Lead>,
) -> String {
    let summary = Summary::of(run);
    let mut body = String::new();
    write_header(&mut body, run, &summary, &Decision::of(&summary, baseline));
    if let Some(lead) = lead.filter(|l| !l.items.is_empty()) {
        write_lead(&mut body, lead);
    }
    // The same error every format states: the run's own plus the cases
    // the target never answered.
    if let Some(error) = &super::summary::harness_error(run) {
        body.push_str("<h2>Harness error</h2>\n<p>The run did not finish; the results below are incomplete.</p>\n");
        let _ = writeln!(body, "<pre>{}</pre>", shown_block(error));
    }
    if let Some(diff) = baseline {
        write_baseline(&mut body, diff);
    }
    write_heatmap(&mut body, run);
    super::views::write_html(&mut body, run);
    write_filters(&mut body, run);
    write_cases(&mut body, run);
    let title = format!("framecheck report: {}", run.meta.target.name);
    let style = format!("{}{REPORT_STYLE}", page::BASE_STYLE);
    page::document(&title, &style, FILTER_SCRIPT, &body)
}

fn write_header(out: &mut String, run: &RunResult, summary: &Summary, decision: &Decision) {
    let meta = &run.meta;
    let _ = writeln!(
        out,
        "<header>\n<h1>framecheck report: {}</h1>",
        shown(&meta.target.name)
    );
    let (class, status) = match decision.status() {
        "pass" => ("v-pass", "PASS"),
        "fail" => ("v-fail", "FAIL"),
        _ => ("v-error", "INCOMPLETE (harness error)"),
    };
    // The one wording every format uses, with its reason when none is held.
    let held = shown(&summary.level_held_text());
    let at = summary.at_level();
    let _ = writeln!(
        out,
        "<p id=\"status\"><span class=\"badge {class}\">{status}</span> exit {} at level \
         <b class=\"mono\">{}</b>, <b class=\"mono\">{}</b> gate{}. Highest level held: <b class=\"mono\" id=\"held\">{held}</b>.</p>",
        decision.exit_code,
        meta.level.name(),
        meta.gate.name(),
        decision
            .reason()
            .map_or_else(String::new, |reason| format!(": {}", text(&reason)))
    );
    if !summary.apart.is_empty() {
        let _ = writeln!(
            out,
            "<p id=\"apart\">Reported apart from security and fidelity (cases): {}.</p>",
            text(&super::summary::apart_text(summary))
        );
    }
    let _ = writeln!(
        out,
        "<p>{} cases: {} pass, {} refused, {} {}, {} fidelity failures, {} errors, \
         {} skipped. Target language {}; framecheck {}; catalogue {}.</p>",
        summary.total,
        at.pass,
        at.refused,
        at.fail,
        text(super::summary::fail_label(meta.gate)),
        at.fidelity_fail,
        at.error,
        at.skipped,
        match meta.target.language.trim() {
            "" => "not stated".to_string(),
            language => shown(language),
        },
        shown(&meta.framecheck_version),
        shown(&meta.catalogue_hash)
    );
    if let Some(faults) = super::summary::faults_text(run) {
        let _ = writeln!(out, "<p id=\"faults\">{}.</p>", text(&faults));
    }
    if let Some(unplanted) = super::summary::unplanted_text(run) {
        let _ = writeln!(out, "<p id=\"unplanted\">{}.</p>", text(&unplanted));
    }
    let _ = writeln!(
        out,
        "<p class=\"note\">{}</p>\n</header>",
        text(super::markdown::HONESTY_NOTE)
    );
}

fn write_lead(out: &mut String, lead: &Lead) {
    let _ = writeln!(
        out,
        "<section id=\"lead\">\n<h2>{}</h2>\n<ol>",
        shown(&lead.title)
    );
    for item in &lead.items {
        out.push_str("<li>");
        if let Some(severity) = item.severity {
            let name = super::severity_name(severity);
            let _ = write!(out, "<span class=\"badge sev-{name}\">{name}</span> ");
        }
        let _ = write!(out, "<b>{}</b>", shown(&item.headline));
        if !item.detail.is_empty() {
            let _ = write!(out, ": {}", shown(&item.detail));
        }
        if let Some(example) = &item.example {
            let _ = write!(out, "<pre class=\"example\">{}</pre>", shown_block(example));
        }
        if let Some(id) = &item.case_id {
            let _ = write!(
                out,
                " (for example <a href=\"#{}\"><code>{}</code></a>)",
                anchor("case-", id),
                shown(id)
            );
        }
        out.push_str("</li>\n");
    }
    out.push_str("</ol>\n</section>\n");
}

fn write_baseline(out: &mut String, diff: &BaselineDiff) {
    let _ = writeln!(
        out,
        "<h2>Baseline comparison at level {}</h2>\n<p>{} new failures, {} fixed, {} still failing, \
         {} new cases, {} removed cases{}{}.</p>",
        diff.level.name(),
        diff.new_failures.len(),
        diff.fixed.len(),
        diff.still_failing.len(),
        diff.new_cases.len(),
        diff.removed_cases.len(),
        text(&super::markdown::not_run_clause(diff)),
        if diff.catalogue_changed {
            "; the catalogue changed"
        } else {
            ""
        }
    );
    if diff.new_failures.is_empty() {
        return;
    }
    out.push_str("<ul id=\"new-failures\">\n");
    for entry in &diff.new_failures {
        let _ = writeln!(
            out,
            "<li><a href=\"#{}\"><code>{}</code></a> {}</li>",
            anchor("case-", &entry.id),
            shown(&entry.id),
            shown(&entry.title)
        );
    }
    out.push_str("</ul>\n");
}

/// Security failures per category at each reader level: the rows say where
/// the framing breaks, the columns at which reader. Each row filters the
/// case list to its category. Cases the target did not answer (errors) or
/// that did not run (skipped) are no evidence either way: a row counts
/// failures among the judged cases only, and a category with none judged
/// says "not run" in grey, never a green "0".
fn write_heatmap(out: &mut String, run: &RunResult) {
    let mut rows: BTreeMap<Category, HeatRow> = BTreeMap::new();
    for result in &run.results {
        let row = rows.entry(result.case.category).or_default();
        row.total += 1;
        let at_run_level = result.verdict(run.meta.level, run.meta.gate);
        row.judged += usize::from(!matches!(at_run_level, Verdict::Error | Verdict::Skipped));
        for (i, &level) in ReaderLevel::ALL.iter().enumerate() {
            row.fails[i] += usize::from(result.verdict(level, run.meta.gate) == Verdict::Fail);
        }
    }
    out.push_str("<h2>Security failures by category and reader level</h2>\n<table id=\"heatmap\">\n<tr><th>category</th><th>cases</th>");
    for level in ReaderLevel::ALL {
        let _ = write!(out, "<th>{}</th>", level.name());
    }
    out.push_str("</tr>\n");
    for (category, row) in &rows {
        let unrun = row.total - row.judged;
        let _ = write!(
            out,
            "<tr><th><button class=\"link\" data-filter=\"category\" data-value=\"{0}\">{0}</button></th><td>{1}{2}</td>",
            category.name(),
            row.total,
            if unrun == 0 {
                String::new()
            } else {
                format!(" ({unrun} not run)")
            }
        );
        for fail in row.fails {
            if row.judged == 0 {
                out.push_str("<td class=\"h-unrun\">not run</td>");
            } else {
                let _ = write!(
                    out,
                    "<td class=\"{}\">{fail}</td>",
                    heat_class(fail, row.judged)
                );
            }
        }
        out.push_str("</tr>\n");
    }
    out.push_str("</table>\n");
}

/// One heatmap row: the category's cases, how many were judged (answered
/// and not skipped), and its security failures at each level.
#[derive(Default)]
struct HeatRow {
    total: usize,
    judged: usize,
    fails: [usize; ReaderLevel::ALL.len()],
}

/// The colour bucket of `fails` out of `total`: none, under a tenth, under a
/// third, under two thirds, the rest.
pub(crate) fn heat_class(fails: usize, total: usize) -> &'static str {
    match (fails, total) {
        (0, _) => "h0",
        (f, t) if f * 10 < t => "h1",
        (f, t) if f * 3 < t => "h2",
        (f, t) if f * 3 < t * 2 => "h3",
        _ => "h4",
    }
}

fn write_filters(out: &mut String, run: &RunResult) {
    let level = run.meta.level;
    let mut verdicts: BTreeMap<Verdict, usize> = BTreeMap::new();
    let mut categories: BTreeMap<Category, usize> = BTreeMap::new();
    let mut checks: BTreeMap<Check, usize> = BTreeMap::new();
    for result in &run.results {
        *verdicts
            .entry(result.verdict(level, run.meta.gate))
            .or_default() += 1;
        *categories.entry(result.case.category).or_default() += 1;
        for check in case_checks(result, level) {
            *checks.entry(check).or_default() += 1;
        }
    }
    let _ = writeln!(
        out,
        "<h2>Cases at level {}</h2>\n<div id=\"filters\">",
        level.name()
    );
    for (verdict, count) in &verdicts {
        let _ = write!(
            out,
            "<button class=\"badge v-{0}\" data-filter=\"verdict\" data-value=\"{0}\">{0} {count}</button> ",
            verdict.name()
        );
    }
    out.push_str("<br>\n");
    write_select(out, "verdict", verdicts.iter().map(|(v, n)| (v.name(), *n)));
    write_select(
        out,
        "category",
        categories.iter().map(|(c, n)| (c.name(), *n)),
    );
    write_select(out, "check", checks.iter().map(|(c, n)| (c.name(), *n)));
    let _ = writeln!(
        out,
        "<button id=\"reset\">show all</button> <span id=\"shown\">{0}</span> of {0} cases shown\n</div>",
        run.results.len()
    );
}

fn write_select<'a>(out: &mut String, name: &str, options: impl Iterator<Item = (&'a str, usize)>) {
    let _ = write!(
        out,
        "<label>{name} <select data-filter=\"{name}\" id=\"filter-{name}\"><option value=\"\">all</option>"
    );
    for (value, count) in options {
        let _ = write!(out, "<option value=\"{value}\">{value} ({count})</option>");
    }
    out.push_str("</select></label>\n");
}

/// The checks whose findings a case is reported with at `level`.
fn case_checks(result: &CaseResult, level: ReaderLevel) -> BTreeSet<Check> {
    super::reported_findings(result, level)
        .into_iter()
        .map(|f| f.check)
        .collect()
}

fn write_cases(out: &mut String, run: &RunResult) {
    let level = run.meta.level;
    let mut ordered: Vec<&CaseResult> = run.results.iter().collect();
    // Category order, then failures before passes; stable within.
    ordered.sort_by_key(|r| {
        (
            r.case.category,
            verdict_rank(r.verdict(level, run.meta.gate)),
        )
    });
    out.push_str("<div id=\"cases\">\n");
    for result in ordered {
        write_case(out, result, level, run.meta.gate);
    }
    out.push_str("</div>\n");
}

fn verdict_rank(verdict: Verdict) -> u8 {
    match verdict {
        Verdict::Fail => 0,
        Verdict::Error => 1,
        Verdict::FidelityFail => 2,
        Verdict::Refused => 3,
        Verdict::Skipped => 4,
        Verdict::Pass => 5,
    }
}

fn write_case(out: &mut String, result: &CaseResult, level: ReaderLevel, gate: Gate) {
    let case = &result.case;
    let verdict = result.verdict(level, gate);
    let checks: Vec<&str> = case_checks(result, level)
        .iter()
        .map(|c| c.name())
        .collect();
    let _ = writeln!(
        out,
        "<details class=\"case\" id=\"{}\" data-verdict=\"{}\" data-category=\"{}\" data-checks=\"{}\">\n\
         <summary><span class=\"badge v-{1}\">{1}</span> <code>{}</code> {} <i>{2}</i></summary>\n<div class=\"body\">",
        anchor("case-", &case.id),
        verdict.name(),
        case.category.name(),
        checks.join(" "),
        shown(&case.id),
        shown(&case.title)
    );
    write_case_facts(out, result, gate);
    write_outcome(out, result, level);
    write_evidence(out, result, level);
    out.push_str("</div>\n</details>\n");
}

fn write_case_facts(out: &mut String, result: &CaseResult, gate: Gate) {
    let case = &result.case;
    out.push_str("<p>");
    for level in ReaderLevel::ALL {
        let verdict = result.verdict(level, gate).name();
        let _ = write!(
            out,
            "{} <span class=\"badge v-{verdict}\">{verdict}</span> ",
            level.name()
        );
    }
    let _ = writeln!(
        out,
        "| severity {} | source <code>{}:{}</code></p>\n<p class=\"why\">{}</p>",
        super::severity_name(case.severity),
        shown(&case.source.file.display().to_string()),
        case.source.line,
        shown(&case.why)
    );
}

fn write_outcome(out: &mut String, result: &CaseResult, level: ReaderLevel) {
    match &result.outcome {
        Outcome::Judged { .. } => {
            let findings = super::reported_findings(result, level);
            if findings.is_empty() {
                return;
            }
            out.push_str("<ul class=\"findings\">\n");
            for finding in findings {
                write_finding(out, result, finding);
            }
            out.push_str("</ul>\n");
        }
        Outcome::Refused { reason, acceptable } => {
            let allowed = if *acceptable {
                "allowed here"
            } else {
                "not allowed: the case must be framed"
            };
            let _ = writeln!(
                out,
                "<p>The target refused ({allowed}):</p>\n<pre>{}</pre>",
                shown_block(&clip(reason).0)
            );
        }
        Outcome::Error {
            reason,
            stderr_tail,
            fault,
        } => {
            let _ = writeln!(
                out,
                "<p>The target failed:</p>\n<pre>{}</pre>",
                shown_block(&clip(reason).0)
            );
            if let Some(fault) = fault {
                write_fault_facts(out, fault);
            }
            if !stderr_tail.is_empty() {
                let _ = writeln!(
                    out,
                    "<p>stderr tail:</p>\n<pre>{}</pre>",
                    shown_block(&clip(stderr_tail).0)
                );
            }
        }
        Outcome::Skipped { reason } => {
            let _ = writeln!(out, "<p>Skipped: {}</p>", shown(reason));
        }
        Outcome::Unplanted { reason } => {
            let _ = writeln!(
                out,
                "<p>Not judged: the target's store refused this content:</p>\n<pre>{}</pre>",
                shown_block(&clip(reason).0)
            );
        }
    }
}

/// A fault's kind, exit status and offending line.
fn write_fault_facts(out: &mut String, fault: &framecheck_core::target::Fault) {
    let _ = writeln!(out, "<p>Fault: {}</p>", fault.kind.name());
    if let Some(status) = &fault.exit_status {
        let _ = writeln!(out, "<p>Exit: {}</p>", shown(status));
    }
    if let Some(line) = &fault.offending_line {
        let _ = writeln!(
            out,
            "<p>First offending stdout line:</p>\n<pre>{}</pre>",
            shown_block(&clip(line).0)
        );
    }
}

fn write_finding(out: &mut String, result: &CaseResult, finding: &Finding) {
    let levels = if finding.levels.is_empty() {
        "every level".to_string()
    } else {
        finding
            .levels
            .iter()
            .map(|l| l.name())
            .collect::<Vec<_>>()
            .join(", ")
    };
    let _ = write!(
        out,
        "<li><code>{}</code>{}{} fails at {levels}: {}",
        finding.check.name(),
        text(&super::markdown::class_note(finding)),
        text(&super::markdown::consumer_note(finding)),
        shown(&finding.message)
    );
    if let Some(excerpt) = &finding.excerpt {
        let _ = write!(
            out,
            "<br>{}, bytes {}..{}",
            super::excerpt_source_name(excerpt.text),
            excerpt.start,
            excerpt.end
        );
        if let Some(span) =
            source_text(result, excerpt.text).and_then(|t| t.get(excerpt.start..excerpt.end))
        {
            let _ = write!(
                out,
                ": <code><mark>{}</mark></code>",
                shown_block(&clip(span).0)
            );
        }
    }
    if let Some(fault) = &finding.fault {
        write_fault_facts(out, fault);
        if !fault.stderr_tail.is_empty() {
            let _ = writeln!(
                out,
                "<p>stderr tail:</p>\n<pre>{}</pre>",
                shown_block(&clip(&fault.stderr_tail).0)
            );
        }
    }
    let _ = writeln!(
        out,
        "<br><span class=\"hint\">fix: {}</span></li>",
        text(finding.check.hint())
    );
}

/// The evidence text an excerpt's offsets refer to, when the run kept it.
fn source_text(result: &CaseResult, source: ExcerptSource) -> Option<&str> {
    result.evidence.text_of(source)
}

fn write_evidence(out: &mut String, result: &CaseResult, level: ReaderLevel) {
    if let Input::Wrap(request) = &result.case.input {
        write_payload(out, request);
    }
    let findings = super::reported_findings(result, level);
    let blocks = [
        ("framed output", ExcerptSource::Framed),
        ("reader input", ExcerptSource::ReadInput),
        ("reader body", ExcerptSource::ReadBody),
        ("parts", ExcerptSource::Parts),
    ];
    for (label, source) in blocks {
        if let Some(value) = source_text(result, source) {
            let spans: Vec<(usize, usize)> = findings
                .iter()
                .filter_map(|f| f.excerpt.as_ref())
                .filter(|e| e.text == source)
                .map(|e| (e.start, e.end))
                .collect();
            let _ = writeln!(
                out,
                "<h4>{label}</h4>\n<pre class=\"evidence\">{}</pre>",
                highlighted(value, &spans)
            );
        }
    }
    if result.evidence.read_body == Some(None) {
        out.push_str("<h4>reader body</h4>\n<p>The reader rejected the text.</p>\n");
    }
}

fn write_payload(out: &mut String, request: &WrapRequest) {
    out.push_str("<h4>payload</h4>\n<table class=\"payload\">\n");
    let _ = writeln!(
        out,
        "<tr><th>kind</th><td><pre>{}</pre></td></tr>",
        shown_block(&clip(&request.kind).0)
    );
    for (key, value) in &request.attributes {
        let _ = writeln!(
            out,
            "<tr><th>attribute <code>{}</code></th><td><pre>{}</pre></td></tr>",
            shown(&clip(key).0),
            shown_block(&clip(value).0)
        );
    }
    let _ = writeln!(
        out,
        "<tr><th>provenance</th><td><pre>{}</pre></td></tr>",
        shown_block(&clip(&request.provenance).0)
    );
    let _ = writeln!(
        out,
        "<tr><th>content</th><td><pre>{}</pre></td></tr>\n</table>",
        highlighted(&request.content, &[])
    );
}

/// `value` cut to [`MAX_BLOCK_BYTES`] on a char boundary, and how many
/// bytes were left out.
fn clip(value: &str) -> (std::borrow::Cow<'_, str>, usize) {
    if value.len() <= MAX_BLOCK_BYTES {
        return (value.into(), 0);
    }
    let mut end = MAX_BLOCK_BYTES;
    while !value.is_char_boundary(end) {
        end -= 1;
    }
    (value[..end].into(), value.len() - end)
}

/// `value` for a `<pre>` block with each byte range in `spans` in a
/// `<mark>`. Ranges are merged where they overlap; a range that is not on
/// char boundaries of `value` is not marked (the finding still lists its
/// offsets); an empty range is marked as a point.
fn highlighted(value: &str, spans: &[(usize, usize)]) -> String {
    let (shown_part, left_out) = clip(value);
    let mut ranges: Vec<(usize, usize)> = spans
        .iter()
        .copied()
        .filter(|&(s, e)| s <= e && shown_part.get(s..e).is_some())
        .collect();
    ranges.sort_unstable();
    let mut merged: Vec<(usize, usize)> = Vec::with_capacity(ranges.len());
    for (start, end) in ranges {
        match merged.last_mut() {
            Some(last) if start < last.1 || (start == last.1 && start == end) => {
                last.1 = last.1.max(end)
            }
            _ => merged.push((start, end)),
        }
    }
    let mut out = String::with_capacity(shown_part.len() * 2);
    let mut at = 0;
    for (start, end) in merged {
        out.push_str(&shown_block(&shown_part[at..start]));
        let class = if start == end { " class=\"point\"" } else { "" };
        let _ = write!(
            out,
            "<mark{class}>{}</mark>",
            shown_block(&shown_part[start..end])
        );
        at = end;
    }
    out.push_str(&shown_block(&shown_part[at..]));
    if left_out > 0 {
        let _ = write!(
            out,
            "\n<i>[{left_out} more bytes; the JSON report has the whole text]</i>"
        );
    }
    out
}

const REPORT_STYLE: &str = "
#filters{position:sticky;top:0;background:#fff;padding:.5em 0;border-bottom:1px solid #ddd;z-index:1}
#filters label{margin-right:1em}#filters button{cursor:pointer;border:1px solid #999;margin:.1em}
button.link{background:none;border:none;color:#0645ad;cursor:pointer;padding:0;font:inherit;text-decoration:underline}
details.case{border:1px solid #e1e4e8;border-radius:4px;margin:.3em 0;padding:.2em .6em}
details.case>summary{cursor:pointer}details.case[open]{background:#fcfcfc}
.findings li{margin:.3em 0}.hint{color:#555}.why{color:#333;font-style:italic}
table.payload td{width:100%}table.payload pre{margin:0;max-height:12em}
mark.point{padding:0 2px}h4{margin:.6em 0 .2em}
#lead li{margin:.5em 0}pre.example{margin:.2em 0;max-height:6em;overflow:auto}
.sev-critical,.sev-high{background:#ef9a9a}.sev-medium{background:#ffe082}.sev-low,.sev-info{background:#e0e0e0}
";

/// Hides the cases that do not match the three filters. Buttons (verdict
/// chips, heatmap rows) set a filter's select; `show all` clears them.
const FILTER_SCRIPT: &str = r#"
(function () {
  "use strict";
  var cases = Array.prototype.slice.call(document.querySelectorAll("details.case"));
  var selects = Array.prototype.slice.call(document.querySelectorAll("select[data-filter]"));
  function apply() {
    var want = {};
    selects.forEach(function (s) { want[s.dataset.filter] = s.value; });
    var shown = 0;
    cases.forEach(function (c) {
      var ok = (!want.verdict || c.dataset.verdict === want.verdict) &&
        (!want.category || c.dataset.category === want.category) &&
        (!want.check || c.dataset.checks.split(" ").indexOf(want.check) >= 0);
      c.hidden = !ok;
      if (ok) { shown += 1; }
    });
    document.getElementById("shown").textContent = String(shown);
  }
  selects.forEach(function (s) { s.addEventListener("change", apply); });
  Array.prototype.forEach.call(document.querySelectorAll("button[data-filter]"), function (b) {
    b.addEventListener("click", function () {
      var select = document.getElementById("filter-" + b.dataset.filter);
      select.value = b.dataset.value;
      apply();
      document.getElementById("filters").scrollIntoView();
    });
  });
  document.getElementById("reset").addEventListener("click", function () {
    selects.forEach(function (s) { s.value = ""; });
    apply();
  });
  apply();
})();
"#;
