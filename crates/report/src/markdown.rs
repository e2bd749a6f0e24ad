//! The Markdown report, for people: a pull-request comment, a CI summary
//! page, a file in the repository.
//!
//! The top fits one screen: status, what a pass does and does not prove, the
//! weaknesses (see [`super::weakness`]) and the category × verdict table.
//! Details follow, failures grouped by
//! category with the check that failed, the levels it fails at, an excerpt
//! with its byte offsets and the check's fix hint; fidelity failures apart
//! from security failures; then target errors.
//!
//! Every string that came from the run goes through [`super::escape`]:
//! excerpts show zero-width, bidi and lookalike characters as `\u{…}` escapes
//! inside code spans whose fence outgrows any backtick run, and prose and
//! table cells have Markdown punctuation backslash-escaped. Long texts are cut
//! to [`MAX_SHOWN_BYTES`]; the JSON report keeps them whole.
//!
//! [`terminal_summary`] is the one-screen plain-text digest the CLI prints.

use std::fmt::Write as _;

use super::baseline::{BaselineDiff, Decision, DiffEntry};
use super::escape::{md_block, md_code, md_inline, truncate, visible};
use super::summary::{harness_error, Summary};
use super::weakness::Weakness;
use framecheck_core::catalogue::Category;
use framecheck_core::gate::Gate;
use framecheck_core::level::ReaderLevel;
use framecheck_core::oracle::{Check, CheckClass, ExcerptSource, Finding};
use framecheck_core::target::Fault;
use framecheck_launch::outcome::{CaseResult, LayoutReport, Outcome, RunResult, Verdict};

/// Longest run-supplied text shown in Markdown or on the terminal, in bytes.
pub const MAX_SHOWN_BYTES: usize = 2048;

/// How many failing case ids the terminal summary names per category.
const TERMINAL_IDS_PER_CATEGORY: usize = 3;

/// How many weaknesses the terminal summary lists.
const TERMINAL_WEAKNESSES: usize = 12;

/// What a pass means, stated at the top of every human-readable report.
pub(crate) const HONESTY_NOTE: &str =
    "framecheck proves structure only: whether content can close, forge, \
reopen or rewrite the frame, as read at each reader level. Framing marks provenance and raises an \
attacker's cost; it is not a security boundary against an adaptive attacker (Nasr et al., \
arXiv:2510.09023; AgentDojo, arXiv:2406.13352). A pass says nothing about whether a model obeys \
the frame.";

/// Renders `run` as a Markdown report.
pub fn render(run: &RunResult) -> String {
    render_with_baseline(run, None)
}

/// Renders `run` as a Markdown report, with the baseline diff when given.
pub fn render_with_baseline(run: &RunResult, baseline: Option<&BaselineDiff>) -> String {
    let summary = Summary::of(run);
    let meta = &run.meta;
    let mut out = String::new();
    let _ = writeln!(
        out,
        "# framecheck report: {}\n",
        md_inline(&meta.target.name)
    );
    let _ = writeln!(out, "> {HONESTY_NOTE}\n");
    let weaknesses = super::weakness::weaknesses(run);
    write_status(&mut out, run, &summary, &Decision::of(&summary, baseline));
    let counts = super::count::counts(run, &weaknesses);
    let _ = writeln!(
        out,
        "**{}** at level `{}` (counted as docs/report-schema.md, \"Counting\", says).\n",
        super::count::counts_text(&counts),
        meta.level.name()
    );
    write_unmarked(&mut out, run);
    write_unframed_cases(&mut out, run);
    write_weaknesses(&mut out, &weaknesses);
    write_category_table(&mut out, &summary);
    if let Some(error) = &harness_error(run) {
        let _ = writeln!(out, "## Harness error\n");
        let _ = writeln!(
            out,
            "The run did not finish; the results below are incomplete.\n"
        );
        out.push_str(&md_block(&truncate(error, MAX_SHOWN_BYTES)));
        out.push('\n');
        if let Some(fault) = &meta.target_fault {
            out.push_str("What the target did when it was given up:\n\n");
            out.push_str(&md_block(&truncate(
                &fault.describe("", usize::MAX),
                MAX_SHOWN_BYTES,
            )));
            out.push('\n');
        }
    }
    if let Some(diff) = baseline {
        write_baseline(&mut out, diff);
    }
    write_target(&mut out, run);
    write_layout(&mut out, run);
    let fail_heading = match meta.gate {
        Gate::Default => "Security failures",
        Gate::Strict => "Failures (security, and the classes `--strict` fails)",
    };
    write_failures(&mut out, run, Verdict::Fail, fail_heading);
    write_failures(&mut out, run, Verdict::FidelityFail, "Fidelity failures");
    write_confusables(&mut out, run);
    write_outer_layer(&mut out, run);
    super::views::write_markdown(&mut out, run);
    write_errors(&mut out, run);
    write_unplanted(&mut out, run);
    out
}

/// For a profile declaring `delimiters: none` that benign plants bore out:
/// what was judged, and why no catalogue case was.
fn write_unmarked(out: &mut String, run: &RunResult) {
    if !run.meta.unmarked {
        return;
    }
    let _ = writeln!(
        out,
        "## No frame
"
    );
    let _ = writeln!(
        out,
        "The profile declares `delimiters: none`, and benign plants bore it out: the \
         framing returns the content with no marker around it (the `frame.absent` finding \
         below shows a plant and what came back). No catalogue case was judged: there is \
         no frame to break, and text planted anywhere in the content reads as the text \
         around it. No level holds.\n"
    );
    if host_framed(run) {
        let _ = writeln!(
            out,
            "The framing is an MCP server: its tool result reaches the model inside the \
             host's own tool-result message, so the server relies on the host's framing. \
             That is worth knowing, not a breakout: the finding is class `host-framed`, \
             reported apart from security.\n"
        );
    }
}

