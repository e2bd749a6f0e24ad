//! Does the profile fit its framing? Asked once, before any case is judged.
//!
//! A profile that its framing contradicts (the wrong token, a header the
//! framing does not write, an encoding it does not use) turns every case
//! into a finding about the profile, not about the framing: hundreds of
//! `frame.shape` failures, `benign-english-prose` among them. Such a run
//! proves nothing, so it judges nothing: the runner stops with one harness
//! error naming the first mismatch (issue 31).
//!
//! The profile fits when calibration learned a layout from it (the declared
//! grammar and token are live around the content, the declared header is
//! found), and when not every plain benign wrap, judged by the oracle
//! against that layout, raises a finding of a check that describes the
//! frame's shape.
//! Where calibration did not find the probe content at all (a framing that
//! rewrites ordinary text, or one whose encoding no profile describes),
//! the plain wraps are judged without a layout, as such runs judge every
//! case: content lost to a rewrite stays a case finding, an output the
//! profile cannot describe (content encoded twice) stops the run, unless
//! a layout learned from plain content fits where none did (text before
//! the frame, which the shape rule without a layout cannot place: the
//! runner's `fit_learned`). Fidelity
//! findings on plain wraps are the framing's own business (a framing that
//! rewrites prose), and stay case findings, except where the framing wrote
//! every one intact and the profile reads every one as lost (issue 57: a
//! header declared `none` that the framing writes).
//!
//! A run is refused only for what the profile says of every benign output
//! (issue 57, item 3): a plain wrap that does not fit the layout while
//! another does is an output of another shape (a framing whose frame
//! varies with the content in a way calibration could not learn), judged
//! with the cases, where each output of that shape fails the check this
//! one failed. A plain wrap the framing returns with no frame at all
//! (a framing that frames only longer content) is no misfit: it is judged
//! with the cases, as `frame.absent` on each case it happens to
//! (`varying`).

use std::fmt;
use std::path::PathBuf;

use super::plain::PLAIN;
use crate::adapter::{Framing, TargetError, WrapRequest};
use framecheck_core::catalogue::{
    Category, ConcreteCase, Expectation, Field, Input, Operation, RefusalPolicy, Severity,
    SourceLocation, Variant,
};
use framecheck_core::layout::{self, Layout, LayoutError};
use framecheck_core::level::ReaderLevel;
use framecheck_core::oracle::{self, Check};
use framecheck_launch::profile::{AdapterSpec, Capability, TargetProfile};

/// Why a profile does not fit its framing; the first mismatch found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Misfit {
    /// Calibration could not learn a layout under the profile.
    Calibration(LayoutError),
    /// A plain benign wrap does not fit the layout calibration learned.
    Benign {
        /// What the content was, in a few words.
        content: &'static str,
        /// The check that failed.
        check: Check,
        /// Its message.
        message: String,
    },
    /// Every plain benign wrap carried its content and provenance intact,
    /// and under the profile reads as losing one of them: the profile puts
    /// frame text where it says content or provenance is (a header the
    /// framing writes, declared `none`).
    Lost {
        /// The first such content, in a few words.
        content: &'static str,
        /// The fidelity finding under the profile.
        message: String,
    },
    /// The profile declares `delimiters: none`, and benign plants show
    /// otherwise.
    Unmarked(super::unmarked::Contradiction),
    /// The framing answers parts and the profile says one text, or the
    /// reverse, or the benign parts cannot be learned.
    Parts(super::parts::PartsMisfit),
    /// A benign wrap is not the document the profile declares
    /// (`json-document`, `python-document`): no string holding the content
    /// at its pointer, or a lead text that varies.
    Document(framecheck_core::grammar::json_document::DocumentError),
}

impl fmt::Display for Misfit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("the profile does not fit its framing, so no case was judged: ")?;
        match self {
            Misfit::Calibration(error) => write!(f, "calibration: {error}")?,
            Misfit::Benign {
                content,
                check,
                message,
            } => write!(
                f,
                "{content} wrapped by the framing fails {check} under the profile: {message}"
            )?,
            Misfit::Lost { content, message } => write!(
                f,
                "every plain benign content the framing framed ({content} first) comes back \
                 intact, yet under the profile it reads as lost: {message}; the profile \
                 misreads the frame (a header it declares `none`, perhaps)"
            )?,
            Misfit::Unmarked(contradiction) => write!(f, "{contradiction}")?,
            Misfit::Parts(misfit) => write!(f, "{misfit}")?,
            Misfit::Document(error) => write!(f, "a plain benign wrap: {error}")?,
        }
        Ok(())
    }
}

