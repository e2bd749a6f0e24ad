//! The one counting unit of every report, of README's field numbers and of
//! `field/triage.py` (docs/report-schema.md, "Counting").
//!
//! Reports lead with weaknesses ([`super::weakness`]): distinct things the
//! framing does wrong. Cases and findings come after, counted so:
//!
//! - a **finding** is one (case, check) pair with a finding at the run's
//!   level (a fidelity finding at every level);
//! - a finding whose cause is another finding of the same case at the same
//!   levels (the check table's `caused_by`: a `frame.separation` finding
//!   where `delimiter.census` found the forged delimiter that moved the
//!   frames) is **linked** to that cause and not counted again;
//! - a `nonce.confusable` finding and a `template.control` finding of a
//!   folded spelling ([`super::spelling`]) are **apart**: reported, not
//!   counted;
//! - every other finding is **counted**.

use std::collections::BTreeMap;

use serde::Serialize;

use super::spelling::{self, Spelling};
use super::weakness::Weakness;
use framecheck_core::level::ReaderLevel;
use framecheck_core::oracle::{Check, CheckClass, Finding};
use framecheck_core::outcome::{CaseResult, Outcome};

/// How one finding is counted.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Tally {
    /// Counted as a finding.
    Counted,
    /// Linked to its cause, the finding of this check in the same case.
    Linked(Check),
    /// Reported apart, not counted.
    Apart,
}

/// How `finding` of `result` counts at `level`; `None` when it is not a
/// finding at that level.
pub fn tally(result: &CaseResult, finding: &Finding, level: ReaderLevel) -> Option<Tally> {
    if finding.class != CheckClass::Fidelity && !finding.levels.contains(&level) {
        return None;
    }
    if finding.class == CheckClass::Confusable
        || matches!(spelling::spelling(result, finding), Spelling::Folded(_))
    {
        return Some(Tally::Apart);
    }
    let cause = finding.check.row().caused_by.filter(|&cause| {
        result
            .findings_at(level)
            .iter()
            .any(|f| f.check == cause && finding.levels.iter().all(|l| f.levels.contains(l)))
    });
    Some(cause.map_or(Tally::Counted, Tally::Linked))
}

/// The counted weaknesses each case belongs to, by case id.
pub type ByCase<'a> = BTreeMap<&'a str, Vec<&'a Weakness>>;

/// Indexes the counted `weaknesses` by case.
pub fn by_case(weaknesses: &[Weakness]) -> ByCase<'_> {
    let mut index: ByCase<'_> = BTreeMap::new();
    for weakness in weaknesses.iter().filter(|w| w.counted) {
        for case in &weakness.cases {
            index.entry(case.as_str()).or_default().push(weakness);
        }
    }
    index
}

/// The weakness a counted finding of `check` in case `id` belongs to: the
/// case's weakness of that check, else its primary one (the weakness that
/// is not of a class reported whatever the gate).
fn owner(index: &ByCase<'_>, id: &str, check: Check) -> Option<String> {
    let weaknesses = index.get(id)?;
    weaknesses
        .iter()
        .find(|w| w.check == check)
        .or_else(|| {
            weaknesses
                .iter()
                .find(|w| !matches!(w.class, CheckClass::OuterLayer | CheckClass::HostFramed))
        })
        .map(|w| w.id.clone())
}

/// One case's findings at a level, as counted: written beside each case in
/// the JSON report.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct CaseTally {
    /// The checks counted as findings (each (case, check) pair once), each
    /// with the id of the weakness it belongs to (`null` for none).
    pub findings: BTreeMap<Check, Option<String>>,
    /// Each linked check, with the check of its cause.
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub linked: BTreeMap<Check, Check>,
    /// The checks reported apart.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub apart: Vec<Check>,
}

/// The tally of `result`'s findings at `level`, each (case, check) pair
/// once: a check counted for one of its findings is counted; each counted
/// one with its weakness from `index` ([`by_case`]).
pub fn case_tally(result: &CaseResult, level: ReaderLevel, index: &ByCase<'_>) -> CaseTally {
    let id = result.case.id.as_str();
    let mut best: BTreeMap<Check, Tally> = BTreeMap::new();
    let findings = match &result.outcome {
        Outcome::Judged { findings } => findings,
        // A forbidden refusal has no finding object: it is one fidelity
        // finding, as it is one fidelity weakness's case.
        Outcome::Refused {
            acceptable: false, ..
        } => {
            return CaseTally {
                findings: BTreeMap::from([(Check::Fidelity, owner(index, id, Check::Fidelity))]),
                ..CaseTally::default()
            }
        }
        _ => return CaseTally::default(),
    };
    for finding in findings {
        let Some(tally) = tally(result, finding, level) else {
            continue;
        };
        let rank = |t: &Tally| match t {
            Tally::Counted => 0,
            Tally::Linked(_) => 1,
            Tally::Apart => 2,
        };
        let slot = best.entry(finding.check).or_insert(tally);
        if rank(&tally) < rank(slot) {
            *slot = tally;
        }
    }
    let mut out = CaseTally::default();
    for (check, tally) in best {
        match tally {
            Tally::Counted => {
                out.findings.insert(check, owner(index, id, check));
            }
            Tally::Linked(cause) => {
                out.linked.insert(check, cause);
            }
            Tally::Apart => out.apart.push(check),
        }
    }
    out
}