/// For a framing that frames only some content: how many judged outputs
/// came back with no frame at all, each judged as that (`frame.absent` on
/// its case), and how many against the frame. Nothing for an unmarked run
/// (`write_unmarked` says it) or a run where every output was framed.
fn write_unframed_cases(out: &mut String, run: &RunResult) {
    if run.meta.unmarked {
        return;
    }
    let judged: Vec<&[Finding]> = run
        .results
        .iter()
        .filter_map(|r| match &r.outcome {
            Outcome::Judged { findings } => Some(findings.as_slice()),
            _ => None,
        })
        .collect();
    let absent = judged
        .iter()
        .filter(|f| f.iter().any(|f| f.check == Check::FrameAbsent))
        .count();
    if absent == 0 {
        return;
    }
    let _ = writeln!(
        out,
        "## Outputs with no frame
"
    );
    let _ = writeln!(
        out,
        "{absent} of {} judged cases came back as their content with no frame around it: each \
         is judged as that (`frame.absent`, on its case alone, at every level), not against \
         the frame; the other {} were judged as the profile describes.\n",
        judged.len(),
        judged.len() - absent
    );
}

/// Whether `run`'s `frame.absent` finding is of class `host-framed`.
fn host_framed(run: &RunResult) -> bool {
    run.results
        .iter()
        .flat_map(|r| r.findings_at(run.meta.level))
        .any(|f| f.class == CheckClass::HostFramed)
}

/// Cases with a chat-template control string readable in the framed
/// output at the run's level: their own class, with each finding, whether
/// or not the gate fails them (README, "Outer-layer breakouts").
fn write_outer_layer(out: &mut String, run: &RunResult) {
    let level = run.meta.level;
    let cases: Vec<&CaseResult> = run
        .results
        .iter()
        .filter(|r| {
            r.findings_at(level)
                .iter()
                .any(|f| f.class == CheckClass::OuterLayer)
        })
        .collect();
    if cases.is_empty() {
        return;
    }
    let failing = cases
        .iter()
        .filter(|r| {
            r.findings_at(level)
                .iter()
                .any(|f| f.class == CheckClass::OuterLayer && run.meta.gate.fails(f))
        })
        .count();
    let _ = writeln!(
        out,
        "## Outer-layer breakouts ({})
",
        cases.len()
    );
    let _ = writeln!(
        out,
        "A chat-template control string or turn marker from the input is readable in the framed output: it breaks out of the message the frame sits in, not only out of the frame. {failing} of these cases fail under the {} gate (`--strict` fails all of them; the default gate fails those the profile's `chat_template` context makes real controls).\n",
        run.meta.gate.name()
    );
    for result in cases {
        write_case_heading(out, result);
        for finding in result.findings_at(level) {
            if finding.class == CheckClass::OuterLayer {
                write_finding(out, result, finding);
            }
        }
        out.push('\n');
    }
}

/// Cases that left a confusable marker live at the run's level: reported
/// apart from security and fidelity failures, never counted as either
/// under the default gate (docs/nonce.md).
fn write_confusables(out: &mut String, run: &RunResult) {
    let level = run.meta.level;
    let cases: Vec<&str> = run
        .results
        .iter()
        .filter(|r| {
            r.findings_at(level)
                .iter()
                .any(|f| f.class == CheckClass::Confusable)
        })
        .map(|r| r.case.id.as_str())
        .collect();
    if cases.is_empty() {
        return;
    }
    let _ = writeln!(
        out,
        "## Confusables ({})\n",
        if run.meta.gate.fails_class(CheckClass::Confusable) {
            "failures under `--strict`"
        } else {
            "not failures"
        }
    );
    let _ = writeln!(
        out,
        "A marker spelled like the frame's own, without its nonce or with another value, is left live in {} case(s). A strict reader does not close the frame on it; a model may. Neutralising these is defence in depth.\n",
        cases.len()
    );
    for id in cases {
        let _ = writeln!(out, "- {}", md_code(id, false));
    }
    out.push('\n');
}

fn write_status(out: &mut String, run: &RunResult, summary: &Summary, decision: &Decision) {
    let at = summary.at_level();
    let status = match decision.status() {
        "pass" => "PASS",
        "fail" => "FAIL",
        _ => "INCOMPLETE (harness error)",
    };
    let held = match summary.highest_level_held {
        Some(level) => format!("`{}`", level.name()),
        None => summary.level_held_text(),
    };
    let _ = writeln!(
        out,
        "**{status}** (exit {}) at level `{}`, {} gate{}. Highest level held: {held}.\n",
        decision.exit_code,
        run.meta.level.name(),
        run.meta.gate.name(),
        decision
            .reason()
            .map_or_else(String::new, |reason| format!(": {}", md_inline(&reason))),
    );
    if !summary.apart.is_empty() {
        let _ = writeln!(
            out,
            "Reported apart from security and fidelity (cases): {}.\n",
            super::summary::apart_text(summary)
        );
    }
    let _ = writeln!(
        out,
        "{} cases: {} pass, {} refused, {} {}, {} fidelity failures, \
         {} errors, {} skipped.\n",
        summary.total,
        at.pass,
        at.refused,
        at.fail,
        super::summary::fail_label(run.meta.gate),
        at.fidelity_fail,
        at.error,
        at.skipped
    );
    if let Some(faults) = super::summary::faults_text(run) {
        let _ = writeln!(out, "{faults}.\n");
    }
    if let Some(unplanted) = super::summary::unplanted_text(run) {
        let _ = writeln!(out, "{unplanted}.\n");
    }
    let by_level: Vec<String> = ReaderLevel::ALL
        .iter()
        .map(|&l| {
            let fails = summary.by_level.get(&l).map_or(0, |c| c.fail);
            format!("`{}` {fails}", l.name())
        })
        .collect();
    let _ = writeln!(
        out,
        "Security failures by reader level: {}.\n",
        by_level.join(", ")
    );
}