impl Misfit {
    /// The misfit and what to do about it for a profile with `adapter`:
    /// a profile file is checked and re-inferred by `init`; a profile
    /// handed over by the calling process (`builtin: caller`, the Python
    /// and Node helpers) has no file for `init` to read, and is inferred
    /// by leaving it out.
    pub fn explained(&self, adapter: &AdapterSpec) -> String {
        let remedy = if adapter.is_caller() {
            "Leave the profile out and the helper infers one that fits (as \
             `framecheck run --serve-stdio --infer NAME` does), printing it to keep"
        } else {
            "`framecheck init --check PROFILE` shows what the framing does instead; \
             `framecheck init PROFILE` proposes a profile that fits"
        };
        format!("{self}. {remedy}")
    }
}

/// Why calibration learned no layout: the target failed, or the profile
/// does not fit.
#[derive(Debug, Clone, thiserror::Error)]
pub enum CalibrationFailure {
    /// A calibration wrap failed (the target crashed, hung or refused).
    #[error("calibration wrap failed: {0}")]
    Wrap(TargetError),
    /// The wraps came back, and do not fit the profile.
    #[error("calibration: {0}")]
    Misfit(LayoutError),
}

/// Checks that say an output does not have the frame the profile
/// describes; a plain wrap failing one contradicts the profile. Not
/// `frame.outer-text`: text outside the frame that changes with the
/// content (a preamble that counts or quotes it) is the framing's defect,
/// judged with the cases.
const SHAPE_CHECKS: [Check; 3] = [
    Check::FrameShape,
    Check::DelimiterCensus,
    Check::CanaryContainment,
];

/// Checks the profile against the layout calibration learned (or failed to
/// learn). `Ok(())` when it fits, or when the failure is the target's own
/// (a wrap that failed is not a misfit; the runner reports it as it is).
pub(crate) fn check(
    profile: &TargetProfile,
    framing: &mut dyn Framing,
    layout: &Result<Layout, CalibrationFailure>,
    level: ReaderLevel,
) -> Result<(), Misfit> {
    let (layout, unfound) = match layout {
        Ok(layout) => (Some(layout), None),
        Err(CalibrationFailure::Wrap(_)) => return Ok(()),
        // The framing rewrote the probe content: a defect of its own
        // (line ends normalised, say) or an encoding no profile describes.
        // Plain content tells them apart, judged by the shape rule for
        // runs without a layout.
        Err(CalibrationFailure::Misfit(error @ LayoutError::ContentNotFound { .. })) => {
            (None, Some(error))
        }
        // The declared grammar, token or header is not what the framing
        // writes.
        Err(CalibrationFailure::Misfit(error)) => return Err(Misfit::Calibration(error.clone())),
    };
    let base = layout::probes(profile).requests()[0].clone();
    let mut misread = super::varying::Misread::default();
    let mut contradicted = Contradicted::default();
    for (content, text) in PLAIN {
        let request = WrapRequest {
            content: text.into(),
            ..base.clone()
        };
        // A plain wrap the target refuses or fails is judged with the cases.
        let Some(framed) =
            super::parts::plain_text(profile, framing, &request).map_err(Misfit::Parts)?
        else {
            continue;
        };
        // Content the framing returns with no frame at all is a finding on
        // that case, judged with the cases (`varying`): the framing frames
        // other content, which calibration learned.
        if super::varying::unframed(profile.frame.empty, &request, &framed) {
            continue;
        }
        // The content's first word is the case's canary: a profile whose
        // header or delimiters put it outside the content region is
        // contradicted by where the framing wrote it.
        let canary = text.split(' ').next().unwrap_or(text);
        let case = plain_case(request.clone(), canary);
        let findings = oracle::judge_wrap_in(&case, profile, layout, &request, &framed);
        misread.note(content, profile, &request, &framed, &findings);
        // A framing that writes the content twice (a preamble quoting its
        // first line) has the canary outside the content as well: that is
        // its own finding (`frame.outer-text`), judged with the cases.
        let quoted = framed.matches(canary).count() > 1;
        let misfit = findings.into_iter().find(|f| {
            SHAPE_CHECKS.contains(&f.check)
                && f.levels.contains(&level)
                && !(quoted && f.check == Check::CanaryContainment)
        });
        contradicted.note(misfit.map(|finding| Misfit::Benign {
            content,
            check: finding.check,
            message: match &unfound {
                Some(error) => format!("{} (and calibration: {error})", finding.message),
                None => finding.message,
            },
        }));
    }
    // The profile contradicts every benign output the framing framed (a
    // wrong token or grammar), or misreads every one (a header declared
    // absent that the framing writes): one such wrap among others is an
    // output of another shape, judged case by case.
    if let Some(misfit) = contradicted.every() {
        return Err(misfit);
    }
    match misread.every() {
        Some((content, message)) => Err(Misfit::Lost { content, message }),
        None => Ok(()),
    }
}

