//! The one counting unit of every report, of README's field numbers and of
//! `field/triage.py` (docs/report-schema.md, "Counting").
//!
//! Reports lead with weaknesses ([`super::weakness`]): distinct things the
//! framing does wrong. Cases and findings come after, counted so:
//!
//! - a **finding** is one (case, check) pair with a finding at the run's
//!   level (a fidelity finding at every level); in a run with several
//!   consumers (`reader.consumers`), one (case, check, consumer) triple:
//!   a case that fools the model and the parser is a finding for each;
//! - a finding whose cause is another finding of the same case at the same
//!   levels (the check table's `caused_by`: a `frame.separation` finding
//!   where `delimiter.census` found the forged delimiter that moved the
//!   frames) is **linked** to that cause and not counted again (the cause
//!   a finding of the same consumer);
//! - a `nonce.confusable` finding and a `template.control` finding of a
//!   folded spelling ([`super::spelling`]) are **apart**: reported, not
//!   counted;
//! - every other finding is **counted**.

use std::collections::BTreeMap;
use std::fmt;

use serde::{Serialize, Serializer};

use super::spelling::{self, Spelling};
use super::weakness::Weakness;
use framecheck_core::level::ReaderLevel;
use framecheck_core::oracle::{Check, CheckClass, Finding};
use framecheck_launch::outcome::{CaseResult, Outcome, RunResult};
use framecheck_launch::profile::Consumer;

/// What one counted finding is of: a check, and in a run with several
/// consumers the consumer it fools. Written `delimiter.census`, or
/// `delimiter.census/parser` with several consumers (as a weakness's id
/// ends in its consumer's name there).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct Unit {
    /// The check.
    pub check: Check,
    /// The consumer, in a run with several; `None` with one.
    pub consumer: Option<Consumer>,
}

impl fmt::Display for Unit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.check.name())?;
        match self.consumer {
            Some(consumer) => write!(f, "/{}", consumer.name()),
            None => Ok(()),
        }
    }
}

impl Serialize for Unit {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

/// Whether `run` declares several consumers of its output: then each
/// finding and weakness is counted per consumer.
pub fn several(run: &RunResult) -> bool {
    run.meta.target.reader.consumers().len() > 1
}

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
        result.findings_at(level).iter().any(|f| {
            f.check == cause
                && f.consumer == finding.consumer
                && finding.levels.iter().all(|l| f.levels.contains(l))
        })
    });
    Some(cause.map_or(Tally::Counted, Tally::Linked))
}

/// The counted weaknesses each case belongs to, by case id, and how the
/// run's consumers count.
#[derive(Debug, Clone, Default)]
pub struct ByCase<'a> {
    cases: BTreeMap<&'a str, Vec<&'a Weakness>>,
    /// With several consumers, the first (the one a finding every consumer
    /// sees, such as a refusal, is reported for); `None` with one.
    first: Option<Consumer>,
}

/// Indexes the counted `weaknesses` of `run` by case.
pub fn by_case<'a>(run: &RunResult, weaknesses: &'a [Weakness]) -> ByCase<'a> {
    let mut index = ByCase {
        cases: BTreeMap::new(),
        first: several(run).then(|| run.meta.target.reader.consumers()[0]),
    };
    for weakness in weaknesses.iter().filter(|w| w.counted) {
        for case in &weakness.cases {
            index.cases.entry(case.as_str()).or_default().push(weakness);
        }
    }
    index
}

impl ByCase<'_> {
    /// The unit a finding of `check` fooling `consumer` counts in.
    fn unit(&self, check: Check, consumer: Consumer) -> Unit {
        Unit {
            check,
            consumer: self.first.map(|_| consumer),
        }
    }

    /// The weakness a counted finding of `unit` in case `id` belongs to:
    /// the case's weakness of that check (and consumer, with several),
    /// else its primary one (the weakness that is not of a class reported
    /// whatever the gate).
    fn owner(&self, id: &str, unit: Unit) -> Option<String> {
        let weaknesses: Vec<&&Weakness> = self
            .cases
            .get(id)?
            .iter()
            .filter(|w| unit.consumer.is_none_or(|c| w.consumer == c))
            .collect();
        weaknesses
            .iter()
            .find(|w| w.check == unit.check)
            .or_else(|| {
                weaknesses
                    .iter()
                    .find(|w| !matches!(w.class, CheckClass::OuterLayer | CheckClass::HostFramed))
            })
            .map(|w| w.id.clone())
    }
}

