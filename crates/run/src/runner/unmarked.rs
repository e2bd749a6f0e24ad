//! Framings that put no marker around the content (`delimiters: none`).
//!
//! Many MCP servers hand a file or a page back as it is, or after one
//! constant sentence: nothing tells the content from the text around it,
//! so there is no frame for a catalogue case to break, and running the
//! catalogue would judge placeholder delimiters. A profile says so with
//! `delimiters: none`; the run then judges one thing, from benign plants,
//! and nothing else:
//!
//! - the plants come back as a constant preamble (possibly empty) followed
//!   by the content, and nothing after it: one `frame.absent` finding at
//!   every level, with a plant and what came back as its evidence; no
//!   level holds. Its class is security, except for an MCP server
//!   ([`Delivery::HostMessage`]): the host hands a tool result to the
//!   model in its own tool-result message, so the server relies on the
//!   host's framing, which is class `host-framed`, not a breakout;
//! - anything else contradicts the profile, as a declared frame the
//!   framing does not write does (issue 31): a frame learned from two
//!   wraps of one request (the `init` inference), text after the content,
//!   a preamble that changes with the content, content rewritten. Such a
//!   run judges nothing and says why ([`Misfit::Unmarked`](super::Misfit::Unmarked)).
//!
//! One label before the content and nothing after it (`Echo: …`, the
//! reference "everything" server's echo tool) is such a constant preamble,
//! not a section frame: with no other section in the output there is no
//! marker for content to forge, and no end for it to break out of
//! ([`frame_of`], which `init` asks too).
//!
//! The verdict is [`judge`]'s, a pure function of the plants and outputs,
//! so a report's evidence replays through it.

use std::fmt;
use std::path::PathBuf;

use crate::adapter::{Framing, TargetError, WrapRequest};
use framecheck_core::catalogue::{
    AttackSite, Category, ConcreteCase, Expectation, Field, Input, Operation, RefusalPolicy,
    Severity, SourceLocation, Variant,
};
use framecheck_core::layout;
use framecheck_core::layout::infer::{InferError, Inferred};
use framecheck_core::level::ReaderLevel;
use framecheck_core::oracle::{Check, CheckClass, Excerpt, ExcerptSource, Finding};
use framecheck_core::outcome::{CaseResult, Evidence, Outcome};
use framecheck_core::profile::Capability;

use super::plain::PLAIN;

/// The id of the one case an unmarked run reports.
pub const CASE_ID: &str = "frame-absent";

/// Why a framing declared unmarked is not: the first thing the benign
/// plants showed against it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Contradiction {
    /// Two wraps of one request show delimiters around the content (the
    /// inference `framecheck init` proposes profiles from).
    Framed {
        /// The inferred grammar's name.
        grammar: &'static str,
        /// The inferred outer token.
        token: String,
    },
    /// The content does not come back as it was planted.
    ContentNotFound {
        /// What the framing returned.
        output: String,
    },
    /// The framing writes text after the content: a closer, perhaps.
    TextAfter {
        /// The text after the content.
        tail: String,
    },
    /// The text before the content is not the same for every plant.
    PreambleVaries {
        /// The first plant's preamble.
        first: String,
        /// The preamble that differs.
        other: String,
    },
}

impl fmt::Display for Contradiction {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Contradiction::Framed { grammar, token } => write!(
                f,
                "the profile declares `delimiters: none`, but the framing's output shows a \
                 frame ({grammar} delimiters, token {token:?})"
            ),
            Contradiction::ContentNotFound { output } => write!(
                f,
                "the profile declares `delimiters: none`, but a benign plant did not come \
                 back as it was planted (the output is {output:?})"
            ),
            Contradiction::TextAfter { tail } => write!(
                f,
                "the profile declares `delimiters: none`, but the framing writes {tail:?} \
                 after the content: declare that marker as delimiters"
            ),
            Contradiction::PreambleVaries { first, other } => write!(
                f,
                "the profile declares `delimiters: none`, but the text before the content \
                 changes with it ({first:?}, then {other:?})"
            ),
        }
    }
}

/// What benign plants showed of an unmarked framing: one plant, what came
/// back, and the constant text before the content.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Unmarked {
    /// The plant the evidence shows.
    pub request: WrapRequest,
    /// What the framing returned for it.
    pub framed: String,
    /// The constant text before the content (empty: the output is the
    /// content).
    pub preamble: String,
}