fn write_category_table(out: &mut String, summary: &Summary) {
    let _ = writeln!(out, "## Summary at level `{}`\n", summary.level.name());
    out.push_str("| category |");
    for verdict in Verdict::ALL {
        let _ = write!(out, " {} |", verdict.name());
    }
    out.push_str("\n|---|");
    for _ in Verdict::ALL {
        out.push_str("---:|");
    }
    out.push('\n');
    for (category, counts) in summary.categories_with_cases() {
        let _ = write!(out, "| {} |", category.name());
        for verdict in Verdict::ALL {
            let _ = write!(out, " {} |", counts.get(verdict));
        }
        out.push('\n');
    }
    let total = summary.at_level();
    out.push_str("| **total** |");
    for verdict in Verdict::ALL {
        let _ = write!(out, " {} |", total.get(verdict));
    }
    out.push_str("\n\n");
}

/// The weaknesses, first: one row per group of failing cases (see
/// [`super::weakness`]), each with its statement, levels, count and the
/// smallest case that shows it. The cases themselves follow further down.
fn write_weaknesses(out: &mut String, weaknesses: &[Weakness]) {
    let (counted, folded): (Vec<&Weakness>, Vec<&Weakness>) =
        weaknesses.iter().partition(|w| w.counted);
    if !counted.is_empty() {
        let _ = writeln!(out, "## Weaknesses ({})\n", counted.len());
        out.push_str(
            "Failing cases grouped by failed check, variant family, field and attacked role; \
             the cases follow below. Distinct outputs: the cases' outputs with each case's \
             canary set aside, counted once each; same output as base case: variants the \
             framing normalised back into their written case.\n\n",
        );
        write_weakness_table(out, &counted);
    }
    if !folded.is_empty() {
        let _ = writeln!(
            out,
            "## Folded spellings ({}, not counted as weaknesses)\n",
            folded.len()
        );
        out.push_str(
            "Chat-template control strings a reader level reads only after folding (case, \
             invisible, compatibility or lookalike characters, Unicode line breaks), which no \
             tokenizer view asked turns into a control token: reported at their folding level, \
             not counted among the weaknesses.\n\n",
        );
        write_weakness_table(out, &folded);
    }
}

/// The table of `weaknesses`, one row each.
fn write_weakness_table(out: &mut String, weaknesses: &[&Weakness]) {
    out.push_str(
        "| weakness | what | class | fails at | cases | distinct outputs | same output as base case | minimal case |\n\
         |---|---|---|---|---:|---:|---:|---|\n",
    );
    for weakness in weaknesses {
        let class = match weakness.class {
            framecheck_core::oracle::CheckClass::Security => {
                super::severity_name(weakness.severity).to_string()
            }
            class if weakness.fails => class.name().to_string(),
            class => format!("{} (not failing)", class.name()),
        };
        let _ = writeln!(
            out,
            "| {} | {} | {} | {} | {} | {} | {} | {} |",
            md_code(&weakness.id, true),
            md_inline(&weakness.statement),
            class,
            super::weakness::levels_text(weakness),
            weakness.count,
            weakness.outputs,
            weakness.same_as_base.len(),
            md_code(&weakness.representative, true)
        );
    }
    out.push('\n');
}

fn write_baseline(out: &mut String, diff: &BaselineDiff) {
    let _ = writeln!(
        out,
        "## Baseline comparison at level `{}`\n",
        diff.level.name()
    );
    let verdict = if diff.is_regression() {
        "**Regression**: new failures since the baseline."
    } else {
        "No new failures since the baseline."
    };
    let _ = writeln!(
        out,
        "{verdict} {} new failures, {} fixed, {} still failing, {} new cases, {} removed cases{}.{}\n",
        diff.new_failures.len(),
        diff.fixed.len(),
        diff.still_failing.len(),
        diff.new_cases.len(),
        diff.removed_cases.len(),
        not_run_clause(diff),
        if diff.catalogue_changed {
            " The catalogue changed between the runs."
        } else {
            ""
        }
    );
    if !diff.aliased.is_empty() {
        let _ = writeln!(
            out,
            "{} baseline case ids were renamed through the aliases in `attacks/ids.lock` \
             before comparing (for example {} is now {}).\n",
            diff.aliased.len(),
            md_code(&diff.aliased[0].0, false),
            md_code(&diff.aliased[0].1, false)
        );
    }
    let lists: [(&str, &[DiffEntry]); 3] = [
        ("new failure", &diff.new_failures),
        ("fixed", &diff.fixed),
        ("removed", &diff.removed_cases),
    ];
    if lists.iter().all(|(_, entries)| entries.is_empty()) {
        return;
    }
    out.push_str("| change | case | category | was | now |\n|---|---|---|---|---|\n");
    for (change, entries) in lists {
        for entry in entries {
            let _ = writeln!(
                out,
                "| {change} | {} | {} | {} | {} |",
                md_code(&entry.id, true),
                entry.category.name(),
                entry.old.map_or("absent", Verdict::name),
                entry.new.map_or("absent", Verdict::name),
            );
        }
    }
    out.push('\n');
}

