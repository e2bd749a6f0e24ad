//! Liveness relative to the frame (issue 33): correct framings whose
//! safety rests on the frame itself (a nonce the closer must carry, a
//! fence longer than any run in the content) pass the default gate with no
//! security finding, and the breakouts next to them are still caught.
//!
//! The framings are written here, in-process:
//!
//! - a nonce framing whose content is defanged by the reference and whose
//!   reader is strict (the closer must carry the opener's value, and a body
//!   holding that value again is rejected);
//! - a nonce framing that writes content as is and relies on the nonce
//!   alone: it passes the default gate and fails only under `--strict`
//!   (the markers it leaves live are confusables);
//! - a CommonMark fence one longer than any backtick run a Unicode reader
//!   sees in the content;
//! - and, to show the true breakouts are still caught: a fence of always
//!   three backticks, and a nonce framing that echoes its own value into
//!   the content.

use std::collections::BTreeSet;

use framecheck::adapter::reference::NonceReference;
use framecheck::adapter::{Framing, TargetError, WrapRequest};
use framecheck::gate::Gate;
use framecheck::level::{fold_char, ReaderLevel};
use framecheck::oracle::{Check, CheckClass};
use framecheck::profile::TargetProfile;
use framecheck::runner::{check_conformance, RunResult, Verdict};

/// Stands for the content in a frame the reference wrote, so that a test
/// framing can write the content its own way.
const SLOT: &str = "FRAMECHECKTESTSLOT";

/// A strict reader of the reference's nonce frame: the opener's value, a
/// closer carrying exactly that value at the very end, the header up to the
/// first blank line; a body holding the frame's own value again is not one
/// frame.
fn strict_nonce_read(text: &str) -> Option<String> {
    let rest = text.strip_prefix("<framecheck-untrusted-")?;
    let nonce: String = rest.chars().take_while(char::is_ascii_hexdigit).collect();
    if nonce.len() < 32 {
        return None;
    }
    let closer = format!("\n</framecheck-untrusted-{nonce}>");
    let inner = text.strip_suffix(&closer)?;
    let body_at = inner.find("\n\n")? + 2;
    let body = &inner[body_at..];
    let opener_end = inner.find('>')?;
    if body_at <= opener_end || body.to_ascii_lowercase().contains(&nonce) {
        return None;
    }
    Some(body.to_string())
}

/// How a nonce framing writes the content.
#[derive(Clone, Copy)]
enum Content {
    /// Defanged as the reference defangs it.
    Defanged,
    /// As is: the nonce alone keeps it in.
    AsIs,
    /// With a "fix-up" that rewrites every nonce-less closer in it to the
    /// frame's own closer: every forged closer becomes a real one.
    EchoesNonce,
}

/// The reference's nonce frame (its header writing and defanging), with
/// the content written as [`Content`] says and a strict reader.
struct NonceFraming(Content);

impl Framing for NonceFraming {
    fn wrap(&mut self, request: &WrapRequest) -> Result<String, TargetError> {
        let slot = WrapRequest {
            content: SLOT.into(),
            ..request.clone()
        };
        let framed = NonceReference.wrap(&slot)?;
        let nonce: String = framed["<framecheck-untrusted-".len()..]
            .chars()
            .take_while(char::is_ascii_hexdigit)
            .collect();
        let body = match self.0 {
            Content::Defanged => {
                // Another wrap, another nonce of the same length: the
                // frame around the content has the same lengths.
                let defanged = NonceReference.wrap(request)?;
                let start = framed.find(SLOT).expect("slot written");
                let tail = framed.len() - start - SLOT.len();
                defanged[start..defanged.len() - tail].to_string()
            }
            Content::AsIs => request.content.clone(),
            Content::EchoesNonce => request.content.replace(
                "</framecheck-untrusted>",
                &format!("</framecheck-untrusted-{nonce}>"),
            ),
        };
        Ok(framed.replacen(SLOT, &body, 1))
    }

    fn read(&mut self, text: &str) -> Result<Option<String>, TargetError> {
        Ok(strict_nonce_read(text))
    }
}

/// The longest run of characters a Unicode reader reads as a backtick;
/// invisible characters do not break a run.
fn longest_backtick_run(text: &str) -> usize {
    let (mut longest, mut run) = (0, 0);
    for c in text.chars() {
        for folded in fold_char(c, ReaderLevel::Unicode).chars() {
            run = if folded == '`' { run + 1 } else { 0 };
            longest = longest.max(run);
        }
    }
    longest
}

/// A fence around the content as is: one longer than any backtick run in
/// it (`lengthen`), or always three backticks. Its reader takes the first
/// line's run, wants the last line to be exactly that run, and (for the
/// lengthening framing) holds the writer's rule: no run in the body as
/// long as the fence.
struct FenceFraming {
    lengthen: bool,
}

impl Framing for FenceFraming {
    fn wrap(&mut self, request: &WrapRequest) -> Result<String, TargetError> {
        let run = if self.lengthen {
            (longest_backtick_run(&request.content) + 1).max(3)
        } else {
            3
        };
        let fence = "`".repeat(run);
        Ok(format!("{fence}text\n{}\n{fence}", request.content))
    }

    fn read(&mut self, text: &str) -> Result<Option<String>, TargetError> {
        let (first, rest) = text.split_once('\n').unwrap_or((text, ""));
        let run = first.chars().take_while(|&c| c == '`').count();
        if run < 3 || &first[run..] != "text" {
            return Ok(None);
        }
        let fence = "`".repeat(run);
        Ok(rest
            .strip_suffix(fence.as_str())
            .and_then(|b| b.strip_suffix('\n'))
            .filter(|body| !self.lengthen || longest_backtick_run(body) < run)
            .map(str::to_string))
    }
}