/// The verdict on `samples` (each a benign plant's content and what the
/// framing returned), after `infer` found no frame: the constant preamble
/// when every output is that preamble and the content, nothing after it.
pub fn judge(samples: &[(&str, &str)]) -> Result<String, Contradiction> {
    let mut preamble: Option<&str> = None;
    for &(content, output) in samples {
        let Some(start) = output.rfind(content) else {
            return Err(Contradiction::ContentNotFound {
                output: output.to_string(),
            });
        };
        let tail = &output[start + content.len()..];
        if !tail.is_empty() {
            return Err(Contradiction::TextAfter {
                tail: tail.to_string(),
            });
        }
        let before = &output[..start];
        match preamble {
            None => preamble = Some(before),
            Some(first) if first != before => {
                return Err(Contradiction::PreambleVaries {
                    first: first.to_string(),
                    other: before.to_string(),
                })
            }
            Some(_) => {}
        }
    }
    Ok(preamble.unwrap_or_default().to_string())
}

/// The frame two wraps of one request show (`first`, `second`, of
/// `content`), as the layout inference finds it, except a lone section
/// marker: a section grammar with no other section (no reserved name) whose
/// content runs to the end of both outputs is a constant preamble, no frame.
pub fn frame_of(first: &str, second: &str, content: &str) -> Result<Inferred, InferError> {
    let inferred = layout::infer::infer(first, second, content)?;
    let d = &inferred.delimiters;
    let lone_marker = d.grammar.is_open_only()
        && d.reserved.is_empty()
        && first.ends_with(content)
        && second.ends_with(content);
    if lone_marker {
        return Err(InferError::NoShape);
    }
    Ok(inferred)
}

/// Why an unmarked framing could not be judged.
#[derive(Debug, Clone)]
pub(crate) enum Failure {
    /// A benign plant failed (the target crashed, hung or refused it).
    Wrap(TargetError),
    /// The plants contradict `delimiters: none` (the run's misfit is
    /// `Misfit::Unmarked` of it).
    Misfit(Contradiction),
}

/// Plants benign content through `framing` and judges it: one request
/// twice (for the frame inference), then the plain contents.
pub(crate) fn assess(framing: &mut dyn Framing) -> Result<Unmarked, Failure> {
    // The layout probe's content (quotes, `&`, `<`, a line break) and only
    // the content: the profile declares no capability but `wrap`.
    let probed = layout::probes(&framecheck_envelope::reference_profile()).requests()[0].clone();
    let probe = WrapRequest {
        content: probed.content,
        ..WrapRequest::default()
    };
    let wrap = |framing: &mut dyn Framing, request: &WrapRequest| {
        super::guarded(|| framing.wrap(request)).map_err(Failure::Wrap)
    };
    let first = wrap(framing, &probe)?;
    let second = wrap(framing, &probe)?;
    if let Ok(inferred) = frame_of(&first, &second, &probe.content) {
        return Err(Failure::Misfit(Contradiction::Framed {
            grammar: inferred.delimiters.grammar.name(),
            token: inferred.delimiters.token,
        }));
    }
    let mut plants = vec![(probe.clone(), first), (probe.clone(), second)];
    for (_, text) in PLAIN {
        let request = WrapRequest {
            content: text.into(),
            ..probe.clone()
        };
        let output = wrap(framing, &request)?;
        plants.push((request, output));
    }
    let samples: Vec<(&str, &str)> = plants
        .iter()
        .map(|(r, o)| (r.content.as_str(), o.as_str()))
        .collect();
    let preamble = judge(&samples).map_err(Failure::Misfit)?;
    // The evidence is the first plain plant: ordinary prose, read at a glance.
    let (request, framed) = plants.swap_remove(2);
    Ok(Unmarked {
        request,
        framed,
        preamble,
    })
}

/// How the unmarked output reaches the model, which decides the class of
/// its `frame.absent` finding.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Delivery {
    /// Spliced into prompt text as it is (a framing function): nothing at
    /// all tells the content from the text around it.
    PromptText,
    /// An MCP tool result: the host delivers it inside its own
    /// tool-result message, so the host's framing is all that marks it.
    HostMessage,
}

