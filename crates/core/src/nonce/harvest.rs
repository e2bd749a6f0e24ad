//! Values harvested from an earlier frame, for catalogue cases and search
//! mutants that write a marker an attacker copied from a frame they saw
//! (nonce modes `replayed`, `near-miss`, `extra-attribute` and
//! `reordered-attributes`, `crate::catalogue::nonce`).
//!
//! The instantiator cannot know a value the target has not written yet,
//! so it renders a stand-in ([`Harvest::stand_in`]); before the case runs,
//! [`resolve`] reads the nonce of an earlier benign wrap by the same target
//! (the calibration frame, as the `nonce-replay` probe reads its first
//! sample, with [`crate::oracle::frame_nonce`]) and writes it in the
//! stand-in's place, so the report shows the input as it was sent. A case
//! that replays the value as it was is also judged by `nonce.replay`
//! ([`judge`], the probe's check).

use crate::catalogue::{ConcreteCase, Harvest, Input, NonceMode};
use crate::layout::Layout;
use crate::oracle::{self, Calibration, NoCalibration};
use crate::outcome::Outcome;
use crate::profile::ResolvedProfile;
use crate::target::WrapRequest;

/// Why a case that writes an earlier frame's nonce cannot be run.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum HarvestError {
    /// The earlier frame (the calibration) failed.
    #[error(transparent)]
    NoFrame(NoCalibration),
    /// The target has no earlier frame: it cannot wrap.
    #[error("the case needs an earlier frame, but the target cannot wrap")]
    CannotWrap,
    /// The earlier frame has no nonce of the declared shape.
    #[error("no nonce of the declared shape to harvest from the earlier frame {0:?}")]
    NoNonce(String),
}

/// `case` with its stand-in value replaced by the nonce of `earlier` (a
/// frame the target wrote before), changed in its last character for
/// [`NonceMode::NearMiss`]. `None` for a case without a harvest, which runs
/// as it is (and is not copied: a large case is held once). An error says
/// why no value could be harvested; the case is then an error, never a
/// pass.
pub fn resolve(
    case: &ConcreteCase,
    profile: &ResolvedProfile,
    earlier: Option<&Result<Calibration, NoCalibration>>,
) -> Result<Option<ConcreteCase>, HarvestError> {
    // A case the target cannot run is skipped by the runner: nothing to harvest.
    let runnable = case.requires.iter().all(|c| profile.can(*c));
    if case.harvest.is_none() || !runnable {
        return Ok(None);
    }
    let framed = match earlier {
        Some(Ok(calibration)) => &calibration.framed,
        Some(Err(failed)) => return Err(HarvestError::NoFrame(failed.clone())),
        None => return Err(HarvestError::CannotWrap),
    };
    resolve_from(case, profile, framed).map(Some)
}

/// [`resolve`] with `framed` as the earlier frame (search harvests its
/// own, from a benign wrap at its start).
pub fn resolve_from(
    case: &ConcreteCase,
    profile: &ResolvedProfile,
    framed: &str,
) -> Result<ConcreteCase, HarvestError> {
    let Some(harvest) = &case.harvest else {
        return Ok(case.clone());
    };
    let value = harvested_value(profile, harvest, framed)?;
    let mut resolved = case.clone();
    if let Input::Wrap(request) = &mut resolved.input {
        *request = substitute(request, &harvest.stand_in, &value);
    }
    Ok(resolved)
}

/// The value a harvesting mode writes, read from `framed`.
pub fn harvested_value(
    profile: &ResolvedProfile,
    harvest: &Harvest,
    framed: &str,
) -> Result<String, HarvestError> {
    let value = oracle::frame_nonce(profile, framed)
        .ok_or_else(|| HarvestError::NoNonce(framed.to_string()))?;
    Ok(match harvest.mode {
        NonceMode::NearMiss => super::other_value(&value),
        _ => value,
    })
}

/// `request` with every `stand_in` replaced by `value`, in every field.
pub fn substitute(request: &WrapRequest, stand_in: &str, value: &str) -> WrapRequest {
    let swap = |text: &str| text.replace(stand_in, value);
    WrapRequest {
        content: swap(&request.content),
        kind: swap(&request.kind),
        attributes: request
            .attributes
            .iter()
            .map(|(k, v)| (swap(k), swap(v)))
            .collect(),
        provenance: swap(&request.provenance),
    }
}

/// Adds `nonce.replay` findings to a judged `outcome` of a case that
/// replays an earlier frame's value as it was: a live marker with the
/// frame's own value means the value was reused.
pub fn judge(
    case: &ConcreteCase,
    profile: &ResolvedProfile,
    layout: Option<&Layout>,
    framed: Option<&str>,
    outcome: &mut Outcome,
) {
    let (Some(harvest), Some(framed), Outcome::Judged { findings }) =
        (&case.harvest, framed, outcome)
    else {
        return;
    };
    if !harvest.mode.replays() {
        return;
    }
    let planted = format!("a {} marker", harvest.mode);
    // The replay is judged once, on the frame as written.
    let replayed = oracle::judge_replay_in(profile, layout, framed, &planted);
    findings.extend(oracle::as_written(profile, replayed));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_stand_in_is_replaced_in_every_field() {
        let request = WrapRequest {
            content: "a </t-0123> b".into(),
            kind: "k0123".into(),
            attributes: [("x0123".to_string(), "0123".to_string())].into(),
            provenance: "p".into(),
        };
        let out = substitute(&request, "0123", "beef");
        assert_eq!(out.content, "a </t-beef> b");
        assert_eq!(out.kind, "kbeef");
        assert_eq!(out.attributes["xbeef"], "beef");
        assert_eq!(out.provenance, "p");
    }
}
