//! From findings to the catalogue: the trick stacks a search keeps
//! finding, written as a proposed variant group (`framecheck search
//! --propose`).
//!
//! The catalogue spells each delimiter with one variant. When search keeps
//! breaking a target with the same stack of tricks on one delimiter
//! (fullwidth letters and a zero-width splice, say), that stack is a
//! candidate for a stacked variant group. Search proposes it rather than
//! adding it: a catalogue id is permanent (`attacks/ids.lock`), each case
//! carries a `why` and references that a person should write, and every
//! stacked variant multiplies the catalogue by its number of cases. The
//! proposal carries the evidence a reviewer needs: the stack, how many new
//! failing mutants carried it, and the confirmed (replayed) findings that
//! show it, each a written case in the same report set.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;

use serde::{Deserialize, Serialize};

use super::stack::Trick;
use super::{SearchFinding, SearchReport};

/// A stack needs this many new failing mutants to be proposed.
const MIN_FAILING: u64 = 2;

/// One trick stack and the evidence for it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TrickStack {
    /// The tricks applied inside one delimiter span, by name, sorted.
    pub tricks: Vec<String>,
    /// Mutants carrying the stack that failed a check their catalogue case
    /// passes.
    pub failing_mutants: u64,
    /// Confirmed findings whose in-span tricks include the stack.
    pub findings: Vec<String>,
}

/// The stack a mutant's tricks form: its in-span tricks, sorted and
/// without repeats; `None` with fewer than two (not a stack).
pub(super) fn stack_key(tricks: &[Trick]) -> Option<Vec<Trick>> {
    let set: BTreeSet<Trick> = tricks
        .iter()
        .copied()
        .filter(|t| !t.is_boundary())
        .collect();
    (set.len() >= 2).then(|| set.into_iter().collect())
}

/// The stacks seen, most frequent first, each with the confirmed findings
/// that carry it.
pub(super) fn tally(
    stacks: BTreeMap<Vec<Trick>, u64>,
    findings: &[SearchFinding],
) -> Vec<TrickStack> {
    let mut out: Vec<TrickStack> = stacks
        .into_iter()
        .map(|(key, failing_mutants)| {
            let names: Vec<String> = key.iter().map(|t| t.name().to_string()).collect();
            let carrying = findings
                .iter()
                .filter(|f| names.iter().all(|n| f.tricks.contains(n)))
                .map(|f| f.id.clone())
                .collect();
            TrickStack {
                tricks: names,
                failing_mutants,
                findings: carrying,
            }
        })
        .collect();
    out.sort_by(|a, b| {
        b.failing_mutants
            .cmp(&a.failing_mutants)
            .then(a.tricks.cmp(&b.tricks))
    });
    out
}

/// The proposed variant group as YAML, or `None` when no stack failed
/// often enough and has a confirmed finding to show for it.
pub fn render_proposal(report: &SearchReport) -> Option<String> {
    let proposed: Vec<&TrickStack> = report
        .trick_stacks
        .iter()
        .filter(|s| s.failing_mutants >= MIN_FAILING && !s.findings.is_empty())
        .collect();
    if proposed.is_empty() {
        return None;
    }
    let mut yaml = String::new();
    let _ = writeln!(
        yaml,
        "# Proposed by `framecheck search --target {} --seed {} --propose`: trick stacks that\n\
         # broke this target on one delimiter span in {MIN_FAILING} or more new failing mutants,\n\
         # each with confirmed findings (written cases beside this file). A proposal, not a\n\
         # catalogue file: a person decides which become stacked variants with stable ids.",
        report.target, report.seed
    );
    let _ = writeln!(yaml, "schema: framecheck-variant-proposal/1");
    let _ = writeln!(
        yaml,
        "target: {}",
        serde_json::to_string(&report.target).unwrap_or_default()
    );
    let _ = writeln!(yaml, "groups:");
    for stack in proposed {
        let _ = writeln!(yaml, "  - name: stacked-{}", stack.tricks.join("-"));
        let _ = writeln!(yaml, "    tricks: [{}]", stack.tricks.join(", "));
        let _ = writeln!(yaml, "    failing_mutants: {}", stack.failing_mutants);
        let _ = writeln!(yaml, "    findings: [{}]", stack.findings.join(", "));
    }
    Some(yaml)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_repeated_confirmed_stacks_are_proposed() {
        let key = stack_key(&[
            Trick::ZeroWidth,
            Trick::Padding,
            Trick::Fullwidth,
            Trick::ZeroWidth,
        ]);
        assert_eq!(key, Some(vec![Trick::Fullwidth, Trick::ZeroWidth]));
        assert_eq!(stack_key(&[Trick::Case, Trick::LineStart]), None);
        let stacks = BTreeMap::from([
            (vec![Trick::Fullwidth, Trick::ZeroWidth], 3),
            (vec![Trick::Case, Trick::Bidi], 5),
        ]);
        let tallied = tally(stacks, &[]);
        assert_eq!(tallied[0].tricks, ["case", "bidi"]);
        let mut report = SearchReport {
            target: "t".into(),
            seed: 1,
            level: framecheck_core::level::ReaderLevel::Unicode,
            mutants_tried: 0,
            mutants_failing: 0,
            target_errors: 0,
            mutants_faulting: 0,
            known_failures: vec![],
            findings: vec![],
            unconfirmed: 0,
            harness_error: None,
            trick_stacks: tallied,
            corpus_size: 0,
            features_seen: 0,
            corpus: vec![],
            duration_ms: 0,
        };
        // No confirmed finding: nothing to propose.
        assert_eq!(render_proposal(&report), None);
        report.trick_stacks[1].findings = vec!["search-t-0001".into()];
        let yaml = render_proposal(&report).unwrap();
        assert!(
            yaml.contains("name: stacked-fullwidth-zero-width"),
            "{yaml}"
        );
        assert!(!yaml.contains("stacked-case-bidi"), "{yaml}");
    }
}
