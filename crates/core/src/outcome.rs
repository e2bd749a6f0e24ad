//! What a run produced: one [`CaseResult`] per case and the [`RunMeta`]
//! every report states, gathered in a [`RunResult`].
//!
//! The runner writes these and the reports read them, so they sit one floor
//! below both: a report never needs the runner to read a result, and the
//! nonce harvest and the tokenizer views read outcomes without calling back
//! into the run that made them.

use serde::{Deserialize, Serialize};

use crate::catalogue::ConcreteCase;
use crate::gate::Gate;
use crate::layout::Layout;
use crate::level::ReaderLevel;
use crate::oracle::{CheckClass, ExcerptSource, Finding};
use crate::profile::{Launch, TargetProfile};
use crate::target::Fault;

mod views;

pub use views::{judge_run, ViewReport};

/// What happened when one case ran.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "status", rename_all = "kebab-case")]
pub enum Outcome {
    /// The target answered and the oracle judged the answer.
    Judged {
        /// Failed checks; empty means the case passed at every level.
        findings: Vec<Finding>,
    },
    /// The target refused the input.
    Refused {
        /// The target's reason.
        reason: String,
        /// Whether the case allows refusing.
        acceptable: bool,
    },
    /// The target failed (crash, hang, protocol violation) and the case
    /// could not be judged; or it was not sent, because the target had been
    /// given up.
    Error {
        /// What went wrong.
        reason: String,
        /// The target's last stderr lines.
        stderr_tail: String,
        /// What the target did, when it failed by itself (its exit status,
        /// the line that broke the protocol).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        fault: Option<Fault>,
    },
    /// The target's store refused the case's content, so no framing saw
    /// it ([`crate::target::TargetError::Unplanted`]): not judged, its
    /// verdict [`Verdict::Skipped`]. A refused plant proves nothing about
    /// the framing, for or against it.
    Unplanted {
        /// What the store said (the setup command's exit status and
        /// stderr, the write tool's error).
        reason: String,
    },
    /// The case needs a capability the target lacks.
    Skipped {
        /// Which capability.
        reason: String,
    },
}

/// The verdict of a case at one reader level.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Verdict {
    /// Every check held.
    Pass,
    /// The target refused and the case allows it.
    Refused,
    /// A security check failed.
    Fail,
    /// Only fidelity checks failed (or a forbidden refusal).
    FidelityFail,
    /// The target failed to answer.
    Error,
    /// Not judged: a capability missing, or the target's store refused
    /// the content ([`Outcome::Unplanted`]).
    Skipped,
}

impl Verdict {
    /// The stable name.
    pub fn name(self) -> &'static str {
        match self {
            Verdict::Pass => "pass",
            Verdict::Refused => "refused",
            Verdict::Fail => "fail",
            Verdict::FidelityFail => "fidelity-fail",
            Verdict::Error => "error",
            Verdict::Skipped => "skipped",
        }
    }

    /// Every verdict, in report column order.
    pub const ALL: [Verdict; 6] = [
        Verdict::Pass,
        Verdict::Refused,
        Verdict::Fail,
        Verdict::FidelityFail,
        Verdict::Error,
        Verdict::Skipped,
    ];
}

/// What the target produced, kept as evidence for the report.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Evidence {
    /// The framed text a wrap returned.
    pub framed: Option<String>,
    /// The text given to the reader.
    pub read_text: Option<String>,
    /// What the reader returned (`Some(None)`: it rejected the text).
    pub read_body: Option<Option<String>>,
    /// The parts a wrap answered, one JSON object a line, for a framing
    /// that answers with parts (`framed` is then the content's part).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub parts: Option<String>,
}

impl Evidence {
    /// The evidence text an excerpt from `source` was cut from, when the
    /// run kept it.
    pub fn text_of(&self, source: ExcerptSource) -> Option<&str> {
        match source {
            ExcerptSource::Framed => self.framed.as_deref(),
            ExcerptSource::ReadInput => self.read_text.as_deref(),
            ExcerptSource::ReadBody => self.read_body.as_ref()?.as_deref(),
            ExcerptSource::Parts => self.parts.as_deref(),
        }
    }
}

/// One case's result.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CaseResult {
    /// The case that ran.
    pub case: ConcreteCase,
    /// What happened.
    pub outcome: Outcome,
    /// What the target produced.
    pub evidence: Evidence,
    /// Wall time for this case, in microseconds.
    pub elapsed_us: u64,
}

impl CaseResult {
    /// The verdict at `level` under the default gate: [`CaseResult::verdict`]
    /// with [`Gate::Default`]. Reports use the run's own gate (`meta.gate`).
    pub fn verdict_at(&self, level: ReaderLevel) -> Verdict {
        self.verdict(level, Gate::Default)
    }