fn fence_profile() -> TargetProfile {
    TargetProfile::parse(
        "name: fence\nadapter: { builtin: reference }\ndelimiters: { grammar: fence, token: text }\nheader: none\ncapabilities: [wrap, read]\n",
    )
    .unwrap()
}

/// `(case, check, class)` of every finding failing at the unicode level
/// under `gate`.
fn failing(run: &RunResult, gate: Gate) -> Vec<(String, Check, CheckClass)> {
    let mut out = Vec::new();
    for r in &run.results {
        if r.verdict(ReaderLevel::Unicode, gate) != Verdict::Fail {
            continue;
        }
        for f in r.findings_at(ReaderLevel::Unicode) {
            if gate.fails(f) {
                out.push((r.case.id.clone(), f.check, f.class));
            }
        }
    }
    out
}

fn security(run: &RunResult) -> Vec<(String, Check)> {
    failing(run, Gate::Default)
        .into_iter()
        .filter(|(_, _, class)| *class == CheckClass::Security)
        .map(|(id, check, _)| (id, check))
        .collect()
}

fn checks(found: &[(String, Check)]) -> BTreeSet<Check> {
    found.iter().map(|(_, c)| *c).collect()
}

#[test]
fn a_defanged_nonce_framing_with_a_strict_reader_passes() {
    let run = check_conformance(
        &mut NonceFraming(Content::Defanged),
        &nonce_profile(),
        ReaderLevel::Unicode,
    );
    assert_eq!(security(&run), vec![]);
    assert_eq!(failing(&run, Gate::Strict), vec![]);
}

#[test]
fn a_nonce_framing_relying_on_the_nonce_alone_fails_only_under_strict() {
    let mut framing = NonceFraming(Content::AsIs);
    let run = check_conformance(&mut framing, &nonce_profile(), ReaderLevel::Unicode);
    assert_eq!(security(&run), vec![]);
    let strict = failing(&run, Gate::Strict);
    assert!(!strict.is_empty());
    // Confusables (and the chat-template strings the content carries, as
    // is), reported apart: failures under `--strict` only.
    let classes: BTreeSet<CheckClass> = strict.iter().map(|(_, _, c)| *c).collect();
    assert!(classes.contains(&CheckClass::Confusable), "{classes:?}");
    assert!(
        classes.iter().all(|c| CheckClass::APART.contains(c)),
        "{classes:?}"
    );
}

#[test]
fn a_nonce_framing_that_echoes_its_own_value_into_content_fails() {
    let mut framing = NonceFraming(Content::EchoesNonce);
    let run = check_conformance(&mut framing, &nonce_profile(), ReaderLevel::Unicode);
    let found = checks(&security(&run));
    assert!(found.contains(&Check::DelimiterCensus), "{found:?}");
    assert!(found.contains(&Check::CanaryContainment), "{found:?}");
}

#[test]
fn a_commonmark_fence_one_longer_than_any_run_passes() {
    let run = check_conformance(
        &mut FenceFraming { lengthen: true },
        &fence_profile(),
        ReaderLevel::Unicode,
    );
    assert_eq!(security(&run), vec![]);
    assert_eq!(failing(&run, Gate::Default), vec![]);
    // Content written as is keeps chat-template strings: reported apart.
    assert!(failing(&run, Gate::Strict)
        .iter()
        .all(|(_, check, _)| *check == Check::TemplateControl));
}

#[test]
fn a_fence_that_is_never_lengthened_fails() {
    let run = check_conformance(
        &mut FenceFraming { lengthen: false },
        &fence_profile(),
        ReaderLevel::Unicode,
    );
    let found = security(&run);
    assert!(
        found.contains(&("fence-longer-run".into(), Check::DelimiterCensus)),
        "{found:?}"
    );
    // Its reader returns a body that a three-backtick frame's reader closes on.
    assert!(checks(&found).contains(&Check::ReaderVerdict), "{found:?}");
}

fn nonce_profile() -> TargetProfile {
    framecheck::envelope::reference_nonce_profile()
}

/// On a fence grammar the census records the delimiter its message names:
/// a content fence line of four backticks closes the three-backtick frame
/// (it is the frame's closer as a reader sees it), and the nine-backtick
/// line after it opens a new fence, live outside the frame.
#[test]
fn a_fence_census_finding_records_what_its_message_names() {
    use framecheck::catalogue::DelimiterRole;
    use framecheck::grammar::{DelimiterKind, Liveness};
    use framecheck::report::weakness;
    let run = check_conformance(
        &mut FenceFraming { lengthen: false },
        &fence_profile(),
        ReaderLevel::Unicode,
    );
    let result = run
        .results
        .iter()
        .find(|r| r.case.id == "fence-longer-run")
        .expect("the case ran");
    let census = result
        .findings_at(ReaderLevel::Unicode)
        .into_iter()
        .find(|f| f.check == Check::DelimiterCensus)
        .expect("a census finding");
    let live = census.live.expect("the live fence is recorded");
    assert!(census.message.contains("an opening"), "{census:#?}");
    assert_eq!(live.role, DelimiterRole::Open, "{live:?}");
    assert_eq!(live.reading.kind, DelimiterKind::Open);
    assert_eq!(live.reading.liveness, Liveness::Live);
    assert_eq!(live.level, ReaderLevel::Exact);
    let framed = result.evidence.framed.as_deref().unwrap();
    assert_eq!(&framed[live.start..live.end], "`".repeat(9));
    let census_weakness = weakness::weaknesses(&run)
        .into_iter()
        .find(|w| w.check == Check::DelimiterCensus && w.cases.contains(&result.case.id))
        .expect("a census weakness");
    assert!(
        census_weakness.delimiters.contains(&weakness::Role::Open),
        "{census_weakness:#?}"
    );
}
