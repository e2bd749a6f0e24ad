//! Framings whose frame is a whole document (grammars `json-document` and
//! `python-document`).
//!
//! Such a framing writes no marker around the content, and its other values
//! may change with the content (a length, an id), so the run learns no
//! layout: it learns the document's lead text and structure from a plain
//! benign wrap ([`Document::learn`]) and judges every wrap case by how each
//! reader level reads the document the framing wrote for it
//! (`oracle::judge_document`). A profile a plain one-line wrap contradicts
//! (no string holding the content at the declared pointer) judges nothing
//! ([`Misfit`]).

use crate::adapter::{Framing, TargetError, WrapRequest};
use framecheck_core::catalogue::ConcreteCase;
use framecheck_core::grammar::json_document::{
    self, content_at, Document, DocumentError, DocumentFrame,
};
use framecheck_core::oracle::{self, Finding};
use framecheck_core::profile::ResolvedProfile;

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
/// which must come back as the string at the frame's pointer. Only that is
/// asked: a framing whose document breaks on other benign content (a line
/// break it writes raw) is judged for it case by case, not refused (issue
/// 57: a profile is refused only when the framing's every output
/// contradicts it). The second plain content's document, when it parses,
/// must have the same lead text: a lead that varies per call would read as
/// a changed lead on every case.
pub(crate) fn learn(framing: &mut dyn Framing, frame: &DocumentFrame) -> Result<Document, Failure> {
    let misfit = |e| Failure::Misfit(Misfit::Document(e));
    let (_, content) = PLAIN[0];
    let framed = wrap(framing, content)?;
    let document = Document::learn(frame, &framed, content).map_err(misfit)?;
    let (_, other) = PLAIN[1];
    let framed = wrap(framing, other)?;
    if let Ok((lead, _)) = content_at(frame.syntax, &framed, &frame.pointer) {
        if framed[..lead] != *document.lead() {
            return Err(misfit(DocumentError::LeadVaries {
                first: document.lead().into(),
                second: framed[..lead].into(),
            }));
        }
    }
    Ok(document)
}

/// What the framing writes for plain `content`.
fn wrap(framing: &mut dyn Framing, content: &str) -> Result<String, Failure> {
    let request = WrapRequest {
        content: content.into(),
        ..WrapRequest::default()
    };
    super::guarded(|| framing.wrap(&request)).map_err(Failure::Wrap)
}

/// Judges `framed`, the framing's document for `request`. When a reader
/// finds something, the framing is asked for the content's twin
/// ([`json_document::twin`]) too, so that what its document does for any
/// such content (a key only long content gets) is not called a breach; a
/// twin it fails to wrap is judged without.
pub(crate) fn judge(
    case: &ConcreteCase,
    profile: &ResolvedProfile,
    document: &Document,
    framing: &mut dyn Framing,
    request: &WrapRequest,
    framed: &str,
) -> Vec<Finding> {
    let findings = oracle::judge_document(case, profile, document, request, framed, None);
    let twin = json_document::twin(&request.content);
    if findings.is_empty() || twin == request.content {
        return findings;
    }
    let twin_request = WrapRequest {
        content: twin,
        ..request.clone()
    };
    match super::guarded(|| framing.wrap(&twin_request)) {
        Ok(twin) => oracle::judge_document(case, profile, document, request, framed, Some(&twin)),
        Err(_) => findings,
    }
}
