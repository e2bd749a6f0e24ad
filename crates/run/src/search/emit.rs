//! What a search writes: found cases as catalogue YAML, and a Markdown
//! summary. The YAML written here is also what [`super::replay`] loads and
//! runs before a finding is reported, so the file a user commits and the
//! case that was confirmed are the same text.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use super::{SearchFinding, SearchReport};
use crate::adapter::WrapRequest;
use framecheck_core::catalogue::{Category, Field};
use framecheck_core::grammar::Form;
use framecheck_launch::profile::TargetProfile;

/// A stable finding id from the target and the shrunk input. The target
/// name is reduced to the catalogue's id alphabet (`[a-z0-9.-]`), so the
/// written case loads whatever the profile is called.
pub(super) fn finding_id(target: &str, request: &WrapRequest) -> String {
    use sha2::{Digest, Sha256};
    let digest = Sha256::digest(serde_json::to_vec(request).unwrap_or_default());
    let hex: String = digest.iter().take(4).map(|b| format!("{b:02x}")).collect();
    let target: String = target
        .chars()
        .map(|c| match c.to_ascii_lowercase() {
            c @ ('a'..='z' | '0'..='9' | '.' | '-') => c,
            _ => '-',
        })
        .collect();
    format!("search-{target}-{hex}")
}

/// Renders the findings as catalogue files, one per category:
/// `(category, yaml)`. Literal braces are escaped, the canary becomes the
/// `{canary}` placeholder and the exact spellings of the profile's
/// delimiters and tokens become theirs (`{close}`, `{open}`, `{token}`…),
/// so the cases load with the rest of the catalogue and apply to any
/// target; on this target they expand to the very bytes that failed.
pub fn to_catalogue_files(
    report: &SearchReport,
    profile: &TargetProfile,
) -> Vec<(Category, String)> {
    let mut by_category: BTreeMap<Category, Vec<&SearchFinding>> = BTreeMap::new();
    for finding in &report.findings {
        by_category
            .entry(finding.category)
            .or_default()
            .push(finding);
    }
    by_category
        .into_iter()
        .map(|(category, findings)| {
            let yaml = catalogue_file(profile, Finder::Search(report.seed), category, &findings);
            (category, yaml)
        })
        .collect()
}

/// What produced the inputs of a written catalogue file, named in its
/// header so a reader knows how to reproduce the search.
#[derive(Debug, Clone, Copy)]
pub(super) enum Finder {
    /// `framecheck search` with this seed.
    Search(u64),
    /// The libFuzzer target `search_framing`: the input is the engine's,
    /// not a seed's stream, so no command replays the search itself.
    FuzzTarget,
}

/// One catalogue file holding `findings`, all of `category`.
pub(super) fn catalogue_file(
    profile: &TargetProfile,
    finder: Finder,
    category: Category,
    findings: &[&SearchFinding],
) -> String {
    let target = profile.name.as_str();
    let placeholders = literal_placeholders(profile);
    let mut yaml = String::new();
    let _ = match finder {
        Finder::Search(seed) => writeln!(
            yaml,
            "# Found by `framecheck search --target {target} --seed {seed}`."
        ),
        Finder::FuzzTarget => writeln!(
            yaml,
            "# Found by the libFuzzer target `search_framing` against {target}, \
             shrunk and replayed by framecheck search's judge."
        ),
    };
    let _ = writeln!(yaml, "schema: framecheck-catalogue/1");
    let _ = writeln!(yaml, "category: {}", category.name());
    let _ = writeln!(
        yaml,
        "description: Failing inputs found by black-box search against {}, shrunk.",
        json(target)
    );
    let _ = writeln!(
        yaml,
        "notes:\n  SearchFound:\n    description: Found by framecheck search, not written by hand."
    );
    let _ = writeln!(yaml, "cases:");
    for finding in findings {
        write_case(&mut yaml, finding, &placeholders);
    }
    yaml
}

