//! A catalogue-blind framing of open-only sections (issue 37): Markdown
//! heading sections, where the content's section ends at the next heading
//! of a declared section, with the stacked-tricks defect of `super`.
//!
//! ```text
//! ### Task
//! Summarise the document.
//!
//! ### Document
//! CONTENT (every line that reads as a heading of Task, Document or Summary escaped with `\`)
//!
//! ### Summary
//! ```
//!
//! A section has no closer to neutralise: any marker-shaped line in the
//! content ends it, so the defanger escapes marker lines. It finds them as
//! a Unicode reader does (framecheck's own `section` grammar over the
//! content folded at `unicode`, so every line break that reader honours
//! starts a line) and classifies what hides each one, from its line's
//! start to its end: invisible characters, NFKC forms, other lookalikes
//! ([`super::tricks`]). With [`Defect::Stacked`] it undoes one class at a
//! time, as a defanger that tries a list of normalisations on each line
//! does, so a marker line hidden by two at once (a zero-width space in a
//! fullwidth `＃＃＃`; a no-break space before `Dоcument` with a Cyrillic
//! `о`) stays live; each class alone is escaped, after any line break.
//! With [`Defect::None`] every marker line is escaped: the correct twin.
//! The other defects of `super` are written for the tag framing and are
//! not used here.
//!
//! A line break is not a class of its own: the catalogue already crosses
//! each Unicode line break before a marker with each one-trick spelling
//! (`ws-line-separator-before-close~cyrillic`), so a defanger that left
//! that pair live fails those cases: it would not be blind.

use std::sync::OnceLock;

use framecheck_core::grammar::Grammar;
use framecheck_core::level::ReaderLevel;
use framecheck_core::reader::Reader;
use framecheck_launch::profile::TargetProfile;
use framecheck_run::adapter::{Framing, TargetError, WrapRequest};

use super::{tricks, Defect};

/// The framing's profile: heading sections, the content's named
/// `Document`, the task before it and the summary after it reserved.
pub(crate) fn profile() -> TargetProfile {
    TargetProfile::parse(
        "name: blind-section\nadapter: { builtin: reference }\n\
         delimiters: { grammar: section, marker: heading, token: Document, \
         reserved: [Task, Summary] }\n\
         header: none\ncapabilities: [wrap]\n",
    )
    .expect("the blind section profile parses")
}

/// The profile's grammar, built once: the defanger asks it for every
/// request.
fn grammar() -> &'static dyn Grammar {
    static GRAMMAR: OnceLock<std::sync::Arc<dyn Grammar>> = OnceLock::new();
    GRAMMAR.get_or_init(|| profile().grammar()).as_ref()
}

/// Escapes, with a backslash before it, every marker line of `content` a
/// Unicode reader sees, except those `defect` skips.
pub(crate) fn escape(content: &str, defect: Defect) -> String {
    let reader = Reader::new(ReaderLevel::Unicode);
    let lines = reader.lines(content);
    let mut out = String::with_capacity(content.len() + 8);
    let mut copied = 0;
    for marker in grammar().live(&reader.fold(content)) {
        let line = lines
            .iter()
            .rev()
            .find(|line| line.start <= marker.start)
            .map_or(0, |line| line.start);
        if defect == Defect::Stacked && tricks(&content[line..marker.end]).len() >= 2 {
            continue;
        }
        out.push_str(&content[copied..marker.start]);
        out.push('\\');
        copied = marker.start;
    }
    out.push_str(&content[copied..]);
    out
}

/// Heading sections with one [`Defect`] (only `Stacked` and `None`).
#[derive(Debug, Clone, Copy)]
pub(crate) struct Sections(pub Defect);

impl Framing for Sections {
    fn wrap(&mut self, request: &WrapRequest) -> Result<String, TargetError> {
        let body = escape(&request.content, self.0);
        Ok(format!(
            "### Task\nSummarise the document.\n\n### Document\n{body}\n\n### Summary\n"
        ))
    }

    fn read(&mut self, _: &str) -> Result<Option<String>, TargetError> {
        Ok(None)
    }
}
