//! Calibration: the benign wrap the runner makes once per target, and where
//! the content sits in it.

use crate::profile::ResolvedProfile;
use crate::target::{TargetError, WrapRequest};

/// The benign request the runner wraps once per target to learn its frame.
pub fn calibration_request() -> WrapRequest {
    WrapRequest {
        content: "framecheck calibration content.".into(),
        kind: "tool-result".into(),
        attributes: [("source".to_string(), "calibration".to_string())]
            .into_iter()
            .collect(),
        provenance: "Calibration text written by framecheck.".into(),
    }
}

/// A target's frame around a known content, split where the content sits.
/// Read cases are assembled from its pieces.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Calibration {
    /// The whole framed text.
    pub framed: String,
    /// Byte offset where the content starts.
    pub body_start: usize,
    /// Byte offset where the content ends.
    pub body_end: usize,
}

impl Calibration {
    /// The frame up to where the content starts.
    pub fn head(&self) -> &str {
        &self.framed[..self.body_start]
    }

    /// The content as framed.
    pub fn body(&self) -> &str {
        &self.framed[self.body_start..self.body_end]
    }

    /// The frame after the content.
    pub fn tail(&self) -> &str {
        &self.framed[self.body_end..]
    }
}

/// Why a frame cannot serve as a calibration ([`calibrate`]), naming the
/// target's profile.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum FrameUnusable {
    /// The request had no content to find.
    #[error("the calibration content is empty")]
    EmptyContent,
    /// The frame does not hold the content as sent.
    #[error(
        "target {target:?} did not reproduce the calibration content {content:?} in its frame"
    )]
    NotReproduced {
        /// The profile's name.
        target: String,
        /// The calibration content.
        content: String,
    },
    /// The frame holds the content more than once: which is the body is
    /// not known.
    #[error("target {target:?} wrote the calibration content {content:?} more than once")]
    Repeated {
        /// The profile's name.
        target: String,
        /// The calibration content.
        content: String,
    },
}

/// Why a run has no calibration frame for the cases that quote the
/// target's own frame (read cases, harvested nonces).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum NoCalibration {
    /// The calibration wrap failed.
    #[error("calibration wrap failed: {0}")]
    Wrap(TargetError),
    /// The wrap came back, but cannot serve as a calibration.
    #[error("calibration frame unusable: {0}")]
    Unusable(FrameUnusable),
}

/// Locates `request.content` in `framed`, which must hold it exactly once.
///
/// The error says why the frame cannot serve as a calibration, naming the
/// target's profile.
pub fn calibrate(
    profile: &ResolvedProfile,
    request: &WrapRequest,
    framed: &str,
) -> Result<Calibration, FrameUnusable> {
    if request.content.is_empty() {
        return Err(FrameUnusable::EmptyContent);
    }
    let named = || (profile.name.clone(), request.content.clone());
    let mut found = framed.match_indices(request.content.as_str());
    let Some((start, _)) = found.next() else {
        let (target, content) = named();
        return Err(FrameUnusable::NotReproduced { target, content });
    };
    if found.next().is_some() {
        let (target, content) = named();
        return Err(FrameUnusable::Repeated { target, content });
    }
    Ok(Calibration {
        framed: framed.to_string(),
        body_start: start,
        body_end: start + request.content.len(),
    })
}
