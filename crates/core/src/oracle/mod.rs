//! The oracle: structural checks on what a target returned.
//!
//! The oracle decides pass or fail from the framed text alone (plus the case
//! and the profile). It never calls the target and never uses the reference
//! envelope's defanger: its matcher ([`scan`]) is a deliberately simple
//! quadratic search over the [`crate::level`] folding, so the reference
//! cannot pass its own test by construction. The two are differentially
//! fuzzed (`fuzz/fuzz_targets/defang_differential.rs`).
//!
//! Every check has a stable name ([`Check`]) used in every report format.
//!
//! At each reader level the oracle finds the live delimiters, then the
//! regions they imply: the opening tag (its end found by an attribute-aware
//! scan), the header (up to the first blank line the reader sees), and the
//! content region (up to the first closing delimiter of the content-carrying
//! element the reader sees). A breakout shows up as a canary outside its
//! region and as an intruder in the delimiter census. Security findings
//! list the levels where they fail, merged per check and message; fidelity
//! findings are judged once, at the exact level, for faithful cases only.
//!
//! The runner learns a target's frame once, from a benign calibration wrap,
//! and builds reader cases from its pieces:
//!
//! ```
//! use framecheck_core::oracle::{calibrate, calibration_request};
//! use framecheck_core::profile::ResolvedProfile;
//!
//! let request = calibration_request();
//! let framed = format!(
//!     "<framecheck-untrusted kind=\"tool-result\" source=\"calibration\">\n{}\n\n{}\n</framecheck-untrusted>",
//!     request.provenance, request.content,
//! );
//! let profile = ResolvedProfile::parse(
//!     "name: reference\nadapter: { builtin: reference }\n\
//!      delimiters: { syntax: xml-tag, token: framecheck-untrusted }\nheader: blank-line\n\
//!      attributes: { on: outer, kind: kind, extra: [] }\n\
//!      capabilities: [wrap, read, attributes, provenance, kind]\n",
//! )
//! .unwrap();
//! let calibration = calibrate(&profile, &request, &framed).unwrap();
//! assert_eq!(calibration.body(), request.content);
//! assert!(calibration.tail().ends_with("</framecheck-untrusted>"));
//! ```

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::level::ReaderLevel;

mod check_table;
mod checks;
mod live;
mod regions;
pub mod scan;
mod view;

pub use checks::nonce::{
    delimiter_nonces, frame_closer, frame_nonce, judge_replay, judge_replay_in,
};
pub use checks::{
    as_written, calibrate, calibration_request, for_consumers, for_reader, judge_document,
    judge_parts, judge_read, judge_roundtrip, judge_roundtrip_in, judge_several, judge_structure,
    judge_tokenizer_view, judge_wrap, judge_wrap_counted, judge_wrap_in, observed_parser_owns,
    opener_own_attributes, parser_answered, render_parts, render_segments, Boundaries, Calibration,
    FrameUnusable, Items, LiveCounts, NoCalibration, PartsError, PartsStructure, Structure,
    StructureError, ViewFinding,
};