/// One case's findings at a level, as counted: written beside each case in
/// the JSON report.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct CaseTally {
    /// The checks counted as findings (each (case, check) pair once, each
    /// (case, check, consumer) triple with several consumers), each with
    /// the id of the weakness it belongs to (`null` for none).
    pub findings: BTreeMap<Unit, Option<String>>,
    /// Each linked check, with the check of its cause.
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub linked: BTreeMap<Unit, Check>,
    /// The checks reported apart.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub apart: Vec<Unit>,
}

/// The tally of `result`'s findings at `level`, each (case, check) pair
/// once: a check counted for one of its findings is counted; each counted
/// one with its weakness from `index` ([`by_case`]).
pub fn case_tally(result: &CaseResult, level: ReaderLevel, index: &ByCase<'_>) -> CaseTally {
    let id = result.case.id.as_str();
    let mut best: BTreeMap<Unit, Tally> = BTreeMap::new();
    let findings = match &result.outcome {
        Outcome::Judged { findings } => findings,
        // A forbidden refusal has no finding object: it is one fidelity
        // finding, as it is one fidelity weakness's case (the first
        // consumer's, with several: the framing refused, whoever reads).
        Outcome::Refused {
            acceptable: false, ..
        } => {
            let unit = index.unit(Check::Fidelity, index.first.unwrap_or_default());
            return CaseTally {
                findings: BTreeMap::from([(unit, index.owner(id, unit))]),
                ..CaseTally::default()
            };
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
        let unit = index.unit(finding.check, finding.consumer);
        let slot = best.entry(unit).or_insert(tally);
        if rank(&tally) < rank(slot) {
            *slot = tally;
        }
    }
    let mut out = CaseTally::default();
    for (unit, tally) in best {
        match tally {
            Tally::Counted => {
                out.findings.insert(unit, index.owner(id, unit));
            }
            Tally::Linked(cause) => {
                out.linked.insert(unit, cause);
            }
            Tally::Apart => out.apart.push(unit),
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
    /// Counted findings ((case, check) pairs; (case, check, consumer)
    /// triples with several consumers).
    pub findings: usize,
    /// Findings linked to their cause in the same case, not counted.
    pub linked: usize,
    /// Findings reported apart, not counted.
    pub apart: usize,
}

/// The totals of `run` at its level, with `weaknesses` as
/// [`super::weakness::weaknesses`] made them.
pub fn counts(run: &RunResult, weaknesses: &[Weakness]) -> Counts {
    let mut counts = Counts {
        weaknesses: weaknesses.iter().filter(|w| w.counted).count(),
        folded_spellings: weaknesses.iter().filter(|w| !w.counted).count(),
        ..Counts::default()
    };
    let index = by_case(run, weaknesses);
    for result in &run.results {
        let tally = case_tally(result, run.meta.level, &index);
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
    use framecheck_launch::outcome::{Evidence, RunMeta};
    use framecheck_launch::profile::TargetProfile;

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
        tally.findings.keys().map(|u| u.check).collect()
    }

    fn one(check: Check) -> Unit {
        Unit {
            check,
            consumer: None,
        }
    }

    /// A run of `results` at `level` for `profile`.
    fn run_of(profile: TargetProfile, results: Vec<CaseResult>, level: ReaderLevel) -> RunResult {
        RunResult {
            meta: RunMeta {
                framecheck_version: String::new(),
                catalogue_hash: String::new(),
                target: profile,
                level,
                gate: Default::default(),
                started_unix: 0,
                duration_ms: 0,
                filters: Vec::new(),
                harness_error: None,
                manifest: None,
                layout: None,
                target_fault: None,
                misfit: false,
                unmarked: false,
                passed_on_replay: 0,
            },
            results,
            views: Vec::new(),
        }
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
        let tally = case_tally(&r, Unicode, &ByCase::default());
        assert_eq!(
            checks(&tally),
            [Check::DelimiterCensus, Check::CanaryContainment]
        );
        assert_eq!(
            tally.linked,
            BTreeMap::from([(one(Check::FrameSeparation), Check::DelimiterCensus)])
        );
        // A separation at a level the census does not fail at is its own.
        let wide = finding(
            Check::FrameSeparation,
            CheckClass::Security,
            &[Exact, Unicode],
        );
        let r = result(vec![census, wide]);
        assert_eq!(
            checks(&case_tally(&r, Unicode, &ByCase::default())),
            // In the checks' declaration order.
            [Check::FrameSeparation, Check::DelimiterCensus]
        );
        // Without a census finding, a separation counts.
        let r = result(vec![separation]);
        let none = ByCase::default();
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
        let tally = case_tally(&r, ReaderLevel::Exact, &ByCase::default());
        assert_eq!(checks(&tally), [Check::Fidelity]);
        assert_eq!(tally.apart, [one(Check::NonceConfusable)]);
        let run = run_of(
            framecheck_envelope::reference_profile(),
            vec![r],
            ReaderLevel::Exact,
        );
        let counts = counts(&run, &[]);
        assert_eq!((counts.cases, counts.findings, counts.apart), (1, 1, 1));
        assert_eq!(
            counts_text(&counts),
            "0 weaknesses, shown by 1 case with 1 finding (1 reported apart: not counted)"
        );
    }

    /// With several consumers a finding is a (case, check, consumer)
    /// triple: the census fooling the model and the parser is two findings,
    /// each in its consumer's weakness, and a separation is linked only to
    /// a census finding of its own consumer.
    #[test]
    fn several_consumers_count_each_consumer_fooled() {
        use ReaderLevel::Exact;
        let both = vec![Consumer::Model, Consumer::Parser];
        let profile = framecheck_envelope::reference_profile()
            .edit(|p| p.reader.consumers = Some(both.try_into().unwrap()))
            .unwrap();
        let named = |check, consumer| Finding {
            consumer,
            ..finding(check, CheckClass::Security, &[Exact])
        };
        let r = result(vec![
            named(Check::DelimiterCensus, Consumer::Model),
            named(Check::DelimiterCensus, Consumer::Parser),
            named(Check::FrameSeparation, Consumer::Model),
            named(Check::FrameSeparation, Consumer::Parser),
            named(Check::CanaryContainment, Consumer::Model),
        ]);
        let id = r.case.id.clone();
        let run = run_of(profile, vec![r], Exact);
        let weakness = |check: Check, consumer: Consumer| Weakness {
            id: format!("{}/{}", check.name(), consumer.name()),
            consumer,
            ..crate::weakness::weaknesses(&run_of(
                framecheck_envelope::reference_profile(),
                vec![result(vec![named(check, Consumer::Model)])],
                Exact,
            ))
            .remove(0)
        };
        let weaknesses = [
            weakness(Check::DelimiterCensus, Consumer::Model),
            weakness(Check::DelimiterCensus, Consumer::Parser),
        ];
        let index = by_case(&run, &weaknesses);
        let tally = case_tally(&run.results[0], Exact, &index);
        let unit = |check, consumer| Unit {
            check,
            consumer: Some(consumer),
        };
        assert_eq!(
            tally.findings,
            BTreeMap::from([
                (
                    unit(Check::DelimiterCensus, Consumer::Model),
                    Some("delimiter.census/model".to_string())
                ),
                (
                    unit(Check::DelimiterCensus, Consumer::Parser),
                    Some("delimiter.census/parser".to_string())
                ),
                (
                    unit(Check::CanaryContainment, Consumer::Model),
                    Some("delimiter.census/model".to_string())
                ),
            ])
        );
        assert_eq!(
            tally.linked,
            BTreeMap::from([
                (
                    unit(Check::FrameSeparation, Consumer::Model),
                    Check::DelimiterCensus
                ),
                (
                    unit(Check::FrameSeparation, Consumer::Parser),
                    Check::DelimiterCensus
                ),
            ])
        );
        let json = serde_json::to_value(&tally).unwrap();
        assert!(
            json["findings"]["delimiter.census/parser"].is_string(),
            "{json}"
        );
        let counts = counts(&run, &weaknesses);
        assert_eq!((counts.cases, counts.findings, counts.linked), (1, 3, 2));
        assert!(weaknesses.iter().all(|w| w.cases == [id.clone()]));
    }
}
