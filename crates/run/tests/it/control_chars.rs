//! Control characters (NUL, C0 and C1 controls, DEL, ESC, ANSI/OSC
//! sequences, lone CR) reach every field, so a framing that mishandles them
//! is caught: one that strips them after neutralising delimiters, one that
//! drops ESC from ordinary output, one that crashes on NUL. The reference
//! passes every such case.

use framecheck_core::catalogue;
use framecheck_core::level::ReaderLevel;
use framecheck_run::adapter::reference::Reference;
use framecheck_run::adapter::{Framing, TargetError, WrapRequest};
use framecheck_run::runner::{self, RunOptions, RunResult, Verdict};

fn control_cases(framing: &mut dyn Framing) -> RunResult {
    let profile = framecheck_envelope::reference_profile();
    let cases = catalogue::select(
        catalogue::instantiate(&catalogue::builtin(), &profile),
        &["ctl-*".to_string(), "benign-control-*".to_string()],
    )
    .unwrap();
    assert!(cases.len() > 40, "{} control cases", cases.len());
    runner::run(
        &cases,
        &profile,
        framing,
        &RunOptions::default(),
        &mut |_| {},
    )
}

fn ids_with(run: &RunResult, verdict: Verdict) -> Vec<String> {
    run.results
        .iter()
        .filter(|r| r.verdict_at(ReaderLevel::Unicode) == verdict)
        .map(|r| r.case.id.clone())
        .collect()
}

/// Wraps with the reference, then applies `after` to the framed text.
struct Then(fn(String) -> String);

impl Framing for Then {
    fn wrap(&mut self, request: &WrapRequest) -> Result<String, TargetError> {
        Reference.wrap(request).map(self.0)
    }
    fn read(&mut self, text: &str) -> Result<Option<String>, TargetError> {
        Reference.read(text)
    }
}

fn is_strippable_control(c: char) -> bool {
    // Everything but tab and the line breaks (LF, VT, FF, CR, NEL).
    c.is_control() && !matches!(c, '\t' | '\n' | '\u{0B}' | '\u{0C}' | '\r' | '\u{85}')
}

#[test]
fn the_reference_holds_every_control_case() {
    let run = control_cases(&mut Reference);
    let bad: Vec<_> = run
        .results
        .iter()
        .filter(|r| {
            !matches!(
                r.verdict_at(ReaderLevel::Unicode),
                Verdict::Pass | Verdict::Refused
            )
        })
        .map(|r| (&r.case.id, &r.outcome))
        .collect();
    assert!(bad.is_empty(), "{bad:#?}");
}

/// Neutralises the exact closing delimiter, *then* strips controls from the
/// content: the order that rebuilds `</token>` from `<NUL/token>`.
struct NeutraliseThenStrip;

impl Framing for NeutraliseThenStrip {
    fn wrap(&mut self, request: &WrapRequest) -> Result<String, TargetError> {
        const SLOT: &str = "CONTENTSLOT";
        let content: String = request
            .content
            .replace("</framecheck-untrusted>", "</framecheck_untrusted>")
            .chars()
            .filter(|c| !is_strippable_control(*c))
            .collect();
        let slot = WrapRequest {
            content: SLOT.into(),
            ..request.clone()
        };
        Ok(Reference.wrap(&slot)?.replace(SLOT, &content))
    }
    fn read(&mut self, text: &str) -> Result<Option<String>, TargetError> {
        Reference.read(text)
    }
}

#[test]
fn stripping_controls_after_neutralising_delimiters_is_a_breakout() {
    let run = control_cases(&mut NeutraliseThenStrip);
    let failing = ids_with(&run, Verdict::Fail);
    for id in [
        "ctl-nul-between-bracket-and-slash",
        "ctl-esc-between-bracket-and-slash",
        "ctl-del-and-c1-between-bracket-and-slash",
        "ctl-bel-and-backspace-in-delimiter",
        "ctl-every-control-between-bracket-and-slash",
    ] {
        assert!(
            failing.iter().any(|f| f == id),
            "{id} not failing: {failing:?}"
        );
    }
}

#[test]
fn dropping_esc_from_ordinary_output_is_a_fidelity_failure() {
    let mut framing = Then(|framed| framed.replace('\u{1B}', ""));
    let run = control_cases(&mut framing);
    let failing = ids_with(&run, Verdict::FidelityFail);
    assert!(
        failing
            .iter()
            .any(|f| f == "benign-control-ansi-colour-log"),
        "{failing:?}"
    );
}

