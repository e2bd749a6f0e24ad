//! Runs for framings whose wrap answers a list of parts (`wrap.returns:
//! parts`): the benign parts are learned once from benign plants, every
//! other stage sees the content's part as the framed text (so the layout is
//! learned, and the frame checks judge, within that part), and each wrap
//! case's parts are judged against the benign ones by `parts.structure`.
//! A profile that says otherwise than the framing answers is a misfit.

use std::fmt;

use crate::adapter::{Framing, TargetError};
use framecheck_core::layout;
use framecheck_core::oracle::{self, Finding, PartsError, PartsStructure};
use framecheck_core::target::{
    guarded, Part, Patience, ReadAnswer, ServerIdentity, WrapAnswer, WrapRequest,
};
use framecheck_launch::outcome::Evidence;
use framecheck_launch::profile::{TargetProfile, WrapReturns};

/// How the parts a framing answers contradict its profile.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PartsMisfit {
    /// The profile declares `wrap.returns: parts`; the framing answered one
    /// text.
    Text,
    /// The framing answered parts; the profile does not declare them.
    Undeclared(usize),
    /// The benign parts could not be learned.
    Learn(PartsError),
    /// The profile declares `wrap.returns: parts`; the framing's
    /// `wrap-many` answered one text.
    ManyText,
    /// The framing's `wrap-many` answered parts; the profile does not
    /// declare them.
    ManyUndeclared(usize),
}

impl fmt::Display for PartsMisfit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PartsMisfit::Text => f.write_str(
                "the profile declares wrap.returns: parts, and the framing's wrap answered one text",
            ),
            PartsMisfit::Undeclared(n) => write!(
                f,
                "the framing's wrap answered {n} parts, and the profile does not declare \
                 wrap.returns: parts"
            ),
            PartsMisfit::Learn(error) => write!(f, "parts: {error}"),
            PartsMisfit::ManyText => f.write_str(
                "the profile declares wrap.returns: parts, and the framing's wrap-many answered \
                 one text",
            ),
            PartsMisfit::ManyUndeclared(n) => write!(
                f,
                "the framing's wrap-many answered {n} parts, and the profile does not declare \
                 wrap.returns: parts"
            ),
        }
    }
}

/// Why the benign parts were not learned.
#[derive(Debug, Clone)]
pub(crate) enum PartsFailure {
    /// A benign wrap failed (the target's own failure, reported as such).
    Wrap(TargetError),
    /// The framing's answers contradict the profile.
    Misfit(PartsMisfit),
}

/// The benign parts, learned when the profile declares them (`None`
/// otherwise): the layout probes and the calibration request, wrapped.
pub(crate) fn learn(
    profile: &TargetProfile,
    framing: &mut dyn Framing,
) -> Option<Result<PartsStructure, PartsFailure>> {
    if profile.wrap.returns != WrapReturns::Parts {
        return None;
    }
    let probes = layout::probes(profile);
    let calibration = oracle::calibration_request();
    // The calibration content is a word only it holds, whole.
    let mut plants: Vec<(&WrapRequest, &str)> =
        probes.requests().iter().map(|r| (r, marker(r))).collect();
    plants.push((&calibration, calibration.content.as_str()));
    let mut answers = Vec::with_capacity(plants.len());
    for (request, marker) in plants {
        match guarded(|| framing.wrap_answer(request)) {
            Ok(WrapAnswer::Parts(parts)) => answers.push((marker, parts)),
            Ok(WrapAnswer::Text(_)) => return Some(Err(PartsFailure::Misfit(PartsMisfit::Text))),
            Err(error) => return Some(Err(PartsFailure::Wrap(error))),
        }
    }
    let samples: Vec<(&str, &[Part])> = answers.iter().map(|(m, p)| (*m, p.as_slice())).collect();
    Some(PartsStructure::learn(&samples).map_err(|e| PartsFailure::Misfit(PartsMisfit::Learn(e))))
}

/// A word only a layout probe's content holds, whatever the frame
/// escapes: its start marker.
pub(crate) fn marker(probe: &WrapRequest) -> &str {
    probe.content.split(' ').next().unwrap_or(&probe.content)
}

/// A `wrap-many` call's answer, of the kind the profile declares (the
/// several-frames path judges either). An answer of the other kind is
/// the misfit, as a failure of the call.
pub(crate) fn wrap_many(
    profile: &TargetProfile,
    framing: &mut dyn Framing,
    items: &[WrapRequest],
) -> Result<WrapAnswer, TargetError> {
    let declared = profile.wrap.returns == WrapReturns::Parts;
    match (guarded(|| framing.wrap_many_answer(items))?, declared) {
        (answer @ WrapAnswer::Text(_), false) | (answer @ WrapAnswer::Parts(_), true) => Ok(answer),
        (WrapAnswer::Text(_), true) => Err(TargetError::failed(PartsMisfit::ManyText.to_string())),
        (WrapAnswer::Parts(parts), false) => Err(TargetError::failed(
            PartsMisfit::ManyUndeclared(parts.len()).to_string(),
        )),
    }
}

