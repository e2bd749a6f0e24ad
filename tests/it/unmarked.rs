//! `delimiters: none`: a framing that puts no marker around the content is
//! judged by benign plants alone. In-process framings that return the
//! content as it is, or after a constant line, get the computed
//! `frame.absent` verdict (no level held, one finding that replays through
//! `unmarked::judge`, the reports saying no catalogue case was judged); a
//! framing that does frame the content contradicts such a profile, as an
//! unmarked framing contradicts a profile that declares delimiters; and the
//! CLI end to end (`init`, `init --check`, `run`, `search`).

use framecheck::adapter::reference::Reference;
use framecheck::adapter::{Framing, TargetError, WrapRequest};
use framecheck::catalogue;
use framecheck::level::ReaderLevel;
use framecheck::oracle::{Check, CheckClass};
use framecheck::profile::TargetProfile;
use framecheck::report::{self, summary::Summary};
use framecheck::runner::{self, unmarked, RunResult, Verdict};

/// Returns the content after `preamble`, and nothing else.
struct Bare {
    preamble: &'static str,
}

impl Framing for Bare {
    fn wrap(&mut self, request: &WrapRequest) -> Result<String, TargetError> {
        Ok(format!("{}{}", self.preamble, request.content))
    }

    fn read(&mut self, _text: &str) -> Result<Option<String>, TargetError> {
        Ok(None)
    }
}

/// Writes the content's length before it: a preamble that changes with it.
struct Counted;

impl Framing for Counted {
    fn wrap(&mut self, request: &WrapRequest) -> Result<String, TargetError> {
        Ok(format!(
            "{} bytes:\n{}",
            request.content.len(),
            request.content
        ))
    }

    fn read(&mut self, _text: &str) -> Result<Option<String>, TargetError> {
        Ok(None)
    }
}

fn profile(delimiters: &str) -> TargetProfile {
    TargetProfile::parse(&format!(
        "name: bare\nadapter: {{ builtin: caller }}\ndelimiters: {delimiters}\ncapabilities: [wrap]\n"
    ))
    .unwrap()
}

fn run(framing: &mut dyn Framing, profile: &TargetProfile) -> RunResult {
    let cases = catalogue::instantiate(&catalogue::builtin(), profile);
    let options = runner::RunOptions::default();
    runner::run(&cases, profile, framing, &options, &mut |_| {})
}

#[test]
fn delimiters_none_parses_writes_back_and_instantiates_no_case() {
    let none = profile("none");
    assert!(none.delimiters.absent);
    assert!(catalogue::instantiate(&catalogue::builtin(), &none).is_empty());
    let json = serde_json::to_value(&none).unwrap();
    assert_eq!(json["delimiters"], "none");
    let back: TargetProfile = serde_json::from_value(json).unwrap();
    assert_eq!(back, none);
    let tags = profile("{ grammar: xml-tag, token: doc }");
    assert!(!tags.delimiters.absent);
    assert_eq!(
        serde_json::to_value(&tags).unwrap()["delimiters"]["token"],
        "doc"
    );
    // Another word is no declaration, and a mapping's errors read as before.
    let other =
        "name: x\nadapter: { builtin: caller }\ndelimiters: nothing\ncapabilities: [wrap]\n";
    assert!(TargetProfile::parse(other).is_err());
    let unknown = "name: x\nadapter: { builtin: caller }\ndelimiters: { grammar: xml-tag, token: t, color: red }\ncapabilities: [wrap]\n";
    let error = TargetProfile::parse(unknown).unwrap_err().to_string();
    assert!(error.contains("color"), "{error}");
}

#[test]
fn raw_content_gets_the_computed_frame_absent_verdict() {
    for preamble in ["", "Contents of the page:\n"] {
        let run = run(&mut Bare { preamble }, &profile("none"));
        assert!(run.meta.unmarked && !run.meta.misfit, "{:?}", run.meta);
        assert_eq!(run.meta.harness_error, None);
        assert_eq!(run.results.len(), 1);
        let result = &run.results[0];
        assert_eq!(result.case.id, unmarked::CASE_ID);
        for level in ReaderLevel::ALL {
            assert_eq!(result.verdict_at(level), Verdict::Fail, "{level}");
        }
        let findings = result.findings_at(ReaderLevel::Exact);
        assert_eq!(findings.len(), 1);
        assert_eq!(findings[0].check, Check::FrameAbsent);
        assert_eq!(findings[0].class, CheckClass::Security);
        // The evidence replays: the plant and what came back give the
        // same verdict again.
        let framed = result.evidence.framed.as_deref().unwrap();
        let content = match &result.case.input {
            catalogue::Input::Wrap(request) => request.content.clone(),
            other => panic!("{other:?}"),
        };
        assert_eq!(framed, format!("{preamble}{content}"));
        assert_eq!(unmarked::judge(&[(&content, framed)]), Ok(preamble.into()));
        let summary = Summary::of(&run);
        assert_eq!(summary.highest_level_held, None);
        assert_eq!(summary.exit_code(), 1);
        let markdown = report::markdown::render(&run);
        assert!(markdown.contains("frame.absent"), "{markdown}");
        assert!(
            markdown.contains("No catalogue case was judged"),
            "{markdown}"
        );
        let json = report::json::render(&run);
        let value: serde_json::Value = serde_json::from_str(&json).unwrap();
        assert_eq!(value["unmarked"], true);
        assert_eq!(value["target"]["delimiters"], "none");
        assert_eq!(
            value["results"][0]["outcome"]["findings"][0]["check"],
            "frame.absent"
        );
        let back = report::json::parse(&json).unwrap();
        assert!(back.meta.unmarked && back.meta.target.delimiters.absent);
        let sarif = report::sarif::render(&run);
        assert!(sarif.contains("\"ruleId\": \"frame.absent\""), "{sarif}");
        assert!(runner::check_fit(
            &profile("none"),
            &mut Bare { preamble },
            ReaderLevel::Unicode
        )
        .is_ok());
    }
}

