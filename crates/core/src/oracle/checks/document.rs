//! The checks on a framing whose frame is a whole document (grammars
//! `json-document` and `python-document`): what each reader level's reading
//! of the document ([`Document::read`]) found, as findings.
//!
//! A document that no longer parses, has another lead text, holds no
//! string at the content's pointer, or has another structure than a benign
//! one (and than the framing's document for the content's twin) is
//! `frame.shape`;
//! the content's canary anywhere but in its own string is
//! `canary.containment`. Both are security findings, at the levels whose
//! reader saw them. For a faithful case, the string a `JSON.parse` (or
//! `ast.literal_eval`) reader takes at the pointer must be the content
//! (`fidelity`).

use super::findings::Findings;
use super::{finish, levels};
use crate::catalogue::{ConcreteCase, Expectation, Field};
use crate::grammar::json_document::{Breach, Document};
use crate::oracle::{Check, Finding};
use crate::profile::ResolvedProfile;
use crate::target::WrapRequest;

/// Judges `framed`, the document the framing wrote for `request`, against
/// the benign `document`; `twin` is what it wrote for the content's twin
/// ([`crate::grammar::json_document::twin`]), when the runner asked. See
/// the module documentation.
pub fn judge_document(
    case: &ConcreteCase,
    profile: &ResolvedProfile,
    document: &Document,
    request: &WrapRequest,
    framed: &str,
    twin: Option<&str>,
) -> Vec<Finding> {
    let mut findings = Findings::default();
    let canary = if case.canary_fields.contains(&Field::Content) {
        case.canary.as_str()
    } else {
        ""
    };
    for level in levels(profile) {
        for breach in document.read(framed, level, canary, twin) {
            findings.security(check_of(&breach), level, breach.to_string(), None);
        }
    }
    if case.expect == Expectation::Faithful {
        match document.content_in(framed) {
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
        Breach::Unparsed { .. }
        | Breach::Lead
        | Breach::NoString
        | Breach::Structure { .. }
        | Breach::Item { .. } => Check::FrameShape,
        Breach::Canary { .. } => Check::CanaryContainment,
    }
}
