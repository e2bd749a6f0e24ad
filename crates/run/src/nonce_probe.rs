//! The nonce probes the runner adds for a profile that declares a nonce:
//! checks that need several wraps, so no single catalogue case can hold
//! them.
//!
//! - `nonce-unpredictable`: the same benign input wrapped `samples` times,
//!   then three other inputs; [`framecheck_core::nonce::analyse`] decides.
//! - `nonce-replay`: the closer of an earlier wrap planted in the content of
//!   a later one; live with the frame's own value means the nonce was
//!   reused.
//! - `nonce-reader-mismatch` (targets with a reader): an earlier frame
//!   whose closer carries another value; the reader must reject it.
//!
//! Each probe is reported as a case of its own with the same outcome and
//! evidence types as catalogue cases. A probe that cannot measure (a wrap
//! failed, a frame carries no nonce of the declared shape) is an error,
//! never a pass or a finding.

use std::path::PathBuf;
use std::time::{Instant, SystemTime, UNIX_EPOCH};

use crate::adapter::{Framing, TargetError, WrapRequest};
use framecheck_core::catalogue::{
    Category, ConcreteCase, Expectation, Field, Input, Operation, RefusalPolicy, Severity,
    SourceLocation, Variant,
};
use framecheck_core::layout::Layout;
use framecheck_core::level::ReaderLevel;
use framecheck_core::nonce::PROBE_SOURCE;
use framecheck_core::oracle::{self, Check, CheckClass, Excerpt, ExcerptSource, Finding};
// From the core, not through the runner's re-exports: the runner runs these
// probes, so this module sits below it.
use framecheck_core::target::guarded;
use framecheck_launch::outcome::{CaseResult, Evidence, Outcome};
use framecheck_launch::profile::{Capability, TargetProfile};

use framecheck_core::nonce::{analyse, other_value, Observations};

/// The other inputs `nonce-unpredictable` wraps once each, to tell a
/// content hash from a reused value.
const OTHER_CONTENTS: [&str; 3] = [
    "nonce sample one.",
    "nonce sample two.",
    "nonce sample three.",
];

/// The canary planted after the replayed closer.
const REPLAY_CANARY: &str = "FC-NONCE-REPLAY-7f3a";

/// Runs the nonce probes; empty when `profile` declares no nonce or the
/// target cannot wrap. `layout`, when calibration learned one, judges the
/// replay wrap as catalogue cases are judged.
pub fn probe(
    profile: &TargetProfile,
    framing: &mut dyn Framing,
    layout: Option<&Layout>,
    samples: usize,
) -> Vec<CaseResult> {
    let Some(spec) = profile.delimiters.nonce else {
        return Vec::new();
    };
    if !profile.can(Capability::Wrap) {
        return Vec::new();
    }
    let started = Instant::now();
    let samples = samples.max(3);
    // The title records how many wraps the verdict rests on.
    let unpredictable = probe_case(
        "nonce-unpredictable",
        &format!(
            "The nonce cannot be predicted from earlier frames or the content ({samples} wraps of one input, {} of others)",
            OTHER_CONTENTS.len()
        ),
        Category::Forgery,
        Operation::Wrap,
    );
    let now_ns = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos());
    let frames = match sample(profile, framing, samples) {
        Ok(frames) => frames,
        Err(reason) => return vec![error(unpredictable, reason, started)],
    };
    let findings = match analyse(&spec, &frames.observed, now_ns) {
        a if a.holds() => Vec::new(),
        a => vec![everywhere(Check::NonceUnpredictable, a.to_string(), None)],
    };
    let first = frames.first.clone();
    let mut results = vec![finish(
        unpredictable,
        Outcome::Judged { findings },
        Evidence {
            framed: Some(first.clone()),
            ..Evidence::default()
        },
        started,
    )];
    if let Some(closer) = oracle::frame_closer(profile, &first) {
        results.push(replay(profile, framing, layout, &closer));
        if profile.can(Capability::Read) {
            results.push(reader_mismatch(profile, framing, &first, &closer));
        }
    }
    results
}

/// The values seen, and the first frame (for the other probes).
struct Frames {
    observed: Observations,
    first: String,
}

fn sample(
    profile: &TargetProfile,
    framing: &mut dyn Framing,
    samples: usize,
) -> Result<Frames, String> {
    let base = oracle::calibration_request();
    let mut first = None;
    let mut nonce_of = |request: &WrapRequest| -> Result<String, String> {
        let framed = guarded(|| framing.wrap(request))
            .map_err(|e| format!("a sampling wrap failed: {e}"))?;
        let value = oracle::frame_nonce(profile, &framed).ok_or_else(|| {
            format!("the frame's opener carries no nonce of the declared shape: {framed:?}")
        })?;
        first.get_or_insert(framed);
        Ok(value)
    };
    let same_input = (0..samples)
        .map(|_| nonce_of(&base))
        .collect::<Result<_, _>>()?;
    let other_inputs = OTHER_CONTENTS
        .into_iter()
        .map(|content| {
            let request = WrapRequest {
                content: content.into(),
                ..base.clone()
            };
            nonce_of(&request).map(|v| (request.content, v))
        })
        .collect::<Result<_, _>>()?;
    Ok(Frames {
        observed: Observations {
            same_input,
            other_inputs,
        },
        first: first.expect("at least one sample"),
    })
}