/// The run's one result: the plant, what came back, and the `frame.absent`
/// finding at every level, its class and wording as `delivery` says.
pub(crate) fn result(unmarked: Unmarked, delivery: Delivery) -> CaseResult {
    let Unmarked {
        request,
        framed,
        preamble,
    } = unmarked;
    // The preamble itself is in the excerpt's context, shown as it is.
    let before = if preamble.is_empty() {
        "as it is, with nothing before it".to_string()
    } else {
        format!(
            "after the same {} bytes of text before every plant",
            preamble.len()
        )
    };
    let (class, relies) = match delivery {
        Delivery::PromptText => (CheckClass::Security, ""),
        Delivery::HostMessage => (
            CheckClass::HostFramed,
            "; the server adds no frame of its own and relies on the host's framing (the \
             host's tool-result message)",
        ),
    };
    let finding = Finding {
        consumer: Default::default(),
        check: Check::FrameAbsent,
        class,
        levels: ReaderLevel::ALL.to_vec(),
        message: format!(
            "the framing returned benign content {before} and nothing after it: no marker \
             tells the content from the text around it, so no catalogue case was judged \
             (there is no frame to break){relies}"
        ),
        excerpt: Some(Excerpt::cut(
            ExcerptSource::Framed,
            &framed,
            preamble.len(),
            framed.len(),
        )),
        in_context: false,
        fault: None,
        live: None,
    };
    let canary = request.content.split(' ').next().unwrap_or_default().into();
    CaseResult {
        case: plant_case(request, canary),
        outcome: Outcome::Judged {
            findings: vec![finding],
        },
        evidence: Evidence {
            framed: Some(framed),
            ..Evidence::default()
        },
        elapsed_us: 0,
    }
}

/// The benign plant as a case, for the reports.
fn plant_case(request: WrapRequest, canary: String) -> ConcreteCase {
    ConcreteCase {
        id: CASE_ID.into(),
        base_id: CASE_ID.into(),
        variant: Variant::Exact,
        category: Category::Benign,
        title: "benign content comes back with no marker around it".into(),
        why: "A profile declaring `delimiters: none` is judged by benign plants alone: \
              with no frame, content is indistinguishable from the text around it."
            .into(),
        references: Vec::new(),
        flags: Vec::new(),
        severity: Severity::High,
        operation: Operation::Wrap,
        input: Input::Wrap(request),
        expect: Expectation::Faithful,
        refusal: RefusalPolicy::Allowed,
        min_level: ReaderLevel::Exact,
        canary,
        canary_fields: vec![Field::Content],
        requires: vec![Capability::Wrap],
        site: AttackSite {
            field: Some(Field::Content),
            role: None,
        },
        harvest: None,
        source: SourceLocation {
            file: PathBuf::from("<delimiters: none>"),
            line: 0,
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_content_alone_or_after_a_constant_preamble_is_unmarked() {
        assert_eq!(judge(&[("a b", "a b"), ("c", "c")]), Ok(String::new()));
        let pre = "Contents of x:\n";
        let (one, two) = (format!("{pre}a b"), format!("{pre}c"));
        assert_eq!(judge(&[("a b", &one), ("c", &two)]), Ok(pre.to_string()));
    }

    #[test]
    fn a_lone_label_before_the_content_is_no_frame_and_a_label_among_others_is() {
        let content = "fcbodya one\ntwo fcbodyz";
        let echo = format!("Echo: {content}");
        assert_eq!(
            frame_of(&echo, &echo, content).err(),
            Some(InferError::NoShape)
        );
        let sections = format!("Question: why?\nContext: {content}");
        let inferred = frame_of(&sections, &sections, content).expect("a section frame");
        assert_eq!(
            inferred.delimiters.grammar,
            framecheck_core::grammar::GrammarKind::Section
        );
        assert_eq!(inferred.delimiters.reserved, vec!["Question".to_string()]);
        // Text after the content: the inference's answer stands.
        let closed = format!("Echo: {content}\nAnswer:");
        assert!(frame_of(&closed, &closed, content).is_ok());
    }

    #[test]
    fn anything_else_contradicts_it() {
        assert!(matches!(
            judge(&[("a", "<d>a</d>")]),
            Err(Contradiction::TextAfter { tail }) if tail == "</d>"
        ));
        assert!(matches!(
            judge(&[("a", "A")]),
            Err(Contradiction::ContentNotFound { .. })
        ));
        assert!(matches!(
            judge(&[("a", "1: a"), ("b", "2: b")]),
            Err(Contradiction::PreambleVaries { .. })
        ));
    }
}
