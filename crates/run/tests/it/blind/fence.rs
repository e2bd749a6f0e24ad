//! A catalogue-blind Markdown fence (issue 37): the fence is lengthened
//! past the longest backtick run in the content, as a careful fence
//! framing does, but the defective twin measures runs one trick at a time.
//!
//! ````text
//! ```untrusted-text      (one backtick more than the longest run, at least three)
//! CONTENT
//! ```
//! ````
//!
//! With [`Defect::Stacked`] the run length is the larger of two counts:
//! ASCII backticks with invisible characters skipped, and every character
//! a Unicode reader takes for a backtick with invisible characters
//! breaking the run. A run of fullwidth backticks split by a zero-width
//! space is short in both, so the fence stays shorter than it and the run
//! closes the frame; each trick alone is counted. With [`Defect::None`]
//! the count is the reader's own (invisible characters skipped, every
//! backtick spelling counted): the correct twin.

use framecheck_core::level::{self, ReaderLevel};
use framecheck_launch::profile::TargetProfile;
use framecheck_run::adapter::{Framing, TargetError, WrapRequest};

use super::Defect;

/// The fence's info string.
const INFO: &str = "untrusted-text";

/// The framing's profile: a backtick fence, no header, wrap only.
pub(crate) fn profile() -> TargetProfile {
    TargetProfile::parse(&format!(
        "name: blind-fence\nadapter: {{ builtin: reference }}\n\
         delimiters: {{ grammar: fence, token: {INFO} }}\n\
         header: none\ncapabilities: [wrap]\n"
    ))
    .expect("the blind fence profile parses")
}

/// How one character counts toward a backtick run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Step {
    /// It extends the run.
    Extend,
    /// It is skipped: the run goes on after it.
    Skip,
    /// It ends the run.
    Break,
}

/// The longest run of `content`, each character counted by `step`.
fn longest_run(content: &str, step: impl Fn(char) -> Step) -> usize {
    let (mut longest, mut run) = (0, 0);
    for c in content.chars() {
        match step(c) {
            Step::Extend => run += 1,
            Step::Skip => {}
            Step::Break => run = 0,
        }
        longest = longest.max(run);
    }
    longest
}

/// What a Unicode reader makes of `c`: nothing (invisible), a backtick,
/// or anything else.
fn read(c: char) -> Step {
    let folded = level::fold_char(c, ReaderLevel::Unicode);
    match folded.as_str() {
        "" => Step::Skip,
        "`" => Step::Extend,
        _ => Step::Break,
    }
}

/// The run a fence must outgrow, as the framing with `defect` counts it.
pub(crate) fn counted_run(content: &str, defect: Defect) -> usize {
    match defect {
        Defect::Stacked => {
            let ascii_past_invisibles = longest_run(content, |c| match (c, read(c)) {
                ('`', _) => Step::Extend,
                (_, Step::Skip) => Step::Skip,
                _ => Step::Break,
            });
            let spellings_only = longest_run(content, |c| match read(c) {
                Step::Skip => Step::Break,
                step => step,
            });
            ascii_past_invisibles.max(spellings_only)
        }
        _ => longest_run(content, read),
    }
}

/// A backtick fence with one [`Defect`] (only `Stacked` and `None`).
#[derive(Debug, Clone, Copy)]
pub(crate) struct Fence(pub Defect);

impl Framing for Fence {
    fn wrap(&mut self, request: &WrapRequest) -> Result<String, TargetError> {
        let length = (counted_run(&request.content, self.0) + 1).max(3);
        let fence = "`".repeat(length);
        Ok(format!("{fence}{INFO}\n{}\n{fence}", request.content))
    }

    fn read(&mut self, _: &str) -> Result<Option<String>, TargetError> {
        Ok(None)
    }
}