/// A structural check, by its stable report name.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Check {
    /// The output fits the calibrated layout (or, without one, begins with
    /// the outer opening delimiter and ends with its closing one).
    #[serde(rename = "frame.shape")]
    FrameShape,
    /// Text outside the frame is the framing's constant text, nothing else.
    #[serde(rename = "frame.outer-text")]
    OuterText,
    /// Several frames per call: every item is read in its own frame, in
    /// order; no item's content moves into, merges with or creates another
    /// frame.
    #[serde(rename = "frame.separation")]
    FrameSeparation,
    /// Exactly the framing's own live delimiters, in order; none from content.
    #[serde(rename = "delimiter.census")]
    DelimiterCensus,
    /// Planted text stays inside the region it was put in (no breakout).
    #[serde(rename = "canary.containment")]
    CanaryContainment,
    /// The attribute-carrying tag parses to exactly the supplied attributes.
    #[serde(rename = "tag.integrity")]
    TagIntegrity,
    /// Header fields cannot move the header boundary or carry line breaks.
    #[serde(rename = "header.integrity")]
    HeaderIntegrity,
    /// The reader rejects what is not exactly one frame and accepts real ones.
    #[serde(rename = "reader.verdict")]
    ReaderVerdict,
    /// Reading the framed text back returns the framed body.
    #[serde(rename = "roundtrip")]
    Roundtrip,
    /// Benign content, attributes and provenance pass through unchanged.
    #[serde(rename = "fidelity")]
    Fidelity,
    /// The per-call nonce is distinct, not a counter, clock or content hash,
    /// and carries at least 64 bits of estimated entropy.
    #[serde(rename = "nonce.unpredictable")]
    NonceUnpredictable,
    /// Opener and closer carry the same nonce value.
    #[serde(rename = "nonce.matched")]
    NonceMatched,
    /// A delimiter copied from an earlier frame is not live in a later one.
    #[serde(rename = "nonce.replay")]
    NonceReplay,
    /// No marker spelled like the real one without its nonce, or with
    /// another value, is left live (class [`CheckClass::Confusable`]).
    #[serde(rename = "nonce.confusable")]
    NonceConfusable,
    /// No chat-template control string or turn marker from the input is
    /// readable in the framed output (class [`CheckClass::OuterLayer`]).
    #[serde(rename = "template.control")]
    TemplateControl,
    /// The target answers the input at all: it did not crash, hang or
    /// break the protocol on it, twice, while answering a benign input
    /// (class [`CheckClass::Fault`]).
    #[serde(rename = "target.fault")]
    TargetFault,
    /// A reader that parses frames into segments returns, for the output,
    /// the structure a benign frame reads back as: the same number of
    /// segments, roles and fields, and the content in its own segment.
    #[serde(rename = "reader.structure")]
    ReaderStructure,
    /// The framing puts no marker around the content at all (a profile
    /// declaring `delimiters: none`, borne out by benign plants, or a case
    /// whose output is its content with no frame, from a framing that frames
    /// other content): nothing tells the content from the text around it.
    /// Raised by the runner's own rules, never by the oracle.
    #[serde(rename = "frame.absent")]
    FrameAbsent,
    /// A framing that answers with parts returns, for the input, the parts
    /// a benign wrap answers: as many, the same roles, constant parts
    /// unchanged, and the content only in its own part.
    #[serde(rename = "parts.structure")]
    PartsStructure,
    /// In a frame declared to hold role records (`records:`), no line the
    /// content starts reads as a record marker, with any role, at the
    /// reader level's line rule and fold.
    #[serde(rename = "records.forged")]
    RecordsForged,
    /// In a `line-prefix` body, every line the content starts carries the
    /// prefix, after every line break the reader level splits at: a line
    /// without it is the framing's own text to a reader.
    #[serde(rename = "quote.escape")]
    QuoteEscape,
}

impl Check {
    /// Every check, in report order (the SARIF rules' order).
    pub const ALL: [Check; 21] = [
        Check::FrameShape,
        Check::OuterText,
        Check::FrameSeparation,
        Check::DelimiterCensus,
        Check::CanaryContainment,
        Check::TagIntegrity,
        Check::HeaderIntegrity,
        Check::ReaderVerdict,
        Check::Roundtrip,
        Check::Fidelity,
        Check::NonceUnpredictable,
        Check::NonceMatched,
        Check::NonceReplay,
        Check::NonceConfusable,
        Check::TemplateControl,
        Check::TargetFault,
        Check::ReaderStructure,
        Check::FrameAbsent,
        Check::PartsStructure,
        Check::RecordsForged,
        Check::QuoteEscape,
    ];

    /// The stable name, as serialized (`check_table`).
    pub fn name(self) -> &'static str {
        self.row().name
    }

    /// A one-line fix hint for reports (`check_table`).
    pub fn hint(self) -> &'static str {
        self.row().hint
    }
}

