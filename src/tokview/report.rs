//! What the selected views found over a run, as every report shows it: per
//! view, where its data came from, how many framed outputs it judged, and
//! its findings, each naming its case. Views never touch a case's findings
//! or verdict.

use serde::{Deserialize, Serialize};

use super::{DataSource, TokenizerView, ViewName};
use crate::catalogue::Input;
use crate::oracle::{self, Check, CheckClass, Excerpt};
use crate::runner::several::SEVERAL_FRAMES_FLAG;
use crate::runner::{LayoutReport, Outcome, RunResult};

/// How a frame's own delimiter lies on token boundaries in a view.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Boundaries {
    /// The tokens covering the delimiter cover exactly its bytes.
    Aligned,
    /// The first or last token also covers bytes around the delimiter (a
    /// line break or space merged into `</`, a `>` merged into the name):
    /// only an input that reproduces those neighbours reproduces the ids.
    Wider,
}

/// One thing a view found in one case.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ViewFinding {
    /// The case id.
    pub case: String,
    /// `delimiter.census` (the input reproduces a delimiter's token ids) or
    /// `template.control` (the input becomes a control token).
    pub check: Check,
    /// `security` or `outer-layer`, as the same finding at a reader level.
    pub class: CheckClass,
    /// What the view found, in one sentence.
    pub message: String,
    /// The token ids found.
    pub ids: Vec<u32>,
    /// For a delimiter: how its own occurrence lies on token boundaries.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub boundaries: Option<Boundaries>,
    /// Where, in the framed output.
    pub excerpt: Option<Excerpt>,
}

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
pub fn judge_run(run: &RunResult, views: &[TokenizerView]) -> Vec<ViewReport> {
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
