//! `framecheck init` against the shape fixtures: the proposed profile
//! validates, and its guesses (grammar, token, encoding, header) are the
//! fixture's own declarations.

use crate::common;

use std::collections::BTreeSet;
use std::path::Path;

use framecheck::grammar::GrammarKind;
use framecheck::init::{propose_for_command, propose_for_profile, InitOptions};
use framecheck::profile::{
    AdapterSpec, BodyEncoding, Encoding, EncodingChoice, HeaderStyle, TargetProfile,
};

/// Proposes a profile for a fixture adapter and parses it back.
fn propose(dir: &str, script: &str) -> TargetProfile {
    let cwd = crate::common::repo().join("tests/shapes").join(dir);
    let yaml = propose_for_command(
        vec!["python3".into(), script.into()],
        &cwd,
        &cwd,
        InitOptions::default(),
    )
    .unwrap_or_else(|e| panic!("{dir}/{script}: {e}"))
    .yaml;
    TargetProfile::parse(&yaml).unwrap_or_else(|e| panic!("{dir}/{script}: {e}\n{yaml}"))
}

#[test]
fn proposals_validate_and_match_the_fixtures_declarations() {
    if !common::have(
        "python3",
        "proposals_validate_and_match_the_fixtures_declarations",
    ) {
        return;
    }
    let preamble = propose("preamble", "correct.py");
    // The language, which the command tells, is proposed (a GUESS).
    assert_eq!(preamble.language, "Python");
    assert_eq!(preamble.delimiters.grammar, GrammarKind::XmlTag);
    assert_eq!(preamble.delimiters.token, "external-data");
    assert_eq!(preamble.body.encoding, Some(BodyEncoding::None.into()));

    let markers = propose("begin-end", "correct_angle.py");
    assert_eq!(markers.delimiters.grammar, GrammarKind::BeginEnd);

    let fence = propose("fence", "correct.py");
    assert_eq!(fence.delimiters.grammar, GrammarKind::Fence);

    let lines = propose("fixed-lines", "correct.py");
    assert_eq!(lines.header.style, HeaderStyle::Lines);

    let separated = propose("separator-header", "correct.py");
    assert_eq!(separated.delimiters.grammar, GrammarKind::BeginEnd);
    assert_eq!(separated.header.style, HeaderStyle::Separator);
    assert_eq!(separated.header.separator.as_deref(), Some("---"));
}

/// A reader stricter than its writer (a parser that rejects the raw `"`
/// its writer leaves in an attribute value) rejects the framing's own
/// frame of the calibration content, which holds a `"`: it is still a
/// reader, and what it returns is learned from a frame it reads, the
/// same content without the quote (issue 57: without this, `init`
/// proposed no reader and a model consumer, and 51 failing cases differed
/// from the hand profile's 401). The correct writer's proposal is the same.
#[test]
fn a_reader_that_rejects_its_own_frame_is_still_proposed() {
    if !common::have(
        "python3",
        "a_reader_that_rejects_its_own_frame_is_still_proposed",
    ) {
        return;
    }
    use framecheck::profile::{Capability, Consumer, ReaderReturns};
    for script in ["broken_attribute_raw_quote.py", "correct_attribute.py"] {
        let proposed = propose("inline-pair", script);
        assert!(proposed.can(Capability::Read), "{script}");
        assert_eq!(proposed.reader.returns, ReaderReturns::Content, "{script}");
        assert!(proposed.reader.parser_reads(), "{script}");
        assert_eq!(
            proposed.reader.consumers(),
            [Consumer::Model, Consumer::Parser],
            "{script}"
        );
    }
}

/// `init` on a built-in profile drives that built-in target: the nonce
/// reference is calibrated as itself, and its proposal keeps the adapter and
/// declares the nonce, so it validates.
#[test]
fn a_builtin_profile_is_proposed_from_its_own_target() {
    let path = crate::common::repo().join("targets/reference-nonce.yaml");
    let loaded = TargetProfile::load(&path).expect("the nonce reference's profile loads");
    let yaml = propose_for_profile(&loaded, InitOptions::default())
        .expect("a proposal")
        .yaml;
    let proposed = TargetProfile::parse(&yaml).unwrap_or_else(|e| panic!("{e}\n{yaml}"));
    assert!(
        matches!(&proposed.adapter, AdapterSpec::Builtin(spec) if spec.builtin == "reference-nonce"),
        "{yaml}"
    );
    assert!(proposed.delimiters.nonce.is_some(), "{yaml}");
    // A stated language is kept as written.
    assert_eq!(proposed.language, "rust", "{yaml}");
    assert!(
        yaml.contains("{nonce:hex"),
        "the learned layout shows the nonce:\n{yaml}"
    );
}

/// Proposes a profile for one framing of `tests/inference/framings.py`,
/// from its command alone.
fn propose_shape(name: &str) -> TargetProfile {
    let cwd = crate::common::repo().join("tests/inference");
    let command = vec!["python3".into(), "framings.py".into(), name.into()];
    propose_for_command(command, &cwd, &cwd, InitOptions::default())
        .unwrap_or_else(|e| panic!("{name}: {e}"))
        .profile
}