/// The plain benign wraps `check` judged, and the misfit of each one the
/// profile contradicts.
#[derive(Debug, Default)]
struct Contradicted {
    judged: usize,
    misfits: Vec<Misfit>,
}

impl Contradicted {
    /// Notes one judged plain wrap, and its misfit when it has one.
    fn note(&mut self, misfit: Option<Misfit>) {
        self.judged += 1;
        self.misfits.extend(misfit);
    }

    /// The first misfit, when every judged wrap (and at least one) had one.
    fn every(self) -> Option<Misfit> {
        match self.misfits.len() {
            n if n > 0 && n == self.judged => self.misfits.into_iter().next(),
            _ => None,
        }
    }
}

/// The plain wrap as a case, for the oracle: benign, content must be kept.
fn plain_case(request: WrapRequest, canary: &str) -> ConcreteCase {
    ConcreteCase {
        id: "profile-fit".into(),
        base_id: "profile-fit".into(),
        variant: Variant::Exact,
        category: Category::Benign,
        title: "plain benign content fits the profile".into(),
        why: "A profile the framing contradicts judges nothing (issue 31).".into(),
        references: Vec::new(),
        flags: Vec::new(),
        severity: Severity::Info,
        operation: Operation::Wrap,
        input: Input::Wrap(request),
        expect: Expectation::Faithful,
        refusal: RefusalPolicy::Allowed,
        min_level: ReaderLevel::Exact,
        canary: canary.into(),
        canary_fields: vec![Field::Content],
        requires: vec![Capability::Wrap],
        site: Default::default(),
        harvest: None,
        source: SourceLocation {
            file: PathBuf::from("<profile fit>"),
            line: 0,
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use framecheck_launch::profile::BuiltinTarget;

    /// A profile handed over by the calling process has no file for `init`
    /// to read: its misfit points to inference; a profile file's, to `init`.
    #[test]
    fn the_remedy_of_a_misfit_names_what_the_route_can_do() {
        let misfit = Misfit::Calibration(LayoutError::WrongCount {
            expected: 2,
            got: 1,
        });
        let caller = misfit.explained(&AdapterSpec::caller());
        assert!(caller.starts_with(&misfit.to_string()), "{caller}");
        assert!(caller.contains("Leave the profile out"), "{caller}");
        assert!(!caller.contains("init --check"), "{caller}");
        let reference = AdapterSpec::builtin(BuiltinTarget::Reference);
        let file = misfit.explained(&reference);
        assert!(file.contains("`framecheck init --check PROFILE`"), "{file}");
        assert!(!file.contains("Leave the profile out"), "{file}");
    }

    fn benign(content: &'static str) -> Misfit {
        Misfit::Benign {
            content,
            check: Check::FrameShape,
            message: "m".into(),
        }
    }

    /// Only a profile every judged plain wrap contradicts is refused, with
    /// the first contradiction; none judged refuses nothing.
    #[test]
    fn a_misfit_is_every_judged_wrap_contradicted() {
        let mut some = Contradicted::default();
        some.note(Some(benign("one")));
        some.note(None);
        assert_eq!(some.every(), None);
        let mut all = Contradicted::default();
        all.note(Some(benign("one")));
        all.note(Some(benign("two")));
        assert_eq!(all.every(), Some(benign("one")));
        assert_eq!(Contradicted::default().every(), None);
    }
}