/// What calibration learned about the frame, as a template, so a reader
/// of the report sees what framecheck understood.
fn write_layout(out: &mut String, run: &RunResult) {
    let Some(layout) = &run.meta.layout else {
        return;
    };
    let _ = writeln!(out, "## Frame layout\n");
    match layout {
        LayoutReport::Learned { template, layout } => {
            let _ = writeln!(
                out,
                "Learned by calibration (body encoding {}, {}). `{{open:…}}` and `{{close:…}}` are the delimiters; text outside them is the framing's own constant text.\n",
                layout.encoding_label(),
                if layout.encoding_declared { "declared" } else { "guessed" },
            );
            out.push_str(&md_block(&truncate(template, MAX_SHOWN_BYTES)));
            out.push('\n');
        }
        LayoutReport::Failed { reason } => {
            let _ = writeln!(
                out,
                "Calibration could not learn the layout, so wrap cases were judged by the v1 rule (the output begins with the opener and ends with the closer):\n"
            );
            out.push_str(&md_block(&truncate(reason, MAX_SHOWN_BYTES)));
            out.push('\n');
        }
    }
}

fn write_target(out: &mut String, run: &RunResult) {
    let meta = &run.meta;
    let target = &meta.target;
    let delimiters = &target.delimiters;
    let _ = writeln!(out, "## Target\n");
    let _ = writeln!(out, "- name: {}", md_inline(&target.name));
    if !target.description.is_empty() {
        let _ = writeln!(out, "- description: {}", md_inline(&target.description));
    }
    if !target.language.is_empty() {
        let _ = writeln!(out, "- language: {}", md_inline(&target.language));
    }
    let syntax = delimiters.grammar.name();
    if delimiters.absent {
        let _ = writeln!(out, "- delimiters: none (no marker around the content)");
    } else {
        let _ = writeln!(
            out,
            "- delimiters: {syntax}, token {}",
            md_code(&delimiters.token, false)
        );
    }
    if let Some(inner) = &delimiters.inner {
        let _ = writeln!(out, "- inner element: {}", md_code(inner, false));
    }
    if !delimiters.reserved.is_empty() {
        let reserved: Vec<String> = delimiters
            .reserved
            .iter()
            .map(|t| md_code(t, false))
            .collect();
        let _ = writeln!(out, "- reserved tokens: {}", reserved.join(", "));
    }
    let _ = writeln!(out, "- header: {}", target.header.style.name());
    let capabilities = target
        .capabilities
        .iter()
        .map(|&c| c.name())
        .collect::<Vec<_>>();
    let _ = writeln!(out, "- capabilities: {}", capabilities.join(", "));
    let _ = writeln!(
        out,
        "- framecheck {}, catalogue {}",
        md_inline(&meta.framecheck_version),
        md_code(&meta.catalogue_hash, false)
    );
    if super::timings_omitted(meta) {
        let _ = writeln!(out, "- timings not recorded (`--reproducible`)");
        if meta.target.delimiters.nonce.is_some() {
            let _ = writeln!(out, "- {}", super::redact::NOTE);
        }
    } else {
        let _ = writeln!(
            out,
            "- started {} (Unix time), took {} ms",
            meta.started_unix, meta.duration_ms
        );
    }
    if !meta.filters.is_empty() {
        let filters: Vec<String> = meta.filters.iter().map(|f| md_code(f, false)).collect();
        let _ = writeln!(out, "- filters: {}", filters.join(", "));
    }
    if let Some(manifest) = &meta.manifest {
        write_manifest(out, manifest);
    }
    out.push('\n');
}

/// The reproducibility manifest, as list items of the target section.
fn write_manifest(out: &mut String, manifest: &framecheck_launch::manifest::Manifest) {
    let _ = writeln!(
        out,
        "- built from commit {}; profile {} (SHA-256 {})",
        md_code(&manifest.framecheck_commit, false),
        manifest
            .profile_path
            .as_ref()
            .map_or("built in".to_string(), |p| {
                md_code(&p.display().to_string(), false)
            }),
        md_code(&manifest.profile_hash, false)
    );
    if let Some(data) = &manifest.reader_data {
        let _ = writeln!(
            out,
            "- unicode reader: {} lookalikes from {} (Unicode {}), SHA-256 {}",
            data.lookalikes,
            md_code(&data.confusables, false),
            data.unicode_version,
            md_code(&data.lookalikes_sha256, false)
        );
    }
    for file in &manifest.target.files {
        let _ = writeln!(
            out,
            "- target file {}: SHA-256 {}",
            md_code(&file.path, false),
            md_code(&file.sha256, false)
        );
    }
    if let Some(interpreter) = &manifest.target.interpreter {
        let _ = writeln!(
            out,
            "- interpreter {}: {}",
            md_code(&interpreter.program, false),
            md_code(&truncate(&interpreter.version, 200), false)
        );
    }
    if let Some(server) = &manifest.target.server {
        // The server's own words: untrusted, so shown as code.
        let _ = writeln!(
            out,
            "- MCP server {} {} (protocol {})",
            md_code(&truncate(&server.name, 200), false),
            md_code(&truncate(&server.version, 200), false),
            md_code(&truncate(&server.protocol_version, 200), false)
        );
    }
    for package in &manifest.target.packages {
        let _ = writeln!(
            out,
            "- package {} {}",
            md_code(&package.name, false),
            md_code(&package.version, false)
        );
    }
    if let Some(seed) = manifest.seed {
        let _ = writeln!(out, "- seed {seed}");
    }
    let _ = writeln!(
        out,
        "- command line: {} (reproduce with `framecheck verify` on the JSON report)",
        md_code(&truncate(&manifest.command_line.join(" "), 500), false)
    );
}