/// Markers and nonces the field's framings write, inferred from the
/// adapter command alone: a nonce in the token, a UUID in marker lines,
/// marker lines whose name has spaces, a bracketed name with a digit, and
/// a counter in an attribute that is no nonce.
#[test]
fn markers_and_nonces_are_inferred_from_the_adapter_alone() {
    if !common::have(
        "python3",
        "markers_and_nonces_are_inferred_from_the_adapter_alone",
    ) {
        return;
    }
    use framecheck::grammar::NonceAlphabet;

    let nonce = propose_shape("nonce_tag");
    assert_eq!(nonce.delimiters.token, "untrusted-data-{nonce}");
    let spec = nonce.delimiters.nonce.expect("a nonce");
    assert_eq!(
        (spec.alphabet, spec.min_length),
        (NonceAlphabet::Hex, Some(32))
    );

    let uuid = propose_shape("uuid_markers");
    assert_eq!(uuid.delimiters.grammar, GrammarKind::BeginEnd);
    assert_eq!(uuid.delimiters.token, "EXTERNAL_CONTENT");
    assert_eq!(
        uuid.delimiters.close.as_deref(),
        Some("<<<END_{token} id=\"{nonce}\">>>")
    );
    assert_eq!(uuid.delimiters.nonce.unwrap().alphabet, NonceAlphabet::Uuid);
    assert_eq!(uuid.header.style, HeaderStyle::Separator);

    let dashed = propose_shape("dashed");
    assert_eq!(
        dashed.delimiters.open.as_deref(),
        Some("--- BEGIN TOOL {token} ---")
    );
    assert_eq!(
        dashed.delimiters.close.as_deref(),
        Some("--- END TOOL {token} ---")
    );

    let spaced = propose_shape("spaced_token");
    assert_eq!(
        spaced.delimiters.close.as_deref(),
        Some("[/TOOL {token} 2]")
    );

    // A counter in an attribute is no nonce.
    let counter = propose_shape("counter_tag");
    assert_eq!(counter.delimiters.token, "result");
    assert!(counter.delimiters.nonce.is_none());
}

/// What the framing writes for empty and blank content, for a list of
/// items, and how it encodes the body (a JSON string after fixed text,
/// one stacked inside another, one chosen per content), inferred from the
/// adapter command alone.
#[test]
fn empty_content_lists_and_encodings_are_inferred_from_the_adapter_alone() {
    if !common::have(
        "python3",
        "empty_content_lists_and_encodings_are_inferred_from_the_adapter_alone",
    ) {
        return;
    }
    use framecheck::profile::{EmptyContent, FrameCount};

    let empty = propose_shape("empty_nothing");
    assert_eq!(empty.frame.empty, EmptyContent::Nothing);
    let blank = propose_shape("blank_nothing");
    assert_eq!(blank.frame.empty, EmptyContent::Blank);
    assert_eq!(propose_shape("prefix_tag").frame.empty, EmptyContent::Frame);

    assert_eq!(
        propose_shape("many_single").frame.count,
        FrameCount::Several
    );
    assert_eq!(propose_shape("dashed").frame.count, FrameCount::One);

    // `{"source": …, "text": "{content}"}` on the line after the opener:
    // no header line, and the JSON string is the encoding.
    let json = propose_shape("json_body");
    assert_eq!(json.header.style, HeaderStyle::None);
    assert_eq!(json.body.encoding, Some(BodyEncoding::JsonString.into()));

    // A JSON-RPC result whose value is a JSON document: the content is a
    // JSON string inside a JSON string, found whether the inner writer
    // escapes as the outer one does or spells `<` as `\u003c`.
    let twice = Encoding::stacked(BodyEncoding::JsonString, BodyEncoding::JsonString);
    for name in ["json_rpc", "json_rpc_safe"] {
        let stacked = propose_shape(name);
        assert_eq!(stacked.body.encoding, twice.map(Into::into), "{name}");
        assert_eq!(stacked.delimiters.token, "tool_result", "{name}");
    }

    // Raw when the content needs no escape, a JSON string when it does (or
    // when it has several lines): each output in its own encoding.
    let per_content = EncodingChoice::PerContent(vec![
        BodyEncoding::None.into(),
        BodyEncoding::JsonString.into(),
    ]);
    for name in ["json_when_needed", "json_multiline"] {
        assert_eq!(
            propose_shape(name).body.encoding,
            Some(per_content.clone()),
            "{name}"
        );
    }
}

