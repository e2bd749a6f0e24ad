//! Runs for readers that answer with segments (`reader.returns: segments`):
//! the benign structure is learned once from the calibration frame read
//! back, and every wrap's output is read back and judged against it by
//! `reader.structure`, since a parser consumer reads every frame the writer
//! produces, not only the roundtrip cases'.

use crate::adapter::{Framing, TargetError};
use framecheck_core::catalogue::ConcreteCase;
use framecheck_core::oracle::{self, Finding, Structure, StructureError};
use framecheck_core::target::{guarded, ReadAnswer, Segment, WrapRequest};
use framecheck_launch::outcome::Evidence;
use framecheck_launch::profile::{
    Capability, Consumer, ReaderReturns, ResolvedProfile, TargetProfile,
};

/// Why no benign structure was learned: every wrap's read-back is then an
/// error, never a pass.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub(crate) enum NoStructure {
    /// The calibration wrap failed.
    #[error("calibration wrap failed: {0}")]
    Wrap(TargetError),
    /// Reading the calibration frame back failed.
    #[error("calibration read failed: {0}")]
    Read(TargetError),
    /// The reader rejected the benign frame.
    #[error("the reader rejected the benign calibration frame")]
    Rejected,
    /// The reader answered a body where the profile declares segments.
    #[error("the profile declares reader.returns: segments but the reader answered with a body")]
    Body,
    /// The segments cannot serve as the structure.
    #[error("benign read-back unusable: {0}")]
    Unusable(StructureError),
}

/// A wrap's findings for each consumer of `profile`
/// ([`oracle::for_consumers`]), as a run and a search judge them: `judge`
/// judges the output for a profile naming one consumer. Where a segments
/// reader read the output back (`read_back`: its `reader.structure`
/// findings), an observed parser keeps only what its answer shows
/// ([`oracle::parser_answered`]), and the answer's findings are the
/// parser's when there are several consumers (one consumer owns them all).
pub(crate) fn wrap_findings(
    profile: &ResolvedProfile,
    mut judge: impl FnMut(&ResolvedProfile) -> Vec<Finding>,
    read_back: Option<&[Finding]>,
) -> Vec<Finding> {
    let several = profile.reader.consumers().len() > 1;
    oracle::for_consumers(profile, |p| {
        let wrap = judge(p);
        let Some(answer) = read_back else {
            return wrap;
        };
        let mut own = oracle::parser_answered(wrap, p);
        if !several || p.reader.consumer == Consumer::Parser {
            own.extend(answer.iter().cloned());
        }
        own
    })
}

/// The benign structure, learned when the profile declares a segments
/// reader (`None` otherwise): the calibration request wrapped and read back.
pub(crate) fn learn_structure(
    profile: &TargetProfile,
    framing: &mut dyn Framing,
) -> Option<Result<Structure, NoStructure>> {
    if profile.reader.returns != ReaderReturns::Segments || !profile.can(Capability::Read) {
        return None;
    }
    let request = oracle::calibration_request();
    Some(benign_structure(framing, &request))
}

fn benign_structure(
    framing: &mut dyn Framing,
    request: &WrapRequest,
) -> Result<Structure, NoStructure> {
    let framed = guarded(|| framing.wrap(request)).map_err(NoStructure::Wrap)?;
    match guarded(|| framing.read_answer(&framed)) {
        Ok(ReadAnswer::Segments(segments)) => {
            Structure::learn(&request.content, &segments).map_err(NoStructure::Unusable)
        }
        Ok(ReadAnswer::Rejected) => Err(NoStructure::Rejected),
        Ok(ReadAnswer::Body(_)) => Err(NoStructure::Body),
        Err(e) => Err(NoStructure::Read(e)),
    }
}

/// What reading a wrap's output back added: the findings of
/// `reader.structure` (or the error that stops the case), and the segments
/// as evidence.
pub(crate) enum ReadBack {
    /// Findings to add to the wrap's.
    Judged(Vec<Finding>),
    /// The read failed or could not be judged.
    Error(String),
}

/// Reads `framed` back and judges the segments against `structure`.
pub(crate) fn read_back(
    case: &ConcreteCase,
    structure: &Result<Structure, NoStructure>,
    framing: &mut dyn Framing,
    request: &WrapRequest,
    framed: &str,
    evidence: &mut Evidence,
) -> ReadBack {
    let structure = match structure {
        Ok(structure) => structure,
        Err(none) => return ReadBack::Error(none.to_string()),
    };
    match guarded(|| framing.read_answer(framed)) {
        Ok(ReadAnswer::Segments(segments)) => {
            evidence.read_body = Some(Some(rendered(&segments)));
            let findings =
                oracle::judge_structure(case, structure, &request.content, Some(&segments));
            ReadBack::Judged(findings)
        }
        // Refusing or rejecting a frame forges nothing: only a case that
        // expects its content back fails on it.
        Ok(ReadAnswer::Rejected) | Err(TargetError::Refused(_)) => {
            evidence.read_body = Some(None);
            ReadBack::Judged(oracle::judge_structure(
                case,
                structure,
                &request.content,
                None,
            ))
        }
        Ok(ReadAnswer::Body(_)) => ReadBack::Error(
            "the profile declares reader.returns: segments but the reader answered with a body"
                .into(),
        ),
        Err(error) => ReadBack::Error(error.to_string()),
    }
}

fn rendered(segments: &[Segment]) -> String {
    oracle::render_segments(segments).0
}