fn write_failures(out: &mut String, run: &RunResult, verdict: Verdict, heading: &str) {
    let level = run.meta.level;
    let failing: Vec<&CaseResult> = run
        .results
        .iter()
        .filter(|r| r.verdict(level, run.meta.gate) == verdict)
        .collect();
    if failing.is_empty() {
        return;
    }
    let _ = writeln!(out, "## {heading} ({})\n", failing.len());
    for category in Category::ALL {
        let in_category: Vec<&&CaseResult> = failing
            .iter()
            .filter(|r| r.case.category == category)
            .collect();
        if in_category.is_empty() {
            continue;
        }
        let _ = writeln!(out, "### {} ({})\n", category.name(), in_category.len());
        for result in in_category {
            write_failed_case(out, result, level);
        }
    }
}

fn write_case_heading(out: &mut String, result: &CaseResult) {
    let case = &result.case;
    let _ = writeln!(
        out,
        "#### {} {}\n",
        md_code(&case.id, false),
        md_inline(&truncate(&case.title, MAX_SHOWN_BYTES))
    );
    let severity = super::severity_name(case.severity);
    let _ = writeln!(
        out,
        "- severity: {severity}; source: {}",
        md_code(
            &format!("{}:{}", case.source.file.display(), case.source.line),
            false
        )
    );
}

fn write_failed_case(out: &mut String, result: &CaseResult, level: ReaderLevel) {
    write_case_heading(out, result);
    match &result.outcome {
        Outcome::Refused { reason, .. } => {
            let _ = writeln!(
                out,
                "- the target refused input it must frame: {}",
                md_code(&truncate(reason, MAX_SHOWN_BYTES), false)
            );
            let _ = writeln!(
                out,
                "- fix: {}",
                framecheck_core::oracle::Check::Fidelity.hint()
            );
        }
        _ => {
            for finding in super::reported_findings(result, level) {
                write_finding(out, result, finding);
            }
        }
    }
    out.push('\n');
}

fn levels_text(levels: &[ReaderLevel]) -> String {
    if levels.is_empty() {
        return "every level".to_string();
    }
    levels
        .iter()
        .map(|l| l.name())
        .collect::<Vec<_>>()
        .join(", ")
}

fn write_finding(out: &mut String, result: &CaseResult, finding: &Finding) {
    let _ = writeln!(
        out,
        "- check {}{}{} fails at {}: {}",
        md_code(finding.check.name(), false),
        class_note(finding),
        consumer_note(finding),
        levels_text(&finding.levels),
        md_inline(&truncate(&finding.message, MAX_SHOWN_BYTES))
    );
    if let Some(excerpt) = &finding.excerpt {
        let source = super::excerpt_source_name(excerpt.text);
        let _ = write!(
            out,
            "  - {source}, bytes {}..{}",
            excerpt.start, excerpt.end
        );
        if let Some(span) = excerpt_span(result, excerpt.text, excerpt.start, excerpt.end) {
            let _ = write!(
                out,
                ": {}",
                md_code(&truncate(span, MAX_SHOWN_BYTES), false)
            );
        }
        let _ = writeln!(
            out,
            "\n  - context: {}",
            md_code(&truncate(&excerpt.context, MAX_SHOWN_BYTES), false)
        );
    }
    if let Some(fault) = &finding.fault {
        write_finding_fault(out, result, fault);
    }
    let _ = writeln!(out, "  - fix: {}", finding.check.hint());
}

/// A `target.fault` finding's input and what the target did on it.
fn write_finding_fault(out: &mut String, result: &CaseResult, fault: &Fault) {
    let input = super::case_input_text(&result.case);
    let _ = writeln!(
        out,
        "  - input: {}",
        md_code(&truncate(&input, MAX_SHOWN_BYTES), false)
    );
    let _ = writeln!(out, "  - fault: {}", fault.kind.name());
    if let Some(status) = &fault.exit_status {
        let _ = writeln!(out, "  - exit: {}", md_code(status, false));
    }
    if let Some(line) = &fault.offending_line {
        let _ = writeln!(
            out,
            "  - first offending stdout line: {}",
            md_code(line, false)
        );
    }
    if !fault.stderr_tail.is_empty() {
        out.push_str("  - stderr tail:\n\n");
        out.push_str(&md_block(&truncate(&fault.stderr_tail, MAX_SHOWN_BYTES)));
    }
}

/// Which consumer a finding fools, when it is not the model
/// ([`framecheck_launch::profile::Consumer::note`]).
pub(crate) fn consumer_note(finding: &Finding) -> String {
    finding.consumer.note()
}