/// Elements the framing writes or neutralises besides its frame, which
/// of two nested elements is the frame, what its reader is, and which
/// attribute names it writes, inferred from the adapter command alone.
#[test]
fn elements_readers_and_attributes_are_inferred_from_the_adapter_alone() {
    if !common::have(
        "python3",
        "elements_readers_and_attributes_are_inferred_from_the_adapter_alone",
    ) {
        return;
    }
    // A sibling element the framing writes itself is reserved.
    let noted = propose_shape("noted");
    assert_eq!(noted.delimiters.token, "context");
    assert_eq!(noted.delimiters.reserved, vec!["note".to_string()]);
    assert!(propose_shape("prefix_tag").delimiters.reserved.is_empty());

    // Names the framing's own neutraliser treats as structure are
    // reserved; names it writes as given are not.
    let roles = propose_shape("role_defanged");
    assert_eq!(roles.delimiters.token, "tool_output");
    assert_eq!(
        roles.delimiters.reserved,
        vec!["system".to_string(), "assistant".to_string()]
    );
    assert!(propose_shape("dashed").delimiters.reserved.is_empty());

    // An element around the frame: the outer one is the frame when empty
    // content still gets it without the inner one; otherwise the inner
    // one is, and the outer one is reserved.
    let nested = propose_shape("nested_message");
    assert_eq!(
        (
            nested.delimiters.token.as_str(),
            nested.delimiters.inner.as_deref()
        ),
        ("message", Some("text"))
    );
    let always = propose_shape("nested_always");
    assert_eq!(
        (
            always.delimiters.token.as_str(),
            always.delimiters.inner.as_deref()
        ),
        ("text", None)
    );
    assert_eq!(always.delimiters.reserved, vec!["message".to_string()]);

    // A reader that decodes the entities of its markup is a parser, read
    // beside the model the output is for.
    use framecheck::profile::{Consumer, ReaderReturns};
    assert_eq!(nested.reader.returns, ReaderReturns::Content);
    assert_eq!(
        nested.reader.consumers(),
        [Consumer::Model, Consumer::Parser]
    );
    assert_eq!(always.reader.consumers(), [Consumer::Model]);

    // A framing that writes one metadata key it knows by name.
    let subject = propose_shape("subject_attr");
    assert_eq!(subject.attributes.names, Some(vec!["subject".to_string()]));
}

/// Where inference fails, the error names the lines around the content
/// and the shape of what to declare.
#[test]
fn an_unknown_shape_says_what_to_declare() {
    if !common::have("python3", "an_unknown_shape_says_what_to_declare") {
        return;
    }
    let cwd = crate::common::repo().join("tests/inference");
    let command = vec!["python3".into(), "framings.py".into(), "numbered".into()];
    let error = propose_for_command(command, &cwd, &cwd, InitOptions::default())
        .unwrap_err()
        .to_string();
    assert!(error.contains("[[ ## record ## ]]"), "{error}");
    assert!(error.contains("grammar: begin-end"), "{error}");
}

/// `init --out` writes a profile whose `cwd` is relative to the file, so
/// it runs from anywhere; `init --check` on it agrees, and on a profile
/// with the wrong token says the profile does not fit (exit 2), and on
/// one with a field the framing contradicts lists it (exit 1).
#[test]
fn init_writes_a_portable_profile_and_check_compares_one() {
    if !common::have(
        "python3",
        "init_writes_a_portable_profile_and_check_compares_one",
    ) {
        return;
    }
    let root = crate::common::repo();
    // In the project, as a user's profile would be.
    let dir = tempfile::tempdir_in(root.join("target")).unwrap();
    let out = dir.path().join("targets/mine.yaml");
    std::fs::create_dir_all(out.parent().unwrap()).unwrap();
    let framecheck = |args: &[&str], cwd: &Path| common::framecheck_in(cwd, args);
    let init = framecheck(
        &[
            "init",
            "--out",
            out.to_str().unwrap(),
            "--",
            "python3",
            "framings.py",
            "uuid_markers",
        ],
        &root.join("tests/inference"),
    );
    assert!(
        init.status.success(),
        "{}",
        String::from_utf8_lossy(&init.stderr)
    );
    let yaml = std::fs::read_to_string(&out).unwrap();
    assert!(
        !yaml.contains(root.to_str().unwrap()),
        "an absolute cwd:\n{yaml}"
    );
    assert!(yaml.contains("cwd: \"../../../tests/inference\""), "{yaml}");
    let check = framecheck(&["init", "--check", out.to_str().unwrap()], dir.path());
    let said = String::from_utf8_lossy(&check.stdout).into_owned();
    assert_eq!(check.status.code(), Some(0), "{said}");
    assert!(said.contains("agrees"), "{said}");

    let wrong_token = yaml.replace("token: \"EXTERNAL_CONTENT\"", "token: \"EXTERNAL\"");
    std::fs::write(&out, wrong_token).unwrap();
    let check = framecheck(&["init", "--check", out.to_str().unwrap()], dir.path());
    let said = String::from_utf8_lossy(&check.stdout).into_owned();
    assert_eq!(check.status.code(), Some(2), "{said}");
    assert!(
        said.contains("delimiters.token: the profile says \"EXTERNAL\""),
        "{said}"
    );
    assert!(said.contains("does not fit its framing"), "{said}");

    // Declared to give nothing for empty content: the profile still fits
    // (plain content is framed as it says), and the field is listed.
    let drifted = yaml.replace("empty: frame", "empty: nothing");
    std::fs::write(&out, drifted).unwrap();
    let check = framecheck(&["init", "--check", out.to_str().unwrap()], dir.path());
    let said = String::from_utf8_lossy(&check.stdout).into_owned();
    assert_eq!(check.status.code(), Some(1), "{said}");
    assert!(
        said.contains("frame.empty: the profile says nothing, the framing shows frame"),
        "{said}"
    );
}