/// A run's totals in the counting unit: weaknesses first.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct Counts {
    /// Distinct weaknesses (counted ones).
    pub weaknesses: usize,
    /// Groups of folded spellings, reported apart from the weaknesses.
    pub folded_spellings: usize,
    /// Cases with at least one counted finding.
    pub cases: usize,
    /// Counted findings ((case, check) pairs).
    pub findings: usize,
    /// Findings linked to their cause in the same case, not counted.
    pub linked: usize,
    /// Findings reported apart, not counted.
    pub apart: usize,
}

/// The totals of `results` at `level`, with `weaknesses` as
/// [`super::weakness::weaknesses`] made them.
pub fn counts(results: &[CaseResult], weaknesses: &[Weakness], level: ReaderLevel) -> Counts {
    let mut counts = Counts {
        weaknesses: weaknesses.iter().filter(|w| w.counted).count(),
        folded_spellings: weaknesses.iter().filter(|w| !w.counted).count(),
        ..Counts::default()
    };
    let index = by_case(weaknesses);
    for result in results {
        let tally = case_tally(result, level, &index);
        counts.cases += usize::from(!tally.findings.is_empty());
        counts.findings += tally.findings.len();
        counts.linked += tally.linked.len();
        counts.apart += tally.apart.len();
    }
    counts
}

/// The counts in words, for the human formats: "3 weaknesses, shown by 40
/// cases with 52 findings (4 linked to their cause and 2 reported apart, not
/// counted)".
pub fn counts_text(counts: &Counts) -> String {
    let plural =
        |n: usize, one: &str, many: &str| format!("{n} {}", if n == 1 { one } else { many });
    let mut text = format!(
        "{}, shown by {} with {}",
        plural(counts.weaknesses, "weakness", "weaknesses"),
        plural(counts.cases, "case", "cases"),
        plural(counts.findings, "finding", "findings"),
    );
    let mut aside = Vec::new();
    if counts.linked > 0 {
        aside.push(format!("{} linked to its cause", counts.linked));
    }
    if counts.apart > 0 {
        aside.push(format!("{} reported apart", counts.apart));
    }
    if counts.folded_spellings > 0 {
        aside.push(format!(
            "{} folded spelling group(s)",
            counts.folded_spellings
        ));
    }
    if !aside.is_empty() {
        text.push_str(&format!(" ({}: not counted)", aside.join(", ")));
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;
    use framecheck_core::outcome::Evidence;

    fn finding(check: Check, class: CheckClass, levels: &[ReaderLevel]) -> Finding {
        Finding {
            consumer: Default::default(),
            check,
            class,
            levels: levels.to_vec(),
            message: check.name().into(),
            excerpt: None,
            in_context: false,
            fault: None,
            live: None,
        }
    }

    fn checks(tally: &CaseTally) -> Vec<Check> {
        tally.findings.keys().copied().collect()
    }

    fn result(findings: Vec<Finding>) -> CaseResult {
        let case = framecheck_core::catalogue::instantiate(
            &framecheck_core::catalogue::builtin(),
            &framecheck_envelope::reference_profile(),
        )
        .into_iter()
        .next()
        .expect("a case");
        CaseResult {
            case,
            outcome: Outcome::Judged { findings },
            evidence: Evidence::default(),
            elapsed_us: 0,
        }
    }

    #[test]
    fn a_separation_is_linked_to_the_census_finding_that_caused_it() {
        use ReaderLevel::{AsciiCaseInsensitive as Ci, Exact, Unicode};
        let census = finding(Check::DelimiterCensus, CheckClass::Security, &[Ci, Unicode]);
        let separation = finding(Check::FrameSeparation, CheckClass::Security, &[Unicode]);
        let canary = finding(Check::CanaryContainment, CheckClass::Security, &[Unicode]);
        let r = result(vec![census.clone(), separation.clone(), canary]);
        let tally = case_tally(&r, Unicode, &ByCase::new());
        assert_eq!(
            checks(&tally),
            [Check::DelimiterCensus, Check::CanaryContainment]
        );
        assert_eq!(
            tally.linked,
            BTreeMap::from([(Check::FrameSeparation, Check::DelimiterCensus)])
        );
        // A separation at a level the census does not fail at is its own.
        let wide = finding(
            Check::FrameSeparation,
            CheckClass::Security,
            &[Exact, Unicode],
        );
        let r = result(vec![census, wide]);
        assert_eq!(
            checks(&case_tally(&r, Unicode, &ByCase::new())),
            // In the checks' declaration order.
            [Check::FrameSeparation, Check::DelimiterCensus]
        );
        // Without a census finding, a separation counts.
        let r = result(vec![separation]);
        let none = ByCase::new();
        assert_eq!(
            checks(&case_tally(&r, Unicode, &none)),
            [Check::FrameSeparation]
        );
        assert!(case_tally(&r, Exact, &none).findings.is_empty());
    }

    #[test]
    fn confusables_are_apart_and_fidelity_counts_at_every_level() {
        let r = result(vec![
            finding(
                Check::NonceConfusable,
                CheckClass::Confusable,
                &[ReaderLevel::Exact],
            ),
            finding(Check::Fidelity, CheckClass::Fidelity, &[]),
        ]);
        let tally = case_tally(&r, ReaderLevel::Exact, &ByCase::new());
        assert_eq!(checks(&tally), [Check::Fidelity]);
        assert_eq!(tally.apart, [Check::NonceConfusable]);
        let counts = counts(std::slice::from_ref(&r), &[], ReaderLevel::Exact);
        assert_eq!((counts.cases, counts.findings, counts.apart), (1, 1, 1));
        assert_eq!(
            counts_text(&counts),
            "0 weaknesses, shown by 1 case with 1 finding (1 reported apart: not counted)"
        );
    }
}