fn write_case(yaml: &mut String, finding: &SearchFinding, placeholders: &[(String, &str)]) {
    let templ = |s: &str| {
        let mut text = s.replace('{', "{{").replace('}', "}}");
        if let Some(c) = &finding.canary {
            text = text.replace(c.as_str(), "{canary}");
        }
        for (literal, placeholder) in placeholders {
            text = text.replace(literal.as_str(), placeholder);
        }
        text
    };
    let title = format!("{} via {}", finding.finding.check, lineage(finding));
    let _ = writeln!(yaml, "  - id: {}", finding.id);
    let _ = writeln!(yaml, "    title: {}", json(&title));
    let _ = writeln!(yaml, "    why: {}", json(&finding.finding.message));
    let _ = writeln!(yaml, "    references: [CWE-74, OWASP-LLM01:2025]");
    let _ = writeln!(yaml, "    severity: high");
    let _ = writeln!(yaml, "    flags: [SearchFound]");
    let _ = writeln!(yaml, "    op: wrap");
    let _ = writeln!(yaml, "    input:");
    let request = &finding.request;
    let _ = writeln!(yaml, "      content: {}", json(&templ(&request.content)));
    let _ = writeln!(yaml, "      kind: {}", json(&templ(&request.kind)));
    let _ = writeln!(
        yaml,
        "      provenance: {}",
        json(&templ(&request.provenance))
    );
    if request.attributes.is_empty() {
        let _ = writeln!(yaml, "      attributes: {{}}");
    } else {
        let _ = writeln!(yaml, "      attributes:");
        for (key, value) in &request.attributes {
            let _ = writeln!(
                yaml,
                "        {}: {}",
                json(&templ(key)),
                json(&templ(value))
            );
        }
    }
    let requires: Vec<&str> = [
        (!request.attributes.is_empty(), "attributes"),
        (
            finding.canary_fields.contains(&Field::Provenance),
            "provenance",
        ),
        (finding.canary_fields.contains(&Field::Kind), "kind"),
    ]
    .iter()
    .filter(|(needed, _)| *needed)
    .map(|(_, name)| *name)
    .collect();
    if !requires.is_empty() {
        let _ = writeln!(yaml, "    requires: [{}]", requires.join(", "));
    }
    let _ = writeln!(yaml, "    expect: hold");
}

/// The exact spellings of the profile's delimiters and tokens, each with the
/// placeholder that expands to it, longest forms first so `</tok>` becomes
/// `{close}` rather than `</{token}>`.
fn literal_placeholders(profile: &TargetProfile) -> Vec<(String, &'static str)> {
    let grammar = profile.grammar();
    let mut roles = vec![(0, ["{close}", "{open}", "{open_start}", "{token}"])];
    // Token indices as the grammar numbers them: outer, inner, reserved.
    if profile.delimiters.inner.is_some() {
        roles.push((
            1,
            [
                "{inner_close}",
                "{inner_open}",
                "{inner_open_start}",
                "{inner_token}",
            ],
        ));
    }
    if !profile.delimiters.reserved.is_empty() {
        let reserved = 1 + usize::from(profile.delimiters.inner.is_some());
        roles.push((
            reserved,
            [
                "{reserved_close}",
                "{reserved_open}",
                "{reserved_open_start}",
                "{reserved_token}",
            ],
        ));
    }
    let mut pairs = Vec::new();
    for (token, [close, open, open_start, bare]) in roles {
        for (form, placeholder) in [
            (Form::Close, close),
            (Form::Open, open),
            (Form::OpenStart, open_start),
            (Form::Token, bare),
        ] {
            pairs.push((grammar.render(form, token).plain(), placeholder));
        }
    }
    // Longest first across roles too: an inner token may contain the outer.
    pairs.sort_by_key(|(literal, _)| std::cmp::Reverse(literal.len()));
    pairs
}

/// The operators that grew a finding, with the tricks stacked on one
/// delimiter span when there were any: `case-flip + stacked-delimiter
/// (fullwidth+zero-width)`.
fn lineage(finding: &SearchFinding) -> String {
    let operators = finding.operators.join(" + ");
    if finding.tricks.is_empty() {
        operators
    } else {
        format!("{operators} ({})", finding.tricks.join("+"))
    }
}

