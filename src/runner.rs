//! The runner: drives concrete cases through an adapter and hands what comes
//! back to the oracle. It decides nothing itself; every verdict comes from the
//! oracle's findings or from what the target did (refused, failed).

use serde::{Deserialize, Serialize};

use crate::catalogue::ConcreteCase;
use crate::level::ReaderLevel;
use crate::oracle::{CheckClass, Finding};
use crate::profile::TargetProfile;

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
    /// The target failed (crash, hang, protocol violation).
    Error {
        /// What went wrong.
        reason: String,
        /// The target's last stderr lines.
        stderr_tail: String,
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
    /// Not run: capability missing.
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
    /// The verdict at `level`, computed from the outcome and its findings.
    pub fn verdict_at(&self, level: ReaderLevel) -> Verdict {
        match &self.outcome {
            Outcome::Skipped { .. } => Verdict::Skipped,
            Outcome::Error { .. } => Verdict::Error,
            Outcome::Refused { acceptable, .. } => {
                if *acceptable {
                    Verdict::Refused
                } else {
                    Verdict::FidelityFail
                }
            }
            Outcome::Judged { findings } => {
                let security = findings
                    .iter()
                    .any(|f| f.class == CheckClass::Security && f.levels.contains(&level));
                if security {
                    Verdict::Fail
                } else if findings.iter().any(|f| f.class == CheckClass::Fidelity) {
                    Verdict::FidelityFail
                } else {
                    Verdict::Pass
                }
            }
        }
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

/// Facts about a run that every report states.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RunMeta {
    /// framecheck's version.
    pub framecheck_version: String,
    /// SHA-256 of the catalogue files.
    pub catalogue_hash: String,
    /// The target's profile.
    pub target: TargetProfile,
    /// The level the run's pass/fail was decided at.
    pub level: ReaderLevel,
    /// Start time, seconds since the Unix epoch.
    pub started_unix: u64,
    /// Wall time of the whole run, in milliseconds.
    pub duration_ms: u64,
    /// The `--only` filters, if any.
    pub filters: Vec<String>,
    /// Set when the target could not be calibrated or the run did not finish.
    pub harness_error: Option<String>,
}

/// A whole run: the input to every report.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RunResult {
    /// Run facts.
    pub meta: RunMeta,
    /// One result per concrete case, in catalogue order.
    pub results: Vec<CaseResult>,
}
