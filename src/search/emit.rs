//! What a search writes: found cases as catalogue YAML, and a Markdown
//! summary. The YAML written here is also what [`super::replay`] loads and
//! runs before a finding is reported, so the file a user commits and the
//! case that was confirmed are the same text.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use super::{SearchFinding, SearchReport};
use crate::adapter::WrapRequest;
use crate::catalogue::{Category, Field};

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
/// `(category, yaml)`. Literal braces are escaped and the canary becomes the
/// `{canary}` placeholder, so the cases load with the rest of the catalogue.
pub fn to_catalogue_files(report: &SearchReport) -> Vec<(Category, String)> {
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
            let yaml = catalogue_file(&report.target, report.seed, category, &findings);
            (category, yaml)
        })
        .collect()
}

/// One catalogue file holding `findings`, all of `category`.
pub(super) fn catalogue_file(
    target: &str,
    seed: u64,
    category: Category,
    findings: &[&SearchFinding],
) -> String {
    let mut yaml = String::new();
    let _ = writeln!(
        yaml,
        "# Found by `framecheck search --target {target} --seed {seed}`."
    );
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
        write_case(&mut yaml, finding);
    }
    yaml
}

fn write_case(yaml: &mut String, finding: &SearchFinding) {
    let templ = |s: &str| {
        let escaped = s.replace('{', "{{").replace('}', "}}");
        match &finding.canary {
            Some(c) => escaped.replace(c.as_str(), "{canary}"),
            None => escaped,
        }
    };
    let operators = finding.operators.join(" + ");
    let title = format!("{} via {operators}", finding.finding.check);
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

/// A YAML double-quoted scalar: JSON string syntax is valid YAML, and every
/// control character comes out as a `\uXXXX` escape YAML reads back.
fn json(text: &str) -> String {
    serde_json::to_string(text).unwrap_or_else(|_| "\"\"".into())
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
    let _ = writeln!(
        md,
        "Seed {}, level {}, {} mutants tried in {} ms, {} failing, {} target errors, \
         **{} new failure signature(s)** confirmed by replaying the written case \
         ({} did not replay and are not reported).\n",
        report.seed,
        report.level,
        report.mutants_tried,
        report.duration_ms,
        report.mutants_failing,
        report.target_errors,
        report.findings.len(),
        report.unconfirmed,
    );
    let _ = writeln!(
        md,
        "Catalogue failures already known on this target (mutants of these do not count as new): {}\n",
        report.known_failures.len()
    );
    for finding in &report.findings {
        let _ = writeln!(md, "## {}\n", finding.id);
        let _ = writeln!(
            md,
            "- grew from `{}` by {}",
            finding.seed_case,
            finding.operators.join(" + ")
        );
        let _ = writeln!(
            md,
            "- check `{}` at {:?}: {}",
            finding.finding.check, finding.finding.levels, finding.finding.message
        );
        let _ = writeln!(
            md,
            "- shrunk content: `{}`\n",
            finding.request.content.escape_default()
        );
    }
    md
}