struct CrashesOnNul;

impl Framing for CrashesOnNul {
    fn wrap(&mut self, request: &WrapRequest) -> Result<String, TargetError> {
        let fields = [&request.content, &request.kind, &request.provenance];
        let in_attributes = request
            .attributes
            .iter()
            .any(|(k, v)| k.contains('\0') || v.contains('\0'));
        if in_attributes || fields.iter().any(|f| f.contains('\0')) {
            return Err(TargetError::failed("child killed by signal 11"));
        }
        Reference.wrap(request)
    }
    fn read(&mut self, text: &str) -> Result<Option<String>, TargetError> {
        Reference.read(text)
    }
}

#[test]
fn crashing_on_nul_is_seen_in_content_and_header_fields() {
    let run = control_cases(&mut CrashesOnNul);
    let errors = ids_with(&run, Verdict::Error);
    for id in [
        "ctl-nul-before-close",
        "ctl-kind-ansi-then-close",
        "ctl-provenance-ansi-then-close",
        "ctl-attr-key-nul-and-esc",
        "benign-control-nul-and-bell",
    ] {
        assert!(errors.iter().any(|e| e == id), "{id}: {errors:?}");
    }
}

/// The fields a control can reach.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Reach {
    Content,
    AttributeValue,
    Provenance,
    Kind,
}

/// The texts of `field` in a wrap request.
fn field_texts(request: &WrapRequest, field: Reach) -> Vec<&str> {
    match field {
        Reach::Content => vec![request.content.as_str()],
        Reach::AttributeValue => request.attributes.values().map(String::as_str).collect(),
        Reach::Provenance => vec![request.provenance.as_str()],
        Reach::Kind => vec![request.kind.as_str()],
    }
}

/// Every C0 (U+0000 to U+001F) and C1 (U+0080 to U+009F) control is in the
/// catalogue, for an xml-tag target: in a benign case that must keep it,
/// in content and in every header field (line breaks aside there: in a
/// header field they are attacks, not benign text); right before a live
/// closing delimiter in content and in every header field; and between
/// the bracket and the slash of a closing delimiter in content.
#[test]
fn every_c0_and_c1_control_reaches_every_field() {
    use framecheck_core::catalogue::{Expectation, Input};
    let profile = framecheck_envelope::reference_profile();
    let cases = catalogue::instantiate(&catalogue::builtin(), &profile);
    let requests: Vec<(Expectation, &WrapRequest)> = cases
        .iter()
        .filter_map(|case| match &case.input {
            Input::Wrap(request) => Some((case.expect, request)),
            Input::Read(_) => None,
        })
        .collect();
    let close = "</framecheck-untrusted>";
    let line_breaks = [
        '\n', '\u{0B}', '\u{0C}', '\r', '\u{1C}', '\u{1D}', '\u{1E}', '\u{85}',
    ];
    let fields = [
        Reach::Content,
        Reach::AttributeValue,
        Reach::Provenance,
        Reach::Kind,
    ];
    let mut missing = Vec::new();
    for c in (0x00..0x20).chain(0x80..0xA0).filter_map(char::from_u32) {
        let has = |expect: Expectation, field: Reach, needle: &str| {
            requests.iter().any(|(e, request)| {
                *e == expect
                    && field_texts(request, field)
                        .iter()
                        .any(|t| t.contains(needle))
            })
        };
        for field in fields {
            let benign = field == Reach::Content || !line_breaks.contains(&c);
            if benign && !has(Expectation::Faithful, field, &c.to_string()) {
                missing.push(format!("U+{:04X} kept in {field:?}", c as u32));
            }
            if !has(Expectation::Hold, field, &format!("{c}{close}")) {
                missing.push(format!("U+{:04X} before a close in {field:?}", c as u32));
            }
        }
        if !has(
            Expectation::Hold,
            Reach::Content,
            &format!("<{c}/framecheck-untrusted>"),
        ) {
            missing.push(format!("U+{:04X} between bracket and slash", c as u32));
        }
    }
    assert!(
        missing.is_empty(),
        "{} missing: {missing:#?}",
        missing.len()
    );
}