impl fmt::Display for Check {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Whether a failed check is a security failure or a fidelity failure.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum CheckClass {
    /// Content can close, forge, reopen or rewrite the frame.
    Security,
    /// Content, attributes or provenance were altered or refused without cause.
    Fidelity,
    /// A marker spelled like the frame's own, without its nonce or with
    /// another value, is left live. A strict reader does not close the frame
    /// on it, but a model may; reported apart from security and fidelity,
    /// and failing only a strict gate.
    Confusable,
    /// A chat-template control string or turn marker from the input is
    /// readable in the framed output: it breaks out of the message the frame
    /// sits in, not only out of the frame. Reported apart; failing under
    /// `--strict`, or where the profile's declared context makes it a real
    /// control ([`Finding::in_context`], see [`crate::gate`]).
    OuterLayer,
    /// The target crashed, hung or broke the protocol on the input, again
    /// on a retry with a fresh target, while it answers a benign input: an
    /// input that takes the framing down (a denial of service, and every
    /// other framed item of that call lost). Not a breakout: nothing is
    /// claimed about the frame. Fails under every gate.
    Fault,
    /// The output carries no frame of its own and reaches the model only
    /// inside the host's message for it (an MCP server's tool result, which
    /// the host delivers in its own tool-result message): the server relies
    /// on the host's framing. Worth saying, not a breakout; reported apart,
    /// failing only under `--strict`. A run of this class holds no level:
    /// there is no frame to hold one.
    HostFramed,
}

impl CheckClass {
    /// Every class, in report order: failing classes first, then the
    /// classes reported apart.
    pub const ALL: [CheckClass; 6] = [
        CheckClass::Security,
        CheckClass::Fault,
        CheckClass::Fidelity,
        CheckClass::Confusable,
        CheckClass::OuterLayer,
        CheckClass::HostFramed,
    ];

    /// The classes reported apart from security and fidelity: they fail a
    /// case only under `--strict` or a declared context ([`crate::gate`]).
    pub const APART: [CheckClass; 3] = [
        CheckClass::Confusable,
        CheckClass::OuterLayer,
        CheckClass::HostFramed,
    ];

    /// The stable name, as serialized.
    pub fn name(self) -> &'static str {
        match self {
            CheckClass::Security => "security",
            CheckClass::Fidelity => "fidelity",
            CheckClass::Confusable => "confusable",
            CheckClass::OuterLayer => "outer-layer",
            CheckClass::Fault => "fault",
            CheckClass::HostFramed => "host-framed",
        }
    }
}

/// A span of a text the finding points at, with some context around it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Excerpt {
    /// Which text the offsets refer to.
    pub text: ExcerptSource,
    /// Byte offset where the offending span starts.
    pub start: usize,
    /// Byte offset where it ends.
    pub end: usize,
    /// The span with up to 40 bytes of context on each side, on char boundaries.
    pub context: String,
}

/// The text an excerpt was cut from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum ExcerptSource {
    /// The framed output of a wrap.
    Framed,
    /// The text fed to the reader.
    ReadInput,
    /// The body the reader returned.
    ReadBody,
    /// The parts a wrap answered (`wrap.returns: parts`), one JSON object
    /// a line.
    Parts,
}

/// One failed check.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Finding {
    /// Which check failed.
    pub check: Check,
    /// Security, fidelity, or a class reported apart.
    pub class: CheckClass,
    /// The reader levels at which it fails (empty for fidelity findings,
    /// which do not depend on a level).
    pub levels: Vec<ReaderLevel>,
    /// What is wrong, in one sentence.
    pub message: String,
    /// Where, when the failure has a location.
    pub excerpt: Option<Excerpt>,
    /// For an outer-layer finding: the profile's declared context (its
    /// `chat_template:`) reads this string as a real control, so it fails
    /// the default gate too ([`crate::gate::Gate::fails`]).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub in_context: bool,
    /// For a `target.fault` finding: what the target did on the input (the
    /// retry's fault: its exit status, offending line and stderr tail).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fault: Option<crate::target::Fault>,
    /// For a finding about a live delimiter (`delimiter.census`,
    /// `reader.verdict`, `nonce.replay`): the delimiter the check found
    /// live, as it read it (1.5), so reports need not scan again.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub live: Option<live::LiveEvidence>,
    /// The consumer of the output this finding fools (`reader.consumers`):
    /// the model that reads it, or the parser that reads it back. Reports
    /// before schema 1.7 have none: the model.
    #[serde(default)]
    pub consumer: crate::profile::Consumer,
}