/// `run` and `search` refuse a profile its framing contradicts: exit 2,
/// the mismatch named, no case or mutant judged.
#[test]
fn run_and_search_refuse_a_profile_the_framing_contradicts() {
    if !common::have(
        "python3",
        "run_and_search_refuse_a_profile_the_framing_contradicts",
    ) {
        return;
    }
    let root = crate::common::repo();
    let out = tempfile::tempdir().unwrap();
    let profile = root.join("tests/inference/wrong-token.yaml");
    for command in ["run", "search"] {
        let mut args = vec![
            command,
            "--target",
            profile.to_str().unwrap(),
            "--out",
            out.path().to_str().unwrap(),
        ];
        if command == "search" {
            args.extend(["--budget", "20"]);
        }
        let output = common::framecheck(&args);
        let said = common::text(&output);
        assert_eq!(output.status.code(), Some(2), "{command}: {said}");
        assert!(
            said.contains("does not fit its framing"),
            "{command}: {said}"
        );
        assert!(said.contains("`answer`"), "{command}: {said}");
    }
    let report = std::fs::read_to_string(out.path().join("wrong-token.json")).unwrap();
    let report: serde_json::Value = serde_json::from_str(&report).unwrap();
    assert_eq!(report["misfit"], true);
    assert_eq!(report["results"].as_array().map(Vec::len), Some(0));
}

/// `init` and `init --check` start the adapter once: the proposal (or the
/// declared profile) is checked against the adapter that was inferred
/// from, so a slow-importing SDK costs its start-up once.
#[test]
fn init_starts_the_adapter_once() {
    if !common::have("python3", "init_starts_the_adapter_once") {
        return;
    }
    let root = crate::common::repo();
    let dir = tempfile::tempdir_in(root.join("target")).unwrap();
    let out = dir.path().join("mine.yaml");
    let log = dir.path().join("starts.log");
    let starts = |args: &[&str]| {
        let _ = std::fs::remove_file(&log);
        let run = common::framecheck_command(args)
            .current_dir(root.join("tests/inference"))
            .env("FRAMINGS_START_LOG", &log)
            .output()
            .unwrap();
        let said = String::from_utf8_lossy(&run.stderr).into_owned();
        assert!(
            run.status.code().is_some_and(|c| c <= 1),
            "{args:?}: {said}"
        );
        std::fs::read_to_string(&log)
            .unwrap_or_default()
            .lines()
            .count()
    };
    let init = ["init", "--out", out.to_str().unwrap(), "--"];
    assert_eq!(
        starts(&[&init[..], &["python3", "framings.py", "dashed"]].concat()),
        1
    );
    assert_eq!(starts(&["init", "--check", out.to_str().unwrap()]), 1);
}

/// Runs `framecheck` in `tests/inference` and gives its status and what it
/// said.
fn framecheck_in_inference(args: &[&str]) -> (Option<i32>, String) {
    let output = common::framecheck_in(&common::repo().join("tests/inference"), args);
    (output.status.code(), common::text(&output))
}

/// The checks that failed in a run's JSON report, with their class
/// (`security`, `fidelity`, `outer-layer`).
fn failed_checks(report: &Path) -> BTreeSet<(String, String)> {
    let text = std::fs::read_to_string(report).unwrap();
    let report: serde_json::Value = serde_json::from_str(&text).unwrap();
    let results = report["results"].as_array().expect("results");
    results
        .iter()
        .filter_map(|r| r["outcome"]["findings"].as_array())
        .flatten()
        .map(|f| {
            let class = f["class"].as_str().unwrap_or_default().to_string();
            (class, f["check"].as_str().unwrap_or_default().to_string())
        })
        .collect()
}

/// The checks failing in a run's report of this class.
fn of_class(checks: &BTreeSet<(String, String)>, class: &str) -> usize {
    checks.iter().filter(|(c, _)| c == class).count()
}

/// `init` for a framing of `framings.py` (its proposal written in `dir`,
/// the encoding line replaced by `encoding` when given), then `run` on
/// that profile: the run's status, what it said, and its failing checks.
fn init_and_run(
    dir: &Path,
    name: &str,
    encoding: Option<&str>,
) -> (Option<i32>, String, BTreeSet<(String, String)>) {
    let profile = dir.join(format!("{name}.yaml"));
    let profile = profile.to_str().unwrap();
    let command = ["python3", "framings.py", name];
    let init = [&["init", "--out", profile, "--"][..], &command].concat();
    let (code, said) = framecheck_in_inference(&init);
    assert_eq!(code, Some(0), "{name}: {said}");
    if let Some(encoding) = encoding {
        let yaml = std::fs::read_to_string(profile).unwrap();
        let line = yaml.lines().find(|l| l.starts_with("body:")).unwrap();
        let yaml = yaml.replace(line, &format!("body: {{ encoding: {encoding} }}"));
        std::fs::write(profile, yaml).unwrap();
    }
    let out = dir.join(name);
    let out = out.to_str().unwrap();
    let (code, said) = framecheck_in_inference(&["run", "--target", profile, "--out", out]);
    let report_name = TargetProfile::load(Path::new(profile))
        .unwrap()
        .profile
        .name
        .clone();
    let checks = failed_checks(&Path::new(out).join(format!("{report_name}.json")));
    (code, said, checks)
}