#[test]
fn a_framed_output_contradicts_delimiters_none() {
    let run = run(&mut Reference, &profile("none"));
    assert!(run.meta.misfit && !run.meta.unmarked);
    assert!(run.results.is_empty());
    let error = run.meta.harness_error.unwrap();
    assert!(error.contains("shows a frame"), "{error}");
    assert!(error.contains("framecheck-untrusted"), "{error}");
    // A preamble that changes with the content is no constant text.
    let run = self::run(&mut Counted, &profile("none"));
    assert!(run.meta.misfit && run.results.is_empty());
    let error = run.meta.harness_error.unwrap();
    assert!(error.contains("changes with it"), "{error}");
    assert!(runner::check_fit(&profile("none"), &mut Reference, ReaderLevel::Unicode).is_err());
}

#[test]
fn unmarked_content_contradicts_declared_delimiters() {
    let tags = profile("{ grammar: xml-tag, token: document }");
    let run = run(&mut Bare { preamble: "" }, &tags);
    assert!(run.meta.misfit && !run.meta.unmarked);
    assert!(run.results.is_empty());
    let error = run.meta.harness_error.unwrap();
    assert!(
        error.starts_with("the profile does not fit its framing"),
        "{error}"
    );
}

/// A protocol adapter that returns the content after one constant line.
const BARE_ADAPTER: &str = r#"import json, sys
for line in sys.stdin:
    request = json.loads(line)
    if request.get("op") == "wrap":
        reply = {"id": request["id"], "framed": "Fetched text:\n" + request["content"]}
    else:
        reply = {"id": request["id"], "error": "unsupported"}
    print(json.dumps(reply), flush=True)
"#;

/// End to end through the CLI: `init` proposes `delimiters: none` for an
/// adapter that frames nothing, `init --check` agrees, `run` writes the
/// computed verdict (exit 1) and `search` refuses the profile.
#[test]
fn init_check_and_run_agree_on_an_adapter_that_frames_nothing() {
    if !crate::common::have(
        "python3",
        "init_check_and_run_agree_on_an_adapter_that_frames_nothing",
    ) {
        return;
    }
    let root = crate::common::repo();
    let dir = tempfile::tempdir_in(root.join("target")).unwrap();
    std::fs::write(dir.path().join("bare.py"), BARE_ADAPTER).unwrap();
    let framecheck = |args: &[&str]| crate::common::framecheck_in(dir.path(), args);
    let init = framecheck(&["init", "--out", "bare.yaml", "--", "python3", "bare.py"]);
    let said = crate::common::text(&init);
    assert!(init.status.success(), "{said}");
    assert!(said.contains("no frame found"), "{said}");
    let yaml = std::fs::read_to_string(dir.path().join("bare.yaml")).unwrap();
    assert!(yaml.contains("delimiters: none"), "{yaml}");
    // Named after its file, `cwd` relative to it (`--out` in the current
    // directory once wrote an absolute one).
    assert!(yaml.contains("\nname: bare\n"), "{yaml}");
    assert!(yaml.contains("cwd: \".\""), "{yaml}");
    // One request gets seconds; the start, a slow import's time.
    assert!(yaml.contains("timeout_ms: 10000  # per request"), "{yaml}");
    assert!(yaml.contains("startup_ms: 60000"), "{yaml}");
    let check = framecheck(&["init", "--check", "bare.yaml"]);
    let said = crate::common::text(&check);
    assert_eq!(check.status.code(), Some(0), "{said}");
    assert!(said.contains("agrees"), "{said}");
    let run = framecheck(&["run", "--target", "bare.yaml", "--out", "out"]);
    assert_eq!(run.status.code(), Some(1), "{}", crate::common::text(&run));
    let report = std::fs::read_to_string(dir.path().join("out/bare.json")).unwrap();
    let report: serde_json::Value = serde_json::from_str(&report).unwrap();
    assert_eq!(report["unmarked"], true);
    assert_eq!(report["results"].as_array().unwrap().len(), 1);
    let search = framecheck(&["search", "--target", "bare.yaml", "--out", "s"]);
    assert_eq!(search.status.code(), Some(2));
    assert!(crate::common::text(&search).contains("delimiters: none"));
}

/// `init --mcp --arg-json` gives a tool argument that is no string; a
/// value that is not JSON is refused before any server starts.
#[test]
fn arg_json_must_be_json() {
    let out = crate::common::framecheck(&[
        "init",
        "--mcp",
        "--tool",
        "t",
        "--arg-json",
        "raw=yes",
        "--",
        "/nonexistent",
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        crate::common::text(&out).contains("--arg-json \"raw=yes\": expected KEY=JSON"),
        "{}",
        crate::common::text(&out)
    );
}