impl Excerpt {
    /// Cuts `start..end` out of `text` with context, widening to char boundaries.
    pub fn cut(source: ExcerptSource, text: &str, start: usize, end: usize) -> Excerpt {
        let floor = |mut i: usize| {
            i = i.min(text.len());
            while !text.is_char_boundary(i) {
                i -= 1;
            }
            i
        };
        let ceil = |mut i: usize| {
            i = i.min(text.len());
            while !text.is_char_boundary(i) {
                i += 1;
            }
            i
        };
        let start = floor(start);
        let end = ceil(end.max(start));
        let from = floor(start.saturating_sub(40));
        let to = ceil(end.saturating_add(40));
        Excerpt {
            text: source,
            start,
            end,
            context: text[from..to].to_string(),
        }
    }
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeSet;

    use super::*;

    /// Stops compiling when a check is added: a reminder to add it to
    /// [`Check::ALL`] too.
    #[allow(dead_code)]
    fn every_check_is_listed(check: Check) {
        match check {
            Check::FrameShape
            | Check::OuterText
            | Check::FrameSeparation
            | Check::DelimiterCensus
            | Check::CanaryContainment
            | Check::TagIntegrity
            | Check::HeaderIntegrity
            | Check::ReaderVerdict
            | Check::Roundtrip
            | Check::Fidelity
            | Check::NonceUnpredictable
            | Check::NonceMatched
            | Check::NonceReplay
            | Check::NonceConfusable
            | Check::TemplateControl
            | Check::TargetFault
            | Check::ReaderStructure
            | Check::FrameAbsent
            | Check::PartsStructure
            | Check::RecordsForged
            | Check::QuoteEscape => {}
        }
    }

    #[test]
    fn every_check_shows_its_name_and_has_a_hint_of_its_own() {
        let mut hints = BTreeSet::new();
        let mut names = BTreeSet::new();
        for check in Check::ALL {
            assert!(names.insert(check.name()), "{check} listed twice");
            assert_eq!(
                serde_json::to_value(check).unwrap().as_str(),
                Some(check.name())
            );
            assert_eq!(check.to_string(), check.name());
            // A hint is a sentence, and no two checks share one.
            assert!(
                check.hint().len() > 40 && check.hint().ends_with('.'),
                "{check}"
            );
            assert!(hints.insert(check.hint()), "{check} shares its hint");
        }
    }

    #[test]
    fn class_names_are_the_serialized_names() {
        for class in CheckClass::ALL {
            let serialized = serde_json::to_value(class).unwrap();
            assert_eq!(serialized.as_str(), Some(class.name()));
        }
    }

    #[test]
    fn an_excerpt_widens_to_character_boundaries() {
        // Three-byte characters: byte offsets inside them widen outwards.
        let text = "\u{4E2D}".repeat(40);
        let excerpt = Excerpt::cut(ExcerptSource::Framed, &text, 61, 62);
        assert_eq!((excerpt.start, excerpt.end), (60, 63));
        // 40 bytes of context each side, widened: 20 back to 18, 103 up to 105.
        assert_eq!(excerpt.context, text[18..105]);
        // Offsets past the end are clamped; an end before the start is the start.
        let excerpt = Excerpt::cut(ExcerptSource::ReadBody, "abc", 7, 2);
        assert_eq!((excerpt.start, excerpt.end), (3, 3));
        assert_eq!(excerpt.context, "abc");
    }
}