/// ` (outer-layer)` after a finding of a class reported apart, so a reader
/// never takes it for a security finding; nothing for the others.
pub(crate) fn class_note(finding: &Finding) -> String {
    if CheckClass::APART.contains(&finding.class) || finding.class == CheckClass::Fault {
        format!(" ({})", finding.class.name())
    } else {
        String::new()
    }
}

/// The offending span itself, when the evidence holds the text the excerpt
/// was cut from and the offsets fall on char boundaries inside it.
fn excerpt_span(
    result: &CaseResult,
    source: ExcerptSource,
    start: usize,
    end: usize,
) -> Option<&str> {
    let text = result.evidence.text_of(source)?;
    text.get(start..end)
}

fn write_errors(out: &mut String, run: &RunResult) {
    let errors: Vec<(&CaseResult, &str, &str, Option<&Fault>)> = run
        .results
        .iter()
        .filter_map(|r| match &r.outcome {
            Outcome::Error {
                reason,
                stderr_tail,
                fault,
            } => Some((r, reason.as_str(), stderr_tail.as_str(), fault.as_ref())),
            _ => None,
        })
        .collect();
    if errors.is_empty() {
        return;
    }
    let _ = writeln!(out, "## Errors ({})\n", errors.len());
    let _ = writeln!(
        out,
        "The target did not answer these cases, so they have no verdict.\n"
    );
    for (result, reason, stderr_tail, fault) in errors {
        write_case_heading(out, result);
        let _ = writeln!(
            out,
            "- reason: {}",
            md_code(&truncate(reason, MAX_SHOWN_BYTES), false)
        );
        write_fault_facts(out, fault);
        out.push('\n');
        if !stderr_tail.is_empty() {
            out.push_str("stderr tail:\n\n");
            out.push_str(&md_block(&truncate(stderr_tail, MAX_SHOWN_BYTES)));
            out.push('\n');
        }
    }
}

/// The cases whose content the target's store refused, each with what the
/// store said: not judged, listed so each can be told from a skip for a
/// missing capability.
fn write_unplanted(out: &mut String, run: &RunResult) {
    let unplanted: Vec<(&CaseResult, &str)> = run
        .results
        .iter()
        .filter_map(|r| match &r.outcome {
            Outcome::Unplanted { reason } => Some((r, reason.as_str())),
            _ => None,
        })
        .collect();
    if unplanted.is_empty() {
        return;
    }
    let _ = writeln!(
        out,
        "## Content the store refused ({})
",
        unplanted.len()
    );
    let _ = writeln!(
        out,
        "The target's store refused these cases' content before any framing saw it, so \
         they are not judged (a refused plant shows nothing about the framing).\n"
    );
    for (result, reason) in unplanted {
        write_case_heading(out, result);
        let _ = writeln!(
            out,
            "- the store said: {}\n",
            md_code(&truncate(reason, MAX_SHOWN_BYTES), false)
        );
    }
}

/// A fault's exit status and offending line, as list items.
fn write_fault_facts(out: &mut String, fault: Option<&Fault>) {
    let Some(fault) = fault else { return };
    let _ = writeln!(out, "- fault: {}", fault.kind.name());
    if let Some(status) = &fault.exit_status {
        let _ = writeln!(out, "- exit: {}", md_code(status, false));
    }
    if let Some(line) = &fault.offending_line {
        let _ = writeln!(
            out,
            "- first offending stdout line: {}",
            md_code(&truncate(line, MAX_SHOWN_BYTES), false)
        );
    }
}

/// The one-screen plain-text summary the CLI prints: status, the category
/// table, the first failing case ids per category, and the baseline diff.
/// No excerpts; every run-supplied string is shown through
/// [`visible`], so no payload can drive the terminal.
pub fn terminal_summary(run: &RunResult) -> String {
    terminal_summary_with_baseline(run, None)
}

/// [`terminal_summary`] with a baseline diff.
pub fn terminal_summary_with_baseline(run: &RunResult, baseline: Option<&BaselineDiff>) -> String {
    let summary = Summary::of(run);
    let decision = Decision::of(&summary, baseline);
    let mut out = String::new();
    write_terminal_status(&mut out, run, &summary, &decision);
    write_terminal_weaknesses(&mut out, &super::weakness::weaknesses(run));
    write_terminal_faults(&mut out, run);
    write_terminal_category_table(&mut out, &summary);
    write_terminal_failing(&mut out, run);
    if let Some(diff) = baseline {
        write_terminal_baseline(&mut out, &summary, diff);
    }
    super::views::write_terminal(&mut out, run);
    out.push_str(
        "\nnote: structural checks only. Framing marks provenance and raises cost; \
         it is not a boundary against an adaptive attacker.\n",
    );
    out
}

/// What the result line says of the requests that passed only on replay
/// (issue 57): nothing when there were none.
fn replay_note(passed_on_replay: u64) -> String {
    match passed_on_replay {
        0 => String::new(),
        n => format!(
            "; {n} request{} timed out and passed only on replay, on a fresh target given up to \
             {} times as long",
            if n == 1 { "" } else { "s" },
            framecheck_core::target::Patience::REPLAY_FACTOR
        ),
    }
}