/// A framing that writes the content as a JSON string inside a JSON string
/// is proposed from its command alone and judged in that encoding: the one
/// that escapes `<` in the inner layer holds (no security finding, where
/// before the run was refused as a misfit), the one that neutralises
/// nothing fails on the breakout, and the one whose inner layer forgets
/// to escape a backslash fails on fidelity alone.
#[test]
fn a_stacked_encoding_is_inferred_and_judged_layer_by_layer() {
    if !common::have(
        "python3",
        "a_stacked_encoding_is_inferred_and_judged_layer_by_layer",
    ) {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let judge = |name: &str| init_and_run(dir.path(), name, None);

    let (code, said, checks) = judge("json_rpc_safe");
    assert_eq!(code, Some(0), "{said}");
    assert_eq!(of_class(&checks, "security"), 0, "{checks:?}");
    assert!(
        !checks.iter().any(|(class, _)| class == "fidelity"),
        "{checks:?}"
    );

    let (code, said, checks) = judge("json_rpc");
    assert_eq!(code, Some(1), "{said}");
    assert!(
        checks.contains(&("security".into(), "delimiter.census".into())),
        "{checks:?}"
    );

    let (code, said, checks) = judge("json_rpc_raw_backslash");
    assert_eq!(code, Some(1), "{said}");
    assert_eq!(of_class(&checks, "security"), 0, "{checks:?}");
    assert!(
        checks.contains(&("fidelity".into(), "fidelity".into())),
        "{checks:?}"
    );
}

/// A framing whose body encoding framecheck has no codec for (percent
/// escapes spelled `=XX`), with an attribute of its own on the opener and
/// a reader that decodes: the layout is learned from plain content, so the
/// run learns none, and the proposal must say what the run cannot learn.
/// Its own `encoding="equals"` is declared (`attributes.extra`) and its
/// reader returns the content: before, every case failed on
/// `tag.integrity` (the framing's own attribute read as injected) and
/// `reader.verdict` (the decoded content judged as a body the reader let
/// through), 1,044 false security findings on a framing that holds. (It
/// was percent-encoding itself until `percent` became a body encoding.)
#[test]
fn an_unknown_encoding_s_own_attributes_and_decoding_reader_are_proposed() {
    if !common::have(
        "python3",
        "an_unknown_encoding_s_own_attributes_and_decoding_reader_are_proposed",
    ) {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let (_, said, checks) = init_and_run(dir.path(), "equals_reader", None);
    assert_eq!(of_class(&checks, "security"), 0, "{checks:?}\n{said}");
    let profile = TargetProfile::load(&dir.path().join("equals_reader.yaml"))
        .unwrap()
        .profile;
    assert_eq!(profile.attributes.extra, ["encoding"]);
    assert_eq!(
        profile.reader.returns,
        framecheck::profile::ReaderReturns::Content
    );
}

/// The same framing with `%XX` (`urllib.parse.quote`): `init` proposes the
/// `percent` body encoding and the decoding reader, and the run under the
/// proposal finds nothing, security or fidelity (under main's 751d21e7,
/// with no such encoding, it passed security and failed 975 cases on
/// `roundtrip`, the blind audit's `percent_encoded`).
#[test]
fn a_percent_body_and_its_decoding_reader_are_proposed_and_hold() {
    if !common::have(
        "python3",
        "a_percent_body_and_its_decoding_reader_are_proposed_and_hold",
    ) {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let (code, said, checks) = init_and_run(dir.path(), "percent_reader", None);
    assert_eq!(code, Some(0), "{checks:?}\n{said}");
    assert!(checks.is_empty(), "{checks:?}\n{said}");
    let profile = TargetProfile::load(&dir.path().join("percent_reader.yaml"))
        .unwrap()
        .profile;
    assert_eq!(
        profile.body.encoding,
        Some(framecheck::profile::BodyEncoding::Percent.into())
    );
    assert_eq!(
        profile.reader.returns,
        framecheck::profile::ReaderReturns::Content
    );
}

/// A framing that writes one-line content raw and other content as a JSON
/// string is proposed as choosing per content, and each output is judged
/// in the encoding it has: the one that writes raw only what needs no
/// escape holds with no finding, and so it does declared `json-string`
/// alone, whose raw outputs (no JSON string) are judged as written rather
/// than as a JSON string that fails to decode (issue 57); the one that
/// writes any one-line content raw fails on the breakout that raw branch
/// lets through.
#[test]
fn an_encoding_chosen_per_content_is_inferred_and_judged_per_output() {
    if !common::have(
        "python3",
        "an_encoding_chosen_per_content_is_inferred_and_judged_per_output",
    ) {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let (code, said, checks) = init_and_run(dir.path(), "json_when_needed", None);
    assert_eq!(code, Some(0), "{said}");
    assert_eq!(of_class(&checks, "security"), 0, "{checks:?}");
    assert_eq!(of_class(&checks, "fidelity"), 0, "{checks:?}");

    let one = tempfile::tempdir().unwrap();
    let (code, said, checks) = init_and_run(one.path(), "json_when_needed", Some("json-string"));
    assert_eq!(code, Some(0), "{said}");
    assert_eq!(of_class(&checks, "fidelity"), 0, "{checks:?}");

    let (code, said, checks) = init_and_run(dir.path(), "json_multiline", None);
    assert_eq!(code, Some(1), "{said}");
    assert!(
        checks.contains(&("security".into(), "delimiter.census".into())),
        "{checks:?}"
    );
    assert_eq!(of_class(&checks, "fidelity"), 0, "{checks:?}");
}

/// Issue 32: `init` proposes the section grammar for framings that write
/// open-only section markers, with the framing's other sections as
/// reserved names, the one after the content first (the closer the
/// catalogue forges); `framecheck run` under the proposed profile passes the
/// correct fixture and catches the broken one.
#[test]
fn section_markers_are_proposed_and_judged_under_the_proposal() {
    if !common::have(
        "python3",
        "section_markers_are_proposed_and_judged_under_the_proposal",
    ) {
        return;
    }
    use framecheck::grammar::SectionMarker;
    let cwd = crate::common::repo().join("tests/shapes/section");
    for (script, marker, token, reserved, verdict) in [
        (
            "correct_field_marker.py",
            SectionMarker::FieldMarker,
            "context",
            &["question"][..],
            0,
        ),
        (
            "broken_field_marker_lf_only.py",
            SectionMarker::FieldMarker,
            "context",
            &["question"][..],
            1,
        ),
        (
            "correct_label.py",
            SectionMarker::Label,
            "Context",
            &["Answer", "Question"][..],
            0,
        ),
        (
            "correct_heading.py",
            SectionMarker::Heading,
            "Document",
            &["Summary", "Task"][..],
            0,
        ),
        (
            "broken_label_as_written.py",
            SectionMarker::Label,
            "Context",
            &["Answer", "Question"][..],
            1,
        ),
    ] {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("proposed.yaml");
        let proposal = propose_for_command(
            vec!["python3".into(), script.into()],
            &cwd,
            dir.path(),
            InitOptions::default(),
        )
        .unwrap_or_else(|e| panic!("{script}: {e}"));
        let d = &proposal.profile.delimiters;
        assert_eq!(d.grammar, GrammarKind::Section, "{script}");
        assert_eq!(
            (d.marker, d.token.as_str()),
            (Some(marker), token),
            "{script}"
        );
        assert_eq!(d.reserved, reserved, "{script}");
        std::fs::write(&out, &proposal.yaml).unwrap();
        let run = common::framecheck_command(&["run", "--target"])
            .arg(&out)
            .args(["--format", "json", "--out"])
            .arg(dir.path())
            .output()
            .unwrap();
        assert_eq!(
            run.status.code(),
            Some(verdict),
            "{script}: {}\n{}",
            String::from_utf8_lossy(&run.stdout),
            proposal.yaml
        );
    }
}

/// `init --mcp --url` reads the endpoint as a profile's `url` (its rules,
/// its messages) and drives the server over HTTP: a server that exits
/// before it listens is named with the endpoint, `{port}` filled in.
#[test]
fn init_mcp_takes_the_http_endpoint() {
    let init = |url: &str, command: &[&str]| {
        let mut args = vec!["init", "--mcp", "--tool", "read_file", "--url", url];
        args.extend(["--arg", "path={workdir}/doc.txt", "--"]);
        args.extend(command);
        let output = common::framecheck(&args);
        (output.status.code(), common::text(&output))
    };
    let (code, said) = init("https://127.0.0.1:8443/mcp", &["srv"]);
    assert_ne!(code, Some(0), "{said}");
    assert!(said.contains("must be a plain http:// URL"), "{said}");
    let (code, said) = init("http://127.0.0.1:{port}/mcp", &["srv"]);
    assert_ne!(code, Some(0), "{said}");
    assert!(said.contains("the server cannot know which port"), "{said}");
    let (code, said) = init(
        "http://127.0.0.1:{port}/mcp",
        &["sh", "-c", "exit 4", "{port}"],
    );
    assert_ne!(code, Some(0), "{said}");
    assert!(
        said.contains("exited (exit status: 4) before it listened at http://127.0.0.1:"),
        "{said}"
    );
    assert!(!said.contains("{port}/mcp"), "{said}");
}

/// `init` checks what `run` and `validate` check before it starts the
/// adapter: a program not on PATH and an interpreter's script that does
/// not exist (relative to where the adapter runs) are named, exit 2, with
/// the words `run` uses.
#[test]
fn init_names_a_program_not_on_path_and_a_missing_script() {
    let dir = tempfile::tempdir().unwrap();
    for (command, expected) in [
        (
            &["no-such-program-framecheck"][..],
            "adapter.command: program \"no-such-program-framecheck\" is not on PATH",
        ),
        (
            &["sh", "no_such.sh"][..],
            "adapter.command: script \"no_such.sh\" does not exist in ",
        ),
    ] {
        let mut args = vec!["init", "--"];
        args.extend(command);
        let output = common::framecheck_in(dir.path(), &args);
        let said = common::text(&output);
        assert_eq!(output.status.code(), Some(2), "{said}");
        assert!(said.contains("the adapter cannot start: "), "{said}");
        assert!(said.contains(expected), "{said}");
    }
}

/// `--plant`, `--setup-input` and `--clean` are closed sets: a wrong value
/// is a usage error that lists the choices, before any server starts.
#[test]
fn init_mcp_store_flags_name_their_choices() {
    let wrong = [
        (
            vec!["--plant", "disk"],
            "file, http, argument, tool, command",
        ),
        (
            vec!["--setup", "cat {content}", "--setup-input", "pipe"],
            "argument, stdin, file",
        ),
        (vec!["--clean", "wipe"], "none, restart, workdir, tool"),
    ];
    for (flags, choices) in wrong {
        let mut args = vec!["init", "--mcp", "--tool", "read_file"];
        args.extend(&flags);
        args.extend(["--", "/nonexistent/server"]);
        let output = common::framecheck(&args);
        let said = common::text(&output);
        assert_eq!(output.status.code(), Some(2), "{said}");
        assert!(
            said.contains(&format!("invalid value '{}'", flags[flags.len() - 1])),
            "{said}"
        );
        assert!(
            said.contains(&format!("[possible values: {choices}]")),
            "{said}"
        );
        assert!(!said.contains("/nonexistent/server"), "{said}");
    }
}

/// `init --mcp --write-tool` writes the store plant into the adapter it
/// proposes from, read as a profile's (its rules, its messages), before
/// any server starts; `--plant` defaults to `tool` with it.
#[test]
fn init_mcp_takes_a_write_tool_and_its_id() {
    let init = |extra: &[&str]| {
        let mut args = vec!["init", "--mcp", "--tool", "note_read", "--arg", "id={id}"];
        args.extend(extra);
        args.extend(["--", "/nonexistent/server"]);
        let output = common::framecheck(&args);
        (output.status.code(), common::text(&output))
    };
    // Given arguments that do not take the content leave it to the
    // tool's input schema, for which the server is started.
    let (code, said) = init(&["--write-tool", "note_add", "--write-arg", "text=x"]);
    assert_ne!(code, Some(0), "{said}");
    assert!(said.contains("/nonexistent/server"), "{said}");
    let content = ["--write-tool", "note_add", "--write-arg", "text={content}"];
    let (code, said) = init(&content);
    assert_ne!(code, Some(0), "{said}");
    assert!(said.contains("adapter.mcp.arguments uses `{id}`"), "{said}");
    let (code, said) = init(&[&content[..], &["--id-pattern", "("]].concat());
    assert_ne!(code, Some(0), "{said}");
    assert!(said.contains("is not a regular expression"), "{said}");
    // A valid store plant gets as far as starting the server.
    let (code, said) =
        init(&[&content[..], &["--id-pointer", "/id", "--clean", "restart"]].concat());
    assert_ne!(code, Some(0), "{said}");
    assert!(said.contains("/nonexistent/server"), "{said}");
    let (code, said) = init(&["--plant", "command"]);
    assert_ne!(code, Some(0), "{said}");
    assert!(said.contains("`plant: command` needs `setup`"), "{said}");
    // `--setup` is one command line, split as a shell would (no shell
    // run), and makes the plant `command`; its words are read as a
    // profile's `setup.command`.
    let init = |extra: &[&str]| {
        let mut args = vec![
            "init",
            "--mcp",
            "--tool",
            "read_file",
            "--arg",
            "path={workdir}/c",
        ];
        args.extend(extra);
        args.extend(["--", "/nonexistent/server"]);
        let output = common::framecheck(&args);
        (output.status.code(), common::text(&output))
    };
    let (code, said) = init(&["--setup", "git commit -m \"unclosed"]);
    assert_ne!(code, Some(0), "{said}");
    assert!(
        said.contains("--setup \"git commit -m \\\"unclosed\": expected a command line"),
        "{said}"
    );
    let (code, said) = init(&["--setup", "cp '{workdir}/a b' {workdir}/c"]);
    assert_ne!(code, Some(0), "{said}");
    assert!(
        said.contains("setup.command must hold `{content}`"),
        "{said}"
    );
    let (code, said) = init(&[
        "--setup",
        "cp '{workdir}/a b' {workdir}/c",
        "--setup-input",
        "file",
    ]);
    // A valid setup runs before the server starts: its quoted word is one
    // argument, and a store that refuses the benign calibration plant is
    // no audit (init fails, naming what the store said).
    assert_ne!(code, Some(0), "{said}");
    assert!(
        said.contains("the store refused this content")
            && said.contains("cannot stat '{workdir}/a b'"),
        "{said}"
    );
}

/// This workspace's MCP test server, built beside the framecheck binary
/// (`cargo test` builds every default member's binaries first); a visible
/// skip when only this package was built, a failure under `CI=true`.
fn mcp_test_server(test: &str) -> Option<std::path::PathBuf> {
    let server =
        Path::new(env!("CARGO_BIN_EXE_framecheck")).with_file_name("framecheck-mcp-test-server");
    common::require(server.is_file(), &server.display().to_string(), test).then_some(server)
}

/// `init --mcp --write-tool` end to end through the CLI against the test
/// server's notes store: with no `--write-arg` the write tool's arguments
/// come from its input schema, each choice said; with one that does not
/// take the content, it is kept and the schema gives the rest. Each
/// proposal is written only after it planted through those arguments and
/// fit what came back.
#[test]
fn init_mcp_derives_the_write_arguments_the_cli_was_not_given() {
    let Some(server) =
        mcp_test_server("init_mcp_derives_the_write_arguments_the_cli_was_not_given")
    else {
        return;
    };
    let server = server.to_str().unwrap();
    let dir = tempfile::tempdir().unwrap();
    for (given, expected, said) in [
        (
            &[][..],
            serde_json::json!({ "text": "{content}" }),
            &["`text` takes the content (a string)"][..],
        ),
        (
            &["--write-arg", "tag=mine"][..],
            serde_json::json!({ "text": "{content}", "tag": "mine" }),
            &[
                "`text` takes the content (a string)",
                "`tag`: \"mine\" (given)",
            ][..],
        ),
    ] {
        let out = dir.path().join("notes.yaml");
        let mut args = vec!["init", "--mcp", "--tool", "note_read", "--arg", "id={id}"];
        args.extend(["--write-tool", "note_add", "--id-pointer", "/id"]);
        args.extend(given);
        args.extend(["--out", out.to_str().unwrap(), "--", server, "framed"]);
        let output = common::framecheck_in(dir.path(), &args);
        let text = common::text(&output);
        assert_eq!(output.status.code(), Some(0), "{given:?}: {text}");
        for choice in said {
            assert!(text.contains(choice), "{given:?}: {choice} not in {text}");
        }
        let profile = framecheck::profile::TargetProfile::load(&out)
            .unwrap()
            .profile;
        let framecheck::profile::AdapterSpec::Mcp { mcp } = &profile.adapter else {
            panic!("not an mcp adapter: {:?}", profile.adapter);
        };
        let write = mcp.write.as_ref().expect("a write tool");
        assert_eq!(
            serde_json::to_value(&write.arguments).unwrap(),
            expected,
            "{given:?}"
        );
        assert_eq!(
            profile.delimiters.token, "framecheck-untrusted",
            "{given:?}"
        );
    }
}

/// `init --mcp --env` and `--clean-arg-json`: a store configured through
/// its environment and cleaned by a delete tool whose arguments are JSON
/// (the reference memory server: `MEMORY_FILE_PATH={workdir}/…` and
/// `delete_entities { entityNames: [..] }`) is proposed from the command
/// line alone. The clean tool runs after each of init's own plants, so
/// arguments it refuses fail the proposal.
#[test]
fn init_mcp_takes_the_servers_environment_and_json_clean_arguments() {
    let Some(server) =
        mcp_test_server("init_mcp_takes_the_servers_environment_and_json_clean_arguments")
    else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("notes.yaml");
    let mut args = vec!["init", "--mcp", "--tool", "note_read", "--arg", "id={id}"];
    args.extend(["--write-tool", "note_add", "--write-arg", "text={content}"]);
    args.extend(["--id-pointer", "/id", "--clean", "tool"]);
    args.extend([
        "--clean-tool",
        "note_delete",
        "--clean-arg-json",
        "id=\"{id}\"",
    ]);
    args.extend(["--env", "NOTES_FILE={workdir}/notes.json"]);
    args.extend(["--out", out.to_str().unwrap(), "--"]);
    args.extend([server.to_str().unwrap(), "framed"]);
    let output = common::framecheck_in(dir.path(), &args);
    let text = common::text(&output);
    assert_eq!(output.status.code(), Some(0), "{text}");
    let profile = framecheck::profile::TargetProfile::load(&out)
        .unwrap()
        .profile;
    let framecheck::profile::AdapterSpec::Mcp { mcp } = &profile.adapter else {
        panic!("not an mcp adapter: {:?}", profile.adapter);
    };
    assert_eq!(
        serde_json::to_value(&mcp.env).unwrap(),
        serde_json::json!({ "NOTES_FILE": "{workdir}/notes.json" })
    );
    assert_eq!(mcp.clean, framecheck::profile::Clean::Tool);
    let clean = mcp.clean_tool.as_ref().expect("a clean tool");
    assert_eq!(clean.tool, "note_delete");
    assert_eq!(
        serde_json::to_value(&clean.arguments).unwrap(),
        serde_json::json!({ "id": "{id}" })
    );
    // A value that is not JSON is a usage error naming the flag.
    let bad = ["init", "--mcp", "--tool", "t", "--clean-tool", "d"];
    let output = common::framecheck(&[&bad[..], &["--clean-arg-json", "k=[", "--", "x"]].concat());
    let said = common::text(&output);
    assert_ne!(output.status.code(), Some(0), "{said}");
    assert!(
        said.contains("--clean-arg-json \"k=[\": expected KEY=JSON"),
        "{said}"
    );
}

/// A document whose content is its last string (`str()` of rows as dicts,
/// the reference SQLite MCP server's answer; `json.dumps` of a record
/// ending with the content) has no quote after the content's own: `init`
/// proposes the document grammar at the content's pointer, bounded by the
/// document's bracket, where it once failed with "no live closing
/// delimiter".
#[test]
fn a_document_whose_content_is_its_last_string_is_proposed() {
    if !common::have(
        "python3",
        "a_document_whose_content_is_its_last_string_is_proposed",
    ) {
        return;
    }
    let cwd = common::repo().join("adapters/python");
    for (answer, grammar, token) in [
        (
            "str([{'id': 1, 'body': content}])",
            GrammarKind::PythonDocument,
            "/0/body",
        ),
        (
            "json.dumps({'url': 'u', 'content': content})",
            GrammarKind::JsonDocument,
            "/content",
        ),
        // A string with nothing around it: the whole document's pointer.
        ("json.dumps(content)", GrammarKind::JsonDocument, ""),
        (
            "'Result: ' + repr(content)",
            GrammarKind::PythonDocument,
            "",
        ),
    ] {
        let script = format!(
            "import json\nfrom framecheck_adapter import serve\n\
             serve(lambda content, kind, attributes, provenance: {answer})\n"
        );
        let command = vec!["python3".into(), "-c".into(), script];
        let yaml = propose_for_command(command, &cwd, &cwd, InitOptions::default())
            .unwrap_or_else(|e| panic!("{answer}: {e}"))
            .yaml;
        let profile = TargetProfile::parse(&yaml).unwrap_or_else(|e| panic!("{e}\n{yaml}"));
        assert_eq!(profile.delimiters.grammar, grammar, "{answer}");
        assert_eq!(profile.delimiters.token, token, "{answer}");
    }
}
