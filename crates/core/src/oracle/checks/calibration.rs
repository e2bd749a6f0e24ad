//! Calibration: the benign wrap the runner makes once per target, and where
//! the content sits in it.

use crate::profile::TargetProfile;
use crate::target::WrapRequest;

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

/// Locates `request.content` in `framed`, which must hold it exactly once.
///
/// The error says why the frame cannot serve as a calibration, naming the
/// target's profile.
pub fn calibrate(
    profile: &TargetProfile,
    request: &WrapRequest,
    framed: &str,
) -> Result<Calibration, String> {
    if request.content.is_empty() {
        return Err("the calibration content is empty".into());
    }
    let mut found = framed.match_indices(request.content.as_str());
    let Some((start, _)) = found.next() else {
        return Err(format!(
            "target {:?} did not reproduce the calibration content {:?} in its frame",
            profile.name, request.content
        ));
    };
    if found.next().is_some() {
        return Err(format!(
            "target {:?} wrote the calibration content {:?} more than once",
            profile.name, request.content
        ));
    }
    Ok(Calibration {
        framed: framed.to_string(),
        body_start: start,
        body_end: start + request.content.len(),
    })
}
