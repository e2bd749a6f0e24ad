//! The protocol's `bytes` extension: content bytes that are not UTF-8 reach
//! targets that declare the `bytes` capability (as `content_b64`), come back
//! as `framed_b64`, and never reach targets that did not ask for them.

use crate::common;
use framecheck_run::adapter::subprocess::bytes::byte_char;

use framecheck_core::catalogue;
use framecheck_core::level::ReaderLevel;
use framecheck_launch::profile::{LoadedProfile, TargetProfile};
use framecheck_run::adapter::subprocess::protocol::{decode_reply, encode_wrap_bytes, Op, Reply};
use framecheck_run::adapter::subprocess::SubprocessFraming;
use framecheck_run::adapter::{Framing, WrapRequest};
use framecheck_run::runner::{self, RunOptions, RunResult, Verdict};

fn profile(name: &str) -> LoadedProfile {
    TargetProfile::load(&crate::common::repo().join("tests/adapters").join(name)).unwrap()
}

fn run_bytes_cases(loaded: &LoadedProfile) -> RunResult {
    let cases = catalogue::select(
        catalogue::instantiate(&catalogue::builtin(), &loaded.profile),
        &["bytes-*".to_string(), "benign-bytes-*".to_string()],
    )
    .unwrap();
    assert_eq!(cases.len(), 3);
    let mut framing = SubprocessFraming::from_profile(loaded).unwrap();
    runner::run(
        &cases,
        &loaded.profile,
        &mut framing,
        &RunOptions::default(),
        &mut |_| {},
    )
}

fn verdict(run: &RunResult, id: &str) -> Verdict {
    run.results
        .iter()
        .find(|r| r.case.id == id)
        .unwrap()
        .verdict_at(ReaderLevel::Unicode)
}

#[test]
fn raw_bytes_travel_as_base64_and_come_back_as_stand_ins() {
    let request = WrapRequest {
        content: format!("a{}b", byte_char(0xC0)),
        ..WrapRequest::default()
    };
    let line = encode_wrap_bytes(3, &request);
    let value: serde_json::Value = serde_json::from_str(&line).unwrap();
    assert_eq!(value["content_b64"], "YcBi");
    assert_eq!(value["content"], "a\u{FFFD}b");
    // Content without raw bytes is sent exactly as before.
    let plain = WrapRequest {
        content: "ab".into(),
        ..WrapRequest::default()
    };
    assert!(!encode_wrap_bytes(4, &plain).contains("content_b64"));
    let reply = decode_reply(br#"{"id": 3, "framed_b64": "PHQ+wDwvdD4="}"#, 3, Op::Wrap).unwrap();
    assert_eq!(reply, Reply::Framed(format!("<t>{}</t>", byte_char(0xC0))));
    assert!(decode_reply(br#"{"id": 3, "framed_b64": "***"}"#, 3, Op::Wrap).is_err());
}

#[test]
fn a_framing_that_decodes_leniently_after_neutralising_breaks_out() {
    if !common::have(
        "python3",
        "a_framing_that_decodes_leniently_after_neutralising_breaks_out",
    ) {
        return;
    }
    let run = run_bytes_cases(&profile("lenient-bytes.yaml"));
    assert_eq!(
        verdict(&run, "bytes-invalid-between-bracket-and-slash"),
        Verdict::Fail
    );
    assert_eq!(
        verdict(&run, "benign-bytes-latin1-record"),
        Verdict::FidelityFail
    );
}

#[test]
fn raw_bytes_round_trip_through_the_node_helper() {
    if !common::have("node", "raw_bytes_round_trip_through_the_node_helper") {
        return;
    }
    let run = run_bytes_cases(&profile("bytes-echo-node.yaml"));
    for r in &run.results {
        assert_eq!(
            r.verdict_at(ReaderLevel::Unicode),
            Verdict::Pass,
            "{}",
            r.case.id
        );
    }
}

#[test]
fn targets_without_the_capability_skip_byte_cases_and_never_see_base64() {
    if !common::have(
        "python3",
        "targets_without_the_capability_skip_byte_cases_and_never_see_base64",
    ) {
        return;
    }
    let old = profile("escape-all.yaml");
    let run = run_bytes_cases(&old);
    assert!(run
        .results
        .iter()
        .all(|r| r.verdict_at(ReaderLevel::Unicode) == Verdict::Skipped));
    // Sent anyway, raw bytes arrive as U+FFFD in `content` and nothing else.
    let mut framing = SubprocessFraming::from_profile(&old).unwrap();
    let framed = framing
        .wrap(&WrapRequest {
            content: format!("x{}y", byte_char(0xFF)),
            kind: "k".into(),
            ..WrapRequest::default()
        })
        .unwrap();
    assert!(framed.contains("x&#xFFFD;y"), "{framed}");
}
