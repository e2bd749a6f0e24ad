//! Framings whose frame is a whole JSON document (grammar `json-document`).
//!
//! Such a framing writes no marker around the content, and its other values
//! may change with the content (a length, an id), so the run learns no
//! layout: it learns the document's structure from a plain benign wrap
//! ([`Document::learn`]) and judges every wrap case by how each reader level
//! reads the document the framing wrote for it
//! (`oracle::judge_document`). A profile a plain one-line wrap contradicts
//! (no string holding the content at the declared pointer) judges nothing
//! ([`Misfit`]).

use crate::adapter::{Framing, TargetError, WrapRequest};
use framecheck_core::grammar::json_document::Document;

use super::fit::Misfit;
use super::plain::PLAIN;

/// Why a document framing could not be learned.
#[derive(Debug, Clone)]
pub(crate) enum Failure {
    /// A benign wrap failed (the target crashed, hung or refused it).
    Wrap(TargetError),
    /// The benign wraps contradict the profile.
    Misfit(Misfit),
}

/// Learns the framing's document from the first plain benign content,
/// which must come back as the string at `pointer`. Only that is asked: a
/// framing whose document breaks on other benign content (a line break it
/// writes raw) is judged for it case by case, not refused (issue 57: a
/// profile is refused only when the framing's every output contradicts it).
pub(crate) fn learn(framing: &mut dyn Framing, pointer: &str) -> Result<Document, Failure> {
    let (_, content) = PLAIN[0];
    let request = WrapRequest {
        content: content.into(),
        ..WrapRequest::default()
    };
    let framed = super::guarded(|| framing.wrap(&request)).map_err(Failure::Wrap)?;
    Document::learn(pointer, &framed, content).map_err(|e| Failure::Misfit(Misfit::Document(e)))
}