/// The terminal summary's opening lines: run header, result (the exit code
/// the process returns, and the gate that decided it), level held, cases
/// reported apart and any harness error.
fn write_terminal_status(
    out: &mut String,
    run: &RunResult,
    summary: &Summary,
    decision: &Decision,
) {
    let meta = &run.meta;
    let at = summary.at_level();
    let _ = writeln!(
        out,
        "framecheck {}: target {}, level {}, {} gate, {} cases in {} ms",
        visible(&meta.framecheck_version),
        visible(&meta.target.name),
        meta.level.name(),
        meta.gate.name(),
        summary.total,
        meta.duration_ms
    );
    let faulted = fault_findings(run).len();
    let _ = writeln!(
        out,
        "result: {} (exit {}): {}{} {}{}, {} fidelity failures, {} errors, {} skipped{}",
        decision.status().to_uppercase(),
        decision.exit_code,
        decision
            .reason()
            .map_or_else(String::new, |reason| format!("{reason}; the run: ")),
        at.fail,
        super::summary::fail_label(meta.gate),
        if faulted > 0 {
            format!(" ({faulted} of them target faults, not breakouts)")
        } else {
            String::new()
        },
        at.fidelity_fail,
        at.error,
        at.skipped,
        replay_note(meta.passed_on_replay)
    );
    if let Some(unplanted) = super::summary::unplanted_text(run) {
        let _ = writeln!(out, "{unplanted}");
    }
    let _ = writeln!(out, "highest level held: {}", summary.level_held_text());
    if !summary.apart.is_empty() {
        let _ = writeln!(
            out,
            "reported apart (cases): {}",
            super::summary::apart_text(summary)
        );
    }
    if let Some(error) = &harness_error(run) {
        let _ = writeln!(
            out,
            "harness error: {}",
            visible(&truncate(error, MAX_SHOWN_BYTES))
        );
    }
    if let Some(fault) = &meta.target_fault {
        out.push_str("what the target did when it was given up:\n");
        write_terminal_fault(out, fault);
    }
}

/// A fault's exit status, offending line and stderr tail (the adapter's
/// traceback), indented, each line made visible.
fn write_terminal_fault(out: &mut String, fault: &Fault) {
    for line in fault.describe("  ", TERMINAL_STDERR_LINES).lines() {
        let _ = writeln!(out, "{}", visible(&truncate(line, MAX_SHOWN_BYTES)));
    }
}

/// The stderr lines a terminal shows of a fault: a traceback's end.
const TERMINAL_STDERR_LINES: usize = 12;

/// The cases judged by a `target.fault` finding, with the finding.
fn fault_findings(run: &RunResult) -> Vec<(&CaseResult, &Finding)> {
    run.results
        .iter()
        .filter_map(|r| match &r.outcome {
            Outcome::Judged { findings } => findings
                .iter()
                .find(|f| f.class == CheckClass::Fault)
                .map(|f| (r, f)),
            _ => None,
        })
        .collect()
}

/// The cases the target crashed, hung or broke the protocol on, and what
/// the first of them left behind, so the input and the traceback are on
/// the terminal, not only in the report files.
fn write_terminal_faults(out: &mut String, run: &RunResult) {
    let faults = fault_findings(run);
    let Some((first, finding)) = faults.first() else {
        return;
    };
    let _ = writeln!(
        out,
        "\ntarget faults ({} cases; each failed twice, on fresh targets, while a benign input is answered):",
        faults.len()
    );
    let kind = finding.fault.as_ref().map_or("fault", |f| f.kind.name());
    let _ = writeln!(
        out,
        "  first: {} ({kind}): {}",
        visible(&first.case.id),
        visible(&truncate(&super::case_input_text(&first.case), 120))
    );
    if let Some(fault) = &finding.fault {
        write_terminal_fault(out, fault);
    }
}

/// The plain-text verdict-count table, one row per category that has cases.
fn write_terminal_category_table(out: &mut String, summary: &Summary) {
    let _ = write!(out, "\n{:<22}", "category");
    for verdict in Verdict::ALL {
        let _ = write!(out, " {:>w$}", verdict.name(), w = column_width(verdict));
    }
    out.push('\n');
    for (category, counts) in summary.categories_with_cases() {
        let _ = write!(out, "{:<22}", category.name());
        for verdict in Verdict::ALL {
            let _ = write!(
                out,
                " {:>w$}",
                counts.get(verdict),
                w = column_width(verdict)
            );
        }
        out.push('\n');
    }
}

/// The first failing case labels per category, capped so the summary stays
/// one screen.
fn write_terminal_failing(out: &mut String, run: &RunResult) {
    let meta = &run.meta;
    let failing: Vec<&CaseResult> = run
        .results
        .iter()
        .filter(|r| super::baseline::is_failing(r.verdict(meta.level, meta.gate)))
        .collect();
    if failing.is_empty() {
        return;
    }
    out.push_str("\nfailing cases:\n");
    for category in Category::ALL {
        let ids: Vec<String> = failing
            .iter()
            .filter(|r| r.case.category == category)
            .map(|r| terminal_case_label(r, meta.level, meta.gate))
            .collect();
        if ids.is_empty() {
            continue;
        }
        let shown = ids.len().min(TERMINAL_IDS_PER_CATEGORY);
        let more = if ids.len() > shown {
            format!(" and {} more", ids.len() - shown)
        } else {
            String::new()
        };
        let _ = writeln!(
            out,
            "  {} ({}): {}{more}",
            category.name(),
            ids.len(),
            ids[..shown].join(", ")
        );
    }
}