    /// The verdict at `level` under `gate`, computed from the outcome and
    /// its findings; which findings fail is the gate's decision alone.
    pub fn verdict(&self, level: ReaderLevel, gate: Gate) -> Verdict {
        match &self.outcome {
            Outcome::Skipped { .. } | Outcome::Unplanted { .. } => Verdict::Skipped,
            Outcome::Error { .. } => Verdict::Error,
            Outcome::Refused { acceptable, .. } => {
                if *acceptable {
                    Verdict::Refused
                } else {
                    Verdict::FidelityFail
                }
            }
            Outcome::Judged { findings } => {
                let failing = findings
                    .iter()
                    .any(|f| gate.fails(f) && f.levels.contains(&level));
                if failing {
                    Verdict::Fail
                } else if findings.iter().any(|f| f.class == CheckClass::Fidelity) {
                    Verdict::FidelityFail
                } else {
                    Verdict::Pass
                }
            }
        }
    }

    /// This result as `consumer` alone sees it: only the findings that
    /// name it (a case that fools another consumer passes for this one).
    pub fn for_consumer(&self, consumer: crate::profile::Consumer) -> CaseResult {
        let mut result = self.clone();
        if let Outcome::Judged { findings } = &mut result.outcome {
            findings.retain(|f| f.consumer == consumer);
        }
        result
    }

    /// The findings that apply at `level` (fidelity findings apply at every level).
    pub fn findings_at(&self, level: ReaderLevel) -> Vec<&Finding> {
        match &self.outcome {
            Outcome::Judged { findings } => findings
                .iter()
                .filter(|f| f.class == CheckClass::Fidelity || f.levels.contains(&level))
                .collect(),
            _ => Vec::new(),
        }
    }
}

/// Facts about a run that every report states; `A` is the target's launch
/// configuration ([`Launch`]), which core carries and does not read.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(bound = "A: Launch")]
pub struct RunMeta<A> {
    /// framecheck's version.
    pub framecheck_version: String,
    /// SHA-256 of the catalogue files.
    pub catalogue_hash: String,
    /// The target's profile.
    pub target: TargetProfile<A>,
    /// The level the run's pass/fail was decided at.
    pub level: ReaderLevel,
    /// The gate the run's pass/fail was decided under (`--strict`).
    #[serde(default)]
    pub gate: Gate,
    /// Start time, seconds since the Unix epoch.
    pub started_unix: u64,
    /// Wall time of the whole run, in milliseconds.
    pub duration_ms: u64,
    /// The `--only` filters, if any.
    pub filters: Vec<String>,
    /// Set when the target could not be calibrated or the run did not finish.
    pub harness_error: Option<String>,
    /// What the run was made from, when the caller collected it
    /// (`framecheck_launch::manifest::collect`, which reads the adapter).
    #[serde(default)]
    pub manifest: Option<crate::manifest::Manifest>,
    /// The frame layout calibration learned, or why it could not.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub layout: Option<LayoutReport>,
    /// What the target did when the run gave it up (see
    /// `faults::Abandoned`; `harness_error` says which rule and why): its
    /// exit status, first offending line and stderr tail.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub target_fault: Option<Fault>,
    /// True when the run stopped before any case because the profile does
    /// not fit its framing (`Misfit`, named in `harness_error`).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub misfit: bool,
    /// True when the profile declares `delimiters: none` and benign plants
    /// bore it out: the run judged the framing by `frame.absent` alone, and
    /// no catalogue case (there is no frame for one to break).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub unmarked: bool,
    /// Requests that timed out and were answered when tried again on a
    /// fresh target under the replay budget (issue 57, `Patience`): the
    /// run used answers the machine was slow to give. Absent when none.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub passed_on_replay: u64,
}

/// Whether a count is zero: the count is then left out of a report.
fn is_zero(count: &u64) -> bool {
    *count == 0
}

/// What calibration learned about a target's frame, as the reports show it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "status", rename_all = "kebab-case")]
pub enum LayoutReport {
    /// The layout, and its template (see [`Layout::template`]).
    Learned {
        /// The layout as a one-line template.
        template: String,
        /// The layout, part by part.
        layout: Box<Layout>,
    },
    /// Calibration failed: wrap cases were judged by the v1 shape rule
    /// (the output begins with the opener and ends with the closer).
    Failed {
        /// Why, and what to declare.
        reason: String,
    },
}

impl LayoutReport {
    /// The report of a layout, or of why it could not be learned (the
    /// error's message is the report's reason).
    pub fn of<E: std::fmt::Display>(layout: &Result<Layout, E>) -> LayoutReport {
        match layout {
            Ok(l) => LayoutReport::Learned {
                template: l.template(),
                layout: Box::new(l.clone()),
            },
            Err(reason) => LayoutReport::Failed {
                reason: reason.to_string(),
            },
        }
    }
}

/// A whole run: the input to every report.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(bound = "A: Launch")]
pub struct RunResult<A> {
    /// Run facts.
    pub meta: RunMeta<A>,
    /// One result per concrete case, in catalogue order.
    pub results: Vec<CaseResult>,
    /// What each tokenizer view selected for the run found
    /// ([`judge_run`]); empty when none was selected.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub views: Vec<ViewReport>,
}

/// The flag every case run among siblings carries (`frame.count: several`).
pub const SEVERAL_FRAMES_FLAG: &str = "several-frames";