/// A YAML double-quoted scalar: every control character, and every
/// character a `unicode` reader does not see, as an escape YAML reads back
/// (`\uXXXX`, or `\UXXXXXXXX` outside the Basic Multilingual Plane), so a
/// person reviewing a found case sees the zero-width and tag characters a
/// stacked trick put there.
fn json(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 2);
    out.push('"');
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            c if c.is_control() || framecheck_core::level::is_ignorable(c) => {
                if (c as u32) < 0x10000 {
                    let _ = write!(out, "\\u{:04X}", c as u32);
                } else {
                    let _ = write!(out, "\\U{:08X}", c as u32);
                }
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// Markdown summary of a search for the report folder.
pub fn render_markdown(report: &SearchReport) -> String {
    let mut md = String::new();
    let _ = writeln!(md, "# framecheck search: {}\n", report.target);
    if let Some(error) = &report.harness_error {
        let _ = writeln!(
            md,
            "**INCOMPLETE (harness error)**: {}\n",
            error.escape_default()
        );
    }
    // A zero duration marks a search written with --reproducible.
    let took = match report.duration_ms {
        0 => "(time not recorded)".to_string(),
        ms => format!("in {ms} ms"),
    };
    let _ = writeln!(
        md,
        "Seed {}, level {}, {} mutants tried {took}, {} failing, {} target errors, \
         **{} new failure signature(s)** confirmed by replaying the written case \
         ({} did not replay and are not reported).\n",
        report.seed,
        report.level,
        report.mutants_tried,
        report.mutants_failing,
        report.target_errors,
        report.findings.len(),
        report.unconfirmed,
    );
    if report.mutants_faulting > 0 {
        let _ = writeln!(
            md,
            "Mutants on which the target crashed, hung or broke the protocol twice, the \
             second time on a fresh target: {}.\n",
            report.mutants_faulting
        );
    }
    let _ = writeln!(
        md,
        "Catalogue failures already known on this target (mutants of these do not count as new): {}\n",
        report.known_failures.len()
    );
    let _ = writeln!(
        md,
        "Corpus: {} mutants kept for a new output feature, {} distinct features seen.\n",
        report.corpus_size, report.features_seen
    );
    for finding in &report.findings {
        let _ = writeln!(md, "## {}\n", finding.id);
        let _ = writeln!(
            md,
            "- grew from `{}` by {}",
            finding.seed_case,
            lineage(finding)
        );
        let levels: Vec<&str> = finding.finding.levels.iter().map(|l| l.name()).collect();
        let _ = writeln!(
            md,
            "- check `{}`{} at {}: {}",
            finding.finding.check,
            finding.finding.consumer.note(),
            levels.join(", "),
            finding.finding.message
        );
        let _ = writeln!(
            md,
            "- shrunk content: `{}`\n",
            finding.request.content.escape_default()
        );
        if let Some(fault) = &finding.finding.fault {
            let described = fault.describe("", 12).replace("```", "` ` `");
            let _ = writeln!(md, "```text\n{described}```\n");
        }
    }
    md
}

/// The few lines a terminal gets after a search: what was tried and what was
/// found, one line per finding. The whole story is in the Markdown report.
pub fn render_terminal_summary(report: &SearchReport) -> String {
    let mut text = String::new();
    let _ = writeln!(
        text,
        "search {}: seed {}, level {}, {} mutants tried, {} failing, {} target errors, {} new failure signature(s)",
        report.target,
        report.seed,
        report.level,
        report.mutants_tried,
        report.mutants_failing,
        report.target_errors,
        report.findings.len()
    );
    if report.mutants_faulting > 0 {
        let _ = writeln!(
            text,
            "  {} mutants made the target fault twice (crash, hang or protocol violation)",
            report.mutants_faulting
        );
    }
    for finding in &report.findings {
        let _ = writeln!(
            text,
            "  {}: {}{} (grew from {} by {})",
            finding.id,
            finding.finding.check,
            finding.finding.consumer.note(),
            finding.seed_case,
            lineage(finding)
        );
        // A fault is diagnosed as in a run: exit status, first bad line,
        // the end of the target's stderr.
        if let Some(fault) = &finding.finding.fault {
            text.push_str(&fault.describe("    ", 12));
        }
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every invisible and control character search writes reads back
    /// unchanged from its escape.
    #[test]
    fn written_scalars_read_back_exactly() {
        let text = "a\u{FEFF}b\u{200B}\u{E0061}\u{2066}c\u{2069}\u{0}\u{1B}[2K\r\u{85}\u{2028}\"\\\t\n\u{1D41A}ｆ";
        let yaml = format!("value: {}\n", json(text));
        #[derive(serde::Deserialize)]
        struct Doc {
            value: String,
        }
        let doc: Doc = serde_saphyr::from_str(&yaml).unwrap();
        assert_eq!(doc.value, text);
    }
}