/// A plain benign wrap's text for the profile-fit check: the content's
/// part for a profile declaring parts (`framing` is then a
/// [`PartsFraming`]), else the one text, and a misfit when the framing
/// answers parts the profile does not declare. `Ok(None)`: the wrap failed.
pub(crate) fn plain_text(
    profile: &TargetProfile,
    framing: &mut dyn Framing,
    request: &WrapRequest,
) -> Result<Option<String>, PartsMisfit> {
    if profile.wrap.returns == WrapReturns::Parts {
        return Ok(guarded(|| framing.wrap(request)).ok());
    }
    match guarded(|| framing.wrap_answer(request)) {
        Ok(WrapAnswer::Text(text)) => Ok(Some(text)),
        Ok(WrapAnswer::Parts(parts)) => Err(PartsMisfit::Undeclared(parts.len())),
        Err(_) => Ok(None),
    }
}

/// A case's wrap: the framed text the frame checks judge and, for a
/// framing answering parts, `parts.structure`'s findings (the parts kept
/// as evidence).
pub(crate) fn wrap_case(
    framing: &mut dyn Framing,
    structure: Option<&PartsStructure>,
    request: &WrapRequest,
    evidence: &mut Evidence,
) -> Result<(String, Vec<Finding>), TargetError> {
    let Some(structure) = structure else {
        return guarded(|| framing.wrap(request)).map(|framed| (framed, Vec::new()));
    };
    match guarded(|| framing.wrap_answer(request))? {
        WrapAnswer::Parts(parts) => {
            evidence.parts = Some(oracle::render_parts(&parts).0);
            let findings = oracle::judge_parts(structure, &request.content, &parts);
            Ok((structure.content_text(&parts), findings))
        }
        WrapAnswer::Text(_) => Err(answered_text()),
    }
}

fn answered_text() -> TargetError {
    TargetError::failed(PartsMisfit::Text.to_string())
}

/// `framing` as every stage sees it: through the benign `structure` when
/// the framing answers parts, as itself otherwise. Search holds its
/// target this way, for the first job and every other one.
pub(crate) fn view<'a>(
    framing: Box<dyn Framing + 'a>,
    structure: Option<&PartsStructure>,
) -> Box<dyn Framing + 'a> {
    match structure {
        Some(structure) => Box::new(PartsFraming::new(framing, structure.clone())),
        None => framing,
    }
}

/// The framing as every stage but the case's own wrap sees it: `wrap`
/// answers the content's part (every part joined when there are more or
/// fewer than a benign wrap answers), `wrap_answer` the parts themselves.
pub(crate) struct PartsFraming<F: Framing> {
    inner: F,
    structure: PartsStructure,
}

impl<F: Framing> PartsFraming<F> {
    /// `inner`, seen through the benign `structure`.
    pub(crate) fn new(inner: F, structure: PartsStructure) -> Self {
        PartsFraming { inner, structure }
    }
}

impl<F: Framing> Framing for PartsFraming<F> {
    fn wrap(&mut self, request: &WrapRequest) -> Result<String, TargetError> {
        match self.inner.wrap_answer(request)? {
            WrapAnswer::Parts(parts) => Ok(self.structure.content_text(&parts)),
            WrapAnswer::Text(_) => Err(answered_text()),
        }
    }
    fn wrap_answer(&mut self, request: &WrapRequest) -> Result<WrapAnswer, TargetError> {
        self.inner.wrap_answer(request)
    }
    fn read(&mut self, text: &str) -> Result<Option<String>, TargetError> {
        self.inner.read(text)
    }
    fn read_answer(&mut self, text: &str) -> Result<ReadAnswer, TargetError> {
        self.inner.read_answer(text)
    }
    fn wrap_many(&mut self, items: &[WrapRequest]) -> Result<String, TargetError> {
        self.inner.wrap_many(items)
    }
    fn wrap_many_answer(&mut self, items: &[WrapRequest]) -> Result<WrapAnswer, TargetError> {
        self.inner.wrap_many_answer(items)
    }
    fn restart(&mut self) {
        self.inner.restart()
    }
    fn set_patience(&mut self, patience: Patience) {
        self.inner.set_patience(patience)
    }
    fn server(&self) -> Option<ServerIdentity> {
        self.inner.server()
    }
}
