//! What the selected tokenizer views found over a run, as every report
//! shows it: per view, where its data came from, how many framed outputs it
//! judged, and its findings, each naming its case. Views never touch a
//! case's findings or verdict.

use serde::{Deserialize, Serialize};

use crate::catalogue::Input;
use crate::oracle::{self, Check, ViewFinding};
use crate::outcome::{LayoutReport, Outcome, RunResult, SEVERAL_FRAMES_FLAG};
use crate::tokview::{DataSource, TokenizerView, ViewName};

/// One view over a whole run.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ViewReport {
    /// The view.
    pub view: ViewName,
    /// Its tokenizer data: package, version, file.
    pub data: DataSource,
    /// How many framed outputs it judged (one-frame wrap cases the target
    /// answered).
    pub judged: usize,
    /// Its findings, in case order.
    pub findings: Vec<ViewFinding>,
}

impl ViewReport {
    /// The number of distinct cases with a finding of `check`.
    pub fn cases_with(&self, check: Check) -> usize {
        let mut cases: Vec<&str> = self
            .findings
            .iter()
            .filter(|f| f.check == check)
            .map(|f| f.case.as_str())
            .collect();
        cases.dedup();
        cases.len()
    }
}

/// Judges every framed output of `run` in each of `views`.
pub fn judge_run<A>(run: &RunResult<A>, views: &[TokenizerView]) -> Vec<ViewReport> {
    let layout = match &run.meta.layout {
        Some(LayoutReport::Learned { layout, .. }) => Some(&**layout),
        _ => None,
    };
    let framed: Vec<(&str, &str)> = run
        .results
        .iter()
        .filter(|r| matches!(r.outcome, Outcome::Judged { .. }))
        .filter(|r| matches!(r.case.input, Input::Wrap(_)))
        // A wrap-many output holds the siblings' frames too, whose own
        // delimiters the one-frame rule would take for forged ones.
        .filter(|r| !r.case.flags.iter().any(|f| f == SEVERAL_FRAMES_FLAG))
        .filter_map(|r| Some((r.case.id.as_str(), r.evidence.framed.as_deref()?)))
        .collect();
    views
        .iter()
        .map(|view| {
            let findings = framed
                .iter()
                .flat_map(|&(case, text)| {
                    let target = &run.meta.target;
                    oracle::judge_tokenizer_view(view, target, layout, text)
                        .into_iter()
                        .map(move |f| ViewFinding {
                            case: case.to_string(),
                            ..f
                        })
                })
                .collect();
            ViewReport {
                view: view.name(),
                data: view.data().clone(),
                judged: framed.len(),
                findings,
            }
        })
        .collect()
}