/// Plants `closer` (from an earlier frame) in a later wrap's content.
fn replay(
    profile: &TargetProfile,
    framing: &mut dyn Framing,
    layout: Option<&Layout>,
    closer: &str,
) -> CaseResult {
    let started = Instant::now();
    let mut case = probe_case(
        "nonce-replay",
        "A closer copied from an earlier frame is not live",
        Category::Breakout,
        Operation::Wrap,
    );
    let request = WrapRequest {
        content: format!("Earlier output: {closer}\n{REPLAY_CANARY} follows."),
        ..oracle::calibration_request()
    };
    case.input = Input::Wrap(request.clone());
    case.canary = REPLAY_CANARY.into();
    case.canary_fields = vec![Field::Content];
    match guarded(|| framing.wrap(&request)) {
        Err(TargetError::Refused(reason)) => finish(
            case,
            Outcome::Refused {
                reason,
                acceptable: true,
            },
            Evidence::default(),
            started,
        ),
        Err(e) => error(case, e.to_string(), started),
        Ok(framed) => {
            let mut findings = oracle::judge_wrap_in(&case, profile, layout, &request, &framed);
            findings.extend(oracle::judge_replay_in(profile, layout, &framed, closer));
            let evidence = Evidence {
                framed: Some(framed),
                ..Evidence::default()
            };
            finish(case, Outcome::Judged { findings }, evidence, started)
        }
    }
}

/// Feeds the reader `framed` with its closer's nonce changed.
fn reader_mismatch(
    profile: &TargetProfile,
    framing: &mut dyn Framing,
    framed: &str,
    closer: &str,
) -> CaseResult {
    let started = Instant::now();
    let mut case = probe_case(
        "nonce-reader-mismatch",
        "The reader rejects a frame whose closer carries another nonce",
        Category::Reader,
        Operation::Read,
    );
    case.expect = Expectation::Reject;
    let Some(value) = oracle::frame_nonce(profile, framed) else {
        return error(case, "the frame's opener carries no nonce".into(), started);
    };
    let Some(at) = framed.rfind(closer) else {
        return error(
            case,
            "the frame's closer was not found as written".into(),
            started,
        );
    };
    let text = format!(
        "{}{}",
        &framed[..at],
        closer.replacen(&value, &other_value(&value), 1)
    );
    case.input = Input::Read(vec![framecheck_core::catalogue::Piece::Literal(
        text.clone(),
    )]);
    let evidence = |body| Evidence {
        read_text: Some(text.clone()),
        read_body: Some(body),
        ..Evidence::default()
    };
    match guarded(|| framing.read(&text)) {
        Ok(None) | Err(TargetError::Refused(_)) => finish(
            case,
            Outcome::Judged {
                findings: Vec::new(),
            },
            evidence(None),
            started,
        ),
        Err(e) => error(case, e.to_string(), started),
        Ok(Some(body)) => {
            let at = text.len() - closer.len();
            let excerpt = Some(Excerpt::cut(
                ExcerptSource::ReadInput,
                &text,
                at,
                text.len(),
            ));
            let finding = everywhere(
                Check::NonceMatched,
                "the reader accepts a frame whose closer carries another nonce than its opener"
                    .into(),
                excerpt,
            );
            finish(
                case,
                Outcome::Judged {
                    findings: vec![finding],
                },
                evidence(Some(body)),
                started,
            )
        }
    }
}

fn everywhere(check: Check, message: String, excerpt: Option<Excerpt>) -> Finding {
    Finding {
        consumer: Default::default(),
        check,
        class: CheckClass::Security,
        levels: ReaderLevel::ALL.to_vec(),
        message,
        excerpt,
        in_context: false,
        fault: None,
        live: None,
    }
}

fn probe_case(id: &str, title: &str, category: Category, operation: Operation) -> ConcreteCase {
    ConcreteCase {
        id: id.into(),
        base_id: id.into(),
        variant: Variant::Exact,
        category,
        title: title.into(),
        why: "Nonce framings are only as strong as the attacker's ignorance of the current value (docs/nonce.md).".into(),
        references: Vec::new(),
        flags: vec!["nonce-checks".into()],
        severity: Severity::High,
        operation,
        input: Input::Wrap(oracle::calibration_request()),
        expect: Expectation::Hold,
        refusal: RefusalPolicy::Allowed,
        min_level: ReaderLevel::Exact,
        canary: String::new(),
        canary_fields: Vec::new(),
        requires: vec![Capability::Wrap],
        site: Default::default(),
        harvest: None,
        source: SourceLocation { file: PathBuf::from(PROBE_SOURCE), line: 0 },
    }
}

fn error(case: ConcreteCase, reason: String, started: Instant) -> CaseResult {
    finish(
        case,
        Outcome::Error {
            reason,
            stderr_tail: String::new(),
            fault: None,
        },
        Evidence::default(),
        started,
    )
}

fn finish(
    case: ConcreteCase,
    outcome: Outcome,
    evidence: Evidence,
    started: Instant,
) -> CaseResult {
    let elapsed_us = started.elapsed().as_micros().min(u64::MAX as u128) as u64;
    CaseResult {
        case,
        outcome,
        evidence,
        elapsed_us,
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn another_value_keeps_the_shape_and_differs() {
        let uuid = "58e6f516-3155-4ea3-813f-b5e5f1c1ca4f";
        let other = framecheck_core::nonce::other_value(uuid);
        assert_eq!(other, "58e6f516-3155-4ea3-813f-b5e5f1c1ca4a");
        assert_eq!(framecheck_core::nonce::other_value("z9"), "z0");
        assert_eq!(framecheck_core::nonce::other_value("Zz"), "Zg");
    }
}
