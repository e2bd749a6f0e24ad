//! A catalogue-blind framing behind bracket markers (issue 37): the
//! stacked-tricks defect of `super` on the `bracket-marker` grammar, with
//! its correct twin.
//!
//! ```text
//! [TOOL_OUTPUT]
//! CONTENT (every reading of TOOL_OUTPUT replaced by TOOL-OUTPUT)
//! [/TOOL_OUTPUT]
//! ```
//!
//! With [`Defect::Stacked`] the neutraliser tries one Unicode trick class
//! at a time, so a marker whose token is hidden by two at once (a
//! fullwidth letter and a zero-width splice) stays live; with
//! [`Defect::None`] it is the correct twin. The other defects of `super`
//! are written for the tag framing and are not used here.

use framecheck_launch::profile::TargetProfile;
use framecheck_run::adapter::{Framing, TargetError, WrapRequest};

use super::{defang_token, Defect};

/// The marker token.
const TOKEN: &str = "TOOL_OUTPUT";
/// What a reading of the token in the content becomes: another name.
const DEFANGED: &str = "TOOL-OUTPUT";

/// The framing's profile: bracket markers, no header, wrap only.
pub(crate) fn profile() -> TargetProfile {
    TargetProfile::parse(&format!(
        "name: blind-brackets\nadapter: {{ builtin: reference }}\n\
         delimiters: {{ grammar: bracket-marker, token: {TOKEN} }}\n\
         header: none\ncapabilities: [wrap]\n"
    ))
    .expect("the blind brackets profile parses")
}

/// `[TOOL_OUTPUT]` markers with one [`Defect`].
#[derive(Debug, Clone, Copy)]
pub(crate) struct Brackets(pub Defect);

impl Framing for Brackets {
    fn wrap(&mut self, request: &WrapRequest) -> Result<String, TargetError> {
        let content = defang_token(&request.content, self.0, TOKEN, DEFANGED);
        Ok(format!("[{TOKEN}]\n{content}\n[/{TOKEN}]"))
    }

    fn read(&mut self, _: &str) -> Result<Option<String>, TargetError> {
        Ok(None)
    }
}
