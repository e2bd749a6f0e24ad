//! The checks on a framing whose frame is a whole JSON document (grammar
//! `json-document`): what each reader level's reading of the document
//! ([`Document::read`]) found, as findings.
//!
//! A document that no longer parses, holds no string at the content's
//! pointer, or has another structure than a benign one is `frame.shape`;
//! the content's canary anywhere but in its own string is
//! `canary.containment`. Both are security findings, at the levels whose
//! reader saw them. For a faithful case, the string a `JSON.parse` reader
//! takes at the pointer must be the content (`fidelity`).

use super::findings::Findings;
use super::{finish, levels};
use crate::catalogue::{ConcreteCase, Expectation, Field};
use crate::grammar::json_document::{content_at, Breach, Document};
use crate::oracle::{Check, Finding};
use crate::profile::TargetProfile;
use crate::target::WrapRequest;

/// Judges `framed`, the document the framing wrote for `request`, against
/// the benign `document`. See the module documentation.
pub fn judge_document(
    case: &ConcreteCase,
    profile: &TargetProfile,
    document: &Document,
    request: &WrapRequest,
    framed: &str,
) -> Vec<Finding> {
    let mut findings = Findings::default();
    let canary = if case.canary_fields.contains(&Field::Content) {
        case.canary.as_str()
    } else {
        ""
    };
    for level in levels(profile) {
        for breach in document.read(framed, level, canary) {
            findings.security(check_of(&breach), level, breach.to_string(), None);
        }
    }
    if case.expect == Expectation::Faithful {
        match content_at(framed, document.pointer()) {
            Ok(found) if found == request.content => {}
            Ok(_) => findings.fidelity(
                Check::Fidelity,
                format!(
                    "the string at {} is not the content as it was planted",
                    document.pointer()
                ),
                None,
            ),
            // Already a security finding at the exact level.
            Err(_) => {}
        }
    }
    finish(findings, profile)
}

/// The check a breach fails.
fn check_of(breach: &Breach) -> Check {
    match breach {
        Breach::Unparsed { .. } | Breach::NoString | Breach::Structure { .. } => Check::FrameShape,
        Breach::Canary { .. } => Check::CanaryContainment,
    }
}