/// The baseline diff: counts, id-mapping notes, the first new failures and
/// the exit code the baseline gate gives.
fn write_terminal_baseline(out: &mut String, summary: &Summary, diff: &BaselineDiff) {
    let _ = writeln!(
        out,
        "\nbaseline: {} new failures, {} fixed, {} still failing, {} new cases, {} removed{}{}",
        diff.new_failures.len(),
        diff.fixed.len(),
        diff.still_failing.len(),
        diff.new_cases.len(),
        diff.removed_cases.len(),
        not_run_clause(diff),
        if diff.is_regression() {
            " (REGRESSION)"
        } else {
            ""
        }
    );
    if diff.catalogue_changed {
        let _ = writeln!(
            out,
            "  the catalogue changed since the baseline: ids compared as locked in attacks/ids.lock"
        );
    }
    if !diff.aliased.is_empty() {
        let _ = writeln!(
            out,
            "  {} baseline ids mapped through the aliases in attacks/ids.lock",
            diff.aliased.len()
        );
    }
    for entry in diff.new_failures.iter().take(TERMINAL_IDS_PER_CATEGORY * 3) {
        let _ = writeln!(
            out,
            "  new failure: {} ({})",
            visible(&truncate(&entry.id, 200)),
            entry.new.map_or("absent", Verdict::name)
        );
    }
    let hidden = diff
        .new_failures
        .len()
        .saturating_sub(TERMINAL_IDS_PER_CATEGORY * 3);
    if hidden > 0 {
        let _ = writeln!(out, "  and {hidden} more new failures");
    }
    let gate = super::baseline::gate_exit_code(summary, diff);
    let _ = writeln!(
        out,
        "baseline gate: exit {gate} ({})",
        match gate {
            0 => "only failures the baseline accepts",
            1 => "new failures",
            _ => "the run is incomplete",
        }
    );
}

/// `, N not run (outside --only)` when the run's selection left baseline
/// cases out: they were not run, which is not the same as removed.
pub(crate) fn not_run_clause(diff: &BaselineDiff) -> String {
    if diff.not_run.is_empty() {
        String::new()
    } else {
        format!(", {} not run (outside --only)", diff.not_run.len())
    }
}

/// The weaknesses on the terminal: at most [`TERMINAL_WEAKNESSES`], each on
/// two lines (id, count, levels, minimal case; then the statement).
fn write_terminal_weaknesses(out: &mut String, weaknesses: &[Weakness]) {
    if weaknesses.is_empty() {
        return;
    }
    let counted = weaknesses.iter().filter(|w| w.counted).count();
    let _ = writeln!(
        out,
        "\nweaknesses ({counted}{}):",
        match weaknesses.len() - counted {
            0 => String::new(),
            folded => format!(", and {folded} folded spelling(s) not counted"),
        }
    );
    for weakness in weaknesses.iter().take(TERMINAL_WEAKNESSES) {
        let _ = writeln!(
            out,
            "  {} ({} cases, {}at {}; e.g. {})\n    {}",
            weakness.id,
            weakness.count,
            if weakness.fails {
                String::new()
            } else {
                format!("{}, not failing, ", weakness.class.name())
            },
            super::weakness::levels_text(weakness),
            visible(&truncate(&weakness.representative, 200)),
            weakness.statement
        );
    }
    if weaknesses.len() > TERMINAL_WEAKNESSES {
        let _ = writeln!(
            out,
            "  and {} more in the report",
            weaknesses.len() - TERMINAL_WEAKNESSES
        );
    }
}

/// Terminal column width for a verdict: its name, at least five digits.
fn column_width(verdict: Verdict) -> usize {
    verdict.name().len().max(5)
}

/// `id [check, check]`, or `id [verdict]` when no finding names a check.
fn terminal_case_label(result: &CaseResult, level: ReaderLevel, gate: Gate) -> String {
    let mut checks: Vec<&str> = result
        .findings_at(level)
        .iter()
        .map(|f| f.check.name())
        .collect();
    checks.sort_unstable();
    checks.dedup();
    let label = if checks.is_empty() {
        result.verdict(level, gate).name().to_string()
    } else {
        checks.join(", ")
    };
    format!("{} [{label}]", visible(&truncate(&result.case.id, 200)))
}

#[cfg(test)]
mod tests {
    use framecheck_core::target::ServerIdentity;
    use framecheck_launch::manifest::{Manifest, TargetIdentity};

    #[test]
    fn an_mcp_server_s_initialize_answer_is_listed_in_the_manifest() {
        let mut manifest = Manifest {
            framecheck_version: "0.1.0".into(),
            framecheck_commit: "unknown".into(),
            catalogue_hash: "c".into(),
            profile_hash: "p".into(),
            profile_path: None,
            profile_dir: None,
            target: TargetIdentity::default(),
            seed: None,
            command_line: Vec::new(),
            reader_data: None,
        };
        let mut plain = String::new();
        super::write_manifest(&mut plain, &manifest);
        assert!(!plain.contains("MCP server"), "{plain}");
        manifest.target.server = Some(ServerIdentity {
            name: "secure-filesystem-server".into(),
            version: "0.2.0".into(),
            protocol_version: "2025-11-25".into(),
        });
        let mut out = String::new();
        super::write_manifest(&mut out, &manifest);
        assert!(
            out.contains("- MCP server `secure-filesystem-server` `0.2.0` (protocol `2025-11-25`)"),
            "{out}"
        );
    }
}
