//! Findings under construction: one per distinct (check, message), merged
//! across the reader levels that saw it.

use std::ops::Range;

use super::super::live::LiveEvidence;
use super::super::{Check, CheckClass, Excerpt, ExcerptSource, Finding};
use crate::level::ReaderLevel;
use crate::profile::ResolvedProfile;

/// Findings under construction: one per distinct (check, message), with the
/// levels that saw it accumulated and the strictest level's excerpt kept.
#[derive(Debug, Default)]
pub(super) struct Findings(pub(super) Vec<Finding>);

impl Findings {
    pub(super) fn add(
        &mut self,
        check: Check,
        class: CheckClass,
        level: Option<ReaderLevel>,
        message: String,
        excerpt: Option<Excerpt>,
    ) {
        let existing = self
            .0
            .iter_mut()
            .find(|f| f.check == check && f.message == message);
        let finding = match existing {
            Some(finding) => finding,
            None => {
                self.0.push(Finding {
                    consumer: Default::default(),
                    check,
                    class,
                    levels: Vec::new(),
                    message,
                    excerpt,
                    in_context: false,
                    fault: None,
                    live: None,
                });
                self.0.last_mut().expect("just pushed")
            }
        };
        if let Some(level) = level {
            if !finding.levels.contains(&level) {
                finding.levels.push(level);
                finding.levels.sort();
            }
        }
    }

    pub(super) fn security(
        &mut self,
        check: Check,
        level: ReaderLevel,
        message: String,
        excerpt: Option<Excerpt>,
    ) {
        self.add(check, CheckClass::Security, Some(level), message, excerpt);
    }

    /// A security failure about the delimiter `live` the check found live:
    /// the finding keeps it with its excerpt, from the first level that
    /// saw it (levels are judged lowest first).
    pub(super) fn security_live(
        &mut self,
        check: Check,
        message: String,
        excerpt: Option<Excerpt>,
        live: LiveEvidence,
    ) {
        let count = self.0.len();
        self.add(
            check,
            CheckClass::Security,
            Some(live.level),
            message,
            excerpt,
        );
        if self.0.len() > count {
            if let Some(finding) = self.0.last_mut() {
                finding.live = Some(live);
            }
        }
    }

    /// A security failure that does not depend on how the reader folds text.
    pub(super) fn security_everywhere(
        &mut self,
        check: Check,
        message: String,
        excerpt: Option<Excerpt>,
    ) {
        for level in ReaderLevel::ALL {
            self.security(check, level, message.clone(), excerpt.clone());
        }
    }

    pub(super) fn fidelity(&mut self, check: Check, message: String, excerpt: Option<Excerpt>) {
        self.add(check, CheckClass::Fidelity, None, message, excerpt);
    }
}

pub(super) fn framed_excerpt(framed: &str, span: Range<usize>) -> Option<Excerpt> {
    Some(Excerpt::cut(
        ExcerptSource::Framed,
        framed,
        span.start,
        span.end,
    ))
}

pub(super) fn token_name(profile: &ResolvedProfile, index: usize) -> String {
    profile.delimiters.all_tokens()[index].to_string()
}
