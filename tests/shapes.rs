//! Shape fixtures: a correct framing and subtly broken ones for every frame
//! shape framing model v2 describes (issue 8), written in Python and Node
//! under `tests/shapes/`, with the verdicts they must get in
//! `tests/shapes/expectations.yaml`.
//!
//! Three tests:
//!
//! - the expectations file is consistent with the fixtures on disk (every
//!   profile listed once, every broken entry names its checks and its
//!   defect, every shape has a correct fixture and two broken ones);
//! - every fixture adapter starts and answers the protocol (a benign wrap
//!   whose content sits in the frame in the declared encoding, `wrap-many`,
//!   empty content and `read` where the profile declares them);
//! - (ignored until framing model v2 lands) `framecheck run` on each profile
//!   gives the expected verdict at the unicode level, and the checks failing
//!   there are exactly the expected ones.
//!
//! Fixtures need `python3` or `node`. Without one, the tests print a `SKIP`
//! line naming the fixture; under CI (`CI` set) a missing interpreter fails
//! the test instead, so a skipped audit never looks like a passing one.
//! `SHAPES_ONLY=name` runs one fixture (`SHAPES_ONLY=fence/correct`).

use std::collections::{BTreeMap, BTreeSet};
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver};
use std::time::Duration;

use framecheck::level::{fold_str, ReaderLevel};
use serde::Deserialize;
use serde_json::{json, Value};

/// The whole expectations file.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Expectations {
    fixtures: Vec<Fixture>,
}

/// The verdict a fixture must get at the unicode level.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "kebab-case")]
enum Verdict {
    Pass,
    Fail,
}

/// One fixture's entry.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Fixture {
    name: String,
    profile: PathBuf,
    verdict: Verdict,
    #[serde(default)]
    checks: BTreeSet<String>,
    #[serde(default)]
    why: Option<String>,
    #[serde(default)]
    needs: Option<String>,
}

/// The parts of a v2 profile this test reads; everything else is ignored.
#[derive(Debug, Deserialize)]
struct ProfileView {
    name: String,
    adapter: AdapterView,
    #[serde(default)]
    frame: FrameView,
    #[serde(default)]
    body: BodyView,
    #[serde(default)]
    reader: ReaderView,
    capabilities: Vec<String>,
}

#[derive(Debug, Deserialize)]
struct AdapterView {
    command: Vec<String>,
    #[serde(default)]
    cwd: Option<PathBuf>,
}

#[derive(Debug, Default, Deserialize)]
struct FrameView {
    #[serde(default)]
    count: Option<String>,
    #[serde(default)]
    empty: Option<String>,
}

#[derive(Debug, Default, Deserialize)]
struct BodyView {
    #[serde(default)]
    encoding: Option<String>,
    #[serde(default)]
    datamark: Option<String>,
}

#[derive(Debug, Default, Deserialize)]
struct ReaderView {
    #[serde(default)]
    returns: Option<String>,
}

/// The check names a v2 report can carry (src/oracle/mod.rs, plus
/// `frame.outer-text` from docs/profile-v2.md).
const KNOWN_CHECKS: &[&str] = &[
    "frame.shape",
    "frame.outer-text",
    "delimiter.census",
    "canary.containment",
    "tag.integrity",
    "header.integrity",
    "reader.verdict",
    "roundtrip",
    "fidelity",
];

fn shapes_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/shapes")
}

fn load_expectations() -> Vec<Fixture> {
    let path = shapes_dir().join("expectations.yaml");
    let text = std::fs::read_to_string(&path).expect("read tests/shapes/expectations.yaml");
    let parsed: Expectations =
        serde_saphyr::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    parsed.fixtures
}

fn load_profile(fixture: &Fixture) -> ProfileView {
    let path = shapes_dir().join(&fixture.profile);
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("{}: {}: {e}", fixture.name, path.display()));
    serde_saphyr::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The fixtures selected by `SHAPES_ONLY`, or all of them.
fn selected(fixtures: Vec<Fixture>) -> Vec<Fixture> {
    match std::env::var("SHAPES_ONLY") {
        Ok(only) if !only.is_empty() => fixtures.into_iter().filter(|f| f.name == only).collect(),
        _ => fixtures,
    }
}

/// True when `program --version` runs. Otherwise prints a SKIP line, or
/// panics under CI, where both interpreters are installed.
fn interpreter_available(program: &str, fixture: &str) -> bool {
    let runs = Command::new(program)
        .arg("--version")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success());
    if !runs {
        assert!(
            std::env::var_os("CI").is_none(),
            "shapes/{fixture}: `{program}` is not installed, and CI must run every fixture"
        );
        eprintln!("SKIP shapes/{fixture}: `{program}` is not installed");
    }
    runs
}

#[test]
fn expectations_cover_every_fixture_and_name_each_defect() {
    let fixtures = load_expectations();
    let mut problems = Vec::new();
    let mut names = BTreeSet::new();
    let mut listed = BTreeSet::new();
    let mut per_shape: BTreeMap<String, (usize, usize)> = BTreeMap::new();
    for f in &fixtures {
        if !names.insert(f.name.clone()) {
            problems.push(format!("{}: listed twice", f.name));
        }
        if !listed.insert(f.profile.clone()) {
            problems.push(format!(
                "{}: profile {} listed twice",
                f.name,
                f.profile.display()
            ));
        }
        let shape = f.name.split('/').next().unwrap_or_default().to_string();
        let counts = per_shape.entry(shape).or_default();
        match f.verdict {
            Verdict::Pass => {
                counts.0 += 1;
                if !f.checks.is_empty() || f.why.is_some() {
                    problems.push(format!(
                        "{}: a passing fixture has no checks or why",
                        f.name
                    ));
                }
            }
            Verdict::Fail => {
                counts.1 += 1;
                if f.checks.is_empty() || f.why.as_deref().is_none_or(str::is_empty) {
                    problems.push(format!(
                        "{}: a failing fixture needs checks and a why",
                        f.name
                    ));
                }
            }
        }
        for check in &f.checks {
            let nonce = f.needs.as_deref() == Some("nonce-checks") && check.starts_with("nonce.");
            if !KNOWN_CHECKS.contains(&check.as_str()) && !nonce {
                problems.push(format!("{}: unknown check {check:?}", f.name));
            }
        }
        let profile = load_profile(f);
        let dir = shapes_dir()
            .join(&f.profile)
            .parent()
            .unwrap()
            .to_path_buf();
        let cwd = dir.join(profile.adapter.cwd.clone().unwrap_or_else(|| ".".into()));
        let script = profile.adapter.command.get(1).map(|s| cwd.join(s));
        if !script.as_ref().is_some_and(|s| s.is_file()) {
            problems.push(format!("{}: adapter script {script:?} is missing", f.name));
        }
    }
    for (shape, (correct, broken)) in &per_shape {
        if *correct < 1 || *broken < 2 {
            problems.push(format!(
                "shape {shape}: {correct} correct and {broken} broken fixtures; needs 1 and 2"
            ));
        }
    }
    let on_disk = profiles_on_disk();
    for path in on_disk.difference(&listed) {
        problems.push(format!("{} is not in expectations.yaml", path.display()));
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// Every `*.yaml` profile in a shape directory, relative to `tests/shapes`.
fn profiles_on_disk() -> BTreeSet<PathBuf> {
    let mut found = BTreeSet::new();
    for shape in std::fs::read_dir(shapes_dir()).unwrap() {
        let shape = shape.unwrap().path();
        if !shape.is_dir() {
            continue;
        }
        for file in std::fs::read_dir(&shape).unwrap() {
            let path = file.unwrap().path();
            if path.extension().is_some_and(|e| e == "yaml") {
                found.insert(path.strip_prefix(shapes_dir()).unwrap().to_path_buf());
            }
        }
    }
    found
}

/// A running fixture adapter: requests go to its stdin, reply lines come
/// back through a thread so a hung adapter cannot hang the test.
struct Adapter {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
    name: String,
}

impl Adapter {
    fn start(fixture: &Fixture, profile: &ProfileView) -> Adapter {
        let dir = shapes_dir().join(&fixture.profile);
        let dir = dir.parent().unwrap();
        let cwd = dir.join(profile.adapter.cwd.clone().unwrap_or_else(|| ".".into()));
        let (program, args) = profile.adapter.command.split_first().expect("a command");
        let mut child = Command::new(program)
            .args(args)
            .current_dir(&cwd)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .unwrap_or_else(|e| panic!("{}: cannot start {program}: {e}", fixture.name));
        let stdout = child.stdout.take().unwrap();
        let (send, lines) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if send.send(line).is_err() {
                    break;
                }
            }
        });
        Adapter {
            stdin: child.stdin.take(),
            child,
            lines,
            name: fixture.name.clone(),
        }
    }

    /// Sends one request and returns its reply, checking the id.
    fn ask(&mut self, request: Value) -> Value {
        let stdin = self.stdin.as_mut().unwrap();
        writeln!(stdin, "{request}").unwrap();
        stdin.flush().unwrap();
        let line = self
            .lines
            .recv_timeout(Duration::from_secs(20))
            .unwrap_or_else(|_| panic!("{}: no reply to {request}", self.name));
        let reply: Value = serde_json::from_str(&line)
            .unwrap_or_else(|e| panic!("{}: reply {line:?} is not JSON: {e}", self.name));
        assert_eq!(reply["id"], request["id"], "{}: reply id", self.name);
        reply
    }

    /// The `framed` text of a wrap reply; panics on an error reply.
    fn framed(&mut self, request: Value) -> String {
        let reply = self.ask(request);
        match reply["framed"].as_str() {
            Some(framed) => framed.to_string(),
            None => panic!("{}: no framed text in {reply}", self.name),
        }
    }
}

impl Drop for Adapter {
    fn drop(&mut self) {
        drop(self.stdin.take());
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// How `content` must appear in the frame under `body`'s encoding. The probe
/// content is plain ASCII without `<`, `>`, `&` or line breaks, so every
/// fixture, broken or not, writes it the same way.
fn encoded(content: &str, body: &BodyView) -> String {
    match body.encoding.as_deref() {
        None | Some("none") => content.to_string(),
        Some("json-string") => serde_json::to_string(content).unwrap(),
        Some("html-entities") => content.to_string(),
        Some("datamark") => content.replace(' ', body.datamark.as_deref().unwrap_or("^")),
        Some("base64") => base64(content.as_bytes()),
        Some(other) => panic!("unknown body encoding {other:?}"),
    }
}

/// Standard base64 with padding (RFC 4648), enough for the probe.
fn base64(bytes: &[u8]) -> String {
    const ALPHABET: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::new();
    for chunk in bytes.chunks(3) {
        let n = chunk
            .iter()
            .enumerate()
            .fold(0u32, |n, (i, &b)| n | (b as u32) << (16 - 8 * i));
        for i in 0..4 {
            if i <= chunk.len() {
                out.push(ALPHABET[(n >> (18 - 6 * i) & 63) as usize] as char);
            } else {
                out.push('=');
            }
        }
    }
    out
}

fn wrap_request(id: u64, content: &str) -> Value {
    json!({
        "id": id, "op": "wrap", "content": content, "kind": "tool-result",
        "attributes": {"title": "Probe title"}, "provenance": "Written by the shapes test.",
    })
}

/// Drives one fixture through the protocol with benign input.
fn probe(fixture: &Fixture, profile: &ProfileView) {
    let name = &fixture.name;
    let mut adapter = Adapter::start(fixture, profile);
    let content = "Shape probe, plain text only.";
    let framed = adapter.framed(wrap_request(1, content));
    let slot = encoded(content, &profile.body);
    assert!(framed.contains(&slot), "{name}: {slot:?} not in {framed:?}");
    if profile.frame.count.as_deref() == Some("several") {
        let second = "Second probe source.";
        let mut items = vec![wrap_request(0, content), wrap_request(0, second)];
        for item in &mut items {
            item.as_object_mut()
                .unwrap()
                .retain(|k, _| k != "id" && k != "op");
        }
        let many = adapter.framed(json!({"id": 2, "op": "wrap-many", "items": items}));
        let (a, b) = (many.find(&slot), many.find(&encoded(second, &profile.body)));
        assert!(
            matches!((a, b), (Some(a), Some(b)) if a < b),
            "{name}: wrap-many gave {many:?}"
        );
    }
    if profile.frame.empty.as_deref() == Some("nothing") {
        assert_eq!(
            adapter.framed(wrap_request(3, "")),
            "",
            "{name}: empty content"
        );
    }
    if profile.capabilities.iter().any(|c| c == "read") {
        let reply = adapter.ask(json!({"id": 4, "op": "read", "text": framed}));
        let body = reply["body"].as_str();
        assert!(
            body.is_some(),
            "{name}: the reader rejects its own frame: {reply}"
        );
        if profile.reader.returns.as_deref() == Some("content") {
            assert_eq!(
                body,
                Some(content),
                "{name}: the reader must return the content"
            );
        }
        let rejected = adapter.ask(json!({"id": 5, "op": "read", "text": "not a frame"}));
        assert!(
            rejected["body"].is_null(),
            "{name}: reader accepted {rejected}"
        );
    }
}

#[test]
fn every_fixture_adapter_answers_the_protocol() {
    let mut probed = 0;
    for fixture in selected(load_expectations()) {
        let profile = load_profile(&fixture);
        if !interpreter_available(&profile.adapter.command[0], &fixture.name) {
            continue;
        }
        probe(&fixture, &profile);
        probed += 1;
    }
    eprintln!("shapes: {probed} fixture adapters answered the protocol");
}

/// Every character the unicode reader level reads as nothing or as text with
/// an ASCII character in it, with what it reads as: the characters that can
/// take part in a reading of an ASCII token, which a neutraliser must see
/// through.
fn ascii_readings() -> Vec<(char, String)> {
    (0..=0x10FFFFu32)
        .filter_map(char::from_u32)
        .map(|c| (c, fold_str(&c.to_string(), ReaderLevel::Unicode)))
        .filter(|(_, folded)| folded.is_empty() || folded.chars().any(|c| c.is_ascii()))
        .collect()
}

/// Runs `script` with the characters as a JSON array on stdin; it answers
/// with a JSON array of what the fixtures' neutraliser reads each one as.
fn fixture_folds(program: &str, args: &[&str], chars: &[char]) -> Vec<String> {
    let mut child = Command::new(program)
        .args(args)
        .current_dir(shapes_dir().join("lib"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let input: Vec<String> = chars.iter().map(|c| c.to_string()).collect();
    let mut stdin = child.stdin.take().unwrap();
    let writer = std::thread::spawn(move || {
        stdin
            .write_all(serde_json::to_string(&input).unwrap().as_bytes())
            .unwrap()
    });
    let output = child.wait_with_output().unwrap();
    writer.join().unwrap();
    assert!(output.status.success(), "{program} fold script failed");
    serde_json::from_slice(&output.stdout).unwrap()
}

/// The correct fixtures are only as correct as their neutraliser: it must
/// read every character the way the unicode level does wherever that level
/// sees ASCII (or nothing), or a spelling of a token would slip through.
#[test]
fn the_fixtures_neutraliser_reads_like_the_unicode_level() {
    let expected = ascii_readings();
    let chars: Vec<char> = expected.iter().map(|(c, _)| *c).collect();
    let scripts: [(&str, &[&str]); 2] = [
        (
            "python3",
            &["-c", "import json, sys; from fcshape import fold_char; \
                     print(json.dumps([fold_char(c) for c in json.load(sys.stdin)]))"],
        ),
        (
            "node",
            &["--input-type=module", "-e", "import { foldChar } from './fcshape.mjs'; \
               let s = ''; process.stdin.on('data', (d) => (s += d)); \
               process.stdin.on('end', () => console.log(JSON.stringify(JSON.parse(s).map(foldChar))))"],
        ),
    ];
    for (program, args) in scripts {
        if !interpreter_available(program, "lib") {
            continue;
        }
        let folds = fixture_folds(program, args, &chars);
        assert_eq!(folds.len(), expected.len());
        let wrong: Vec<String> = expected
            .iter()
            .zip(&folds)
            .filter(|((_, want), got)| want != *got)
            .map(|((c, want), got)| {
                format!("U+{:04X}: level {want:?}, {program} {got:?}", *c as u32)
            })
            .collect();
        assert!(
            wrong.is_empty(),
            "{} differences:\n{}",
            wrong.len(),
            wrong.join("\n")
        );
    }
}

/// What a report says at the unicode level: its status and the checks that
/// fail there, security and fidelity together. Refusals the case forbade
/// and cases the target did not answer appear as pseudo-checks, so they
/// can never pass for the expected set.
fn unicode_failures(report: &Value) -> (String, BTreeSet<String>) {
    let status = report["status"].as_str().unwrap_or("missing").to_string();
    let mut checks = BTreeSet::new();
    if !report["harness_error"].is_null() {
        checks.insert(format!("harness error: {}", report["harness_error"]));
    }
    for result in report["results"].as_array().into_iter().flatten() {
        let verdict = result["verdicts"]["unicode"].as_str().unwrap_or("missing");
        let outcome = &result["outcome"];
        match (verdict, outcome["status"].as_str()) {
            ("fail" | "fidelity-fail", Some("judged")) => {
                for finding in outcome["findings"].as_array().into_iter().flatten() {
                    let at_unicode = finding["levels"]
                        .as_array()
                        .is_some_and(|l| l.iter().any(|l| l == "unicode"));
                    let counts = match finding["class"].as_str() {
                        Some("security") => at_unicode,
                        Some("fidelity") => true,
                        _ => false, // other classes (nonce confusables) do not fail the gate
                    };
                    if counts {
                        checks.insert(finding["check"].as_str().unwrap_or("?").to_string());
                    }
                }
            }
            ("fidelity-fail", Some(other)) => {
                checks.insert(format!("{other} (forbidden), e.g. {}", result["id"]));
            }
            ("error", _) => {
                checks.insert(format!("error, e.g. {}", result["id"]));
            }
            _ => {}
        }
    }
    (status, checks)
}

/// Runs `framecheck run` on one fixture and says what is wrong, if anything.
fn judge(fixture: &Fixture, profile: &ProfileView) -> Option<String> {
    let out = tempfile::tempdir().unwrap();
    let target = shapes_dir().join(&fixture.profile);
    let output = Command::new(env!("CARGO_BIN_EXE_framecheck"))
        .args(["run", "--target"])
        .arg(&target)
        .args(["--format", "json", "--out"])
        .arg(out.path())
        .output()
        .unwrap();
    let path = out.path().join(format!("{}.json", profile.name));
    let Ok(text) = std::fs::read_to_string(&path) else {
        return Some(format!(
            "no report (exit {:?}): {}",
            output.status.code(),
            String::from_utf8_lossy(&output.stderr).trim()
        ));
    };
    let report: Value = serde_json::from_str(&text).unwrap();
    let (status, failing) = unicode_failures(&report);
    let expected_status = match fixture.verdict {
        Verdict::Pass => "pass",
        Verdict::Fail => "fail",
    };
    if status == expected_status && failing == fixture.checks {
        return None;
    }
    Some(format!(
        "verdict {status} (expected {expected_status}); failing checks {failing:?} \
         (expected {:?}){}",
        fixture.checks,
        fixture
            .why
            .as_ref()
            .map(|w| format!("; defect: {w}"))
            .unwrap_or_default()
    ))
}

#[test]
#[ignore = "enable when framing model v2 lands"]
fn every_fixture_gets_its_expected_verdict_and_checks() {
    let mut wrong = Vec::new();
    let mut judged = 0;
    for fixture in selected(load_expectations()) {
        if let Some(feature) = &fixture.needs {
            eprintln!("SKIP shapes/{}: needs {feature}", fixture.name);
            continue;
        }
        let profile = load_profile(&fixture);
        if !interpreter_available(&profile.adapter.command[0], &fixture.name) {
            continue;
        }
        judged += 1;
        if let Some(problem) = judge(&fixture, &profile) {
            wrong.push(format!("shapes/{}: {problem}", fixture.name));
        }
    }
    eprintln!("shapes: {judged} fixtures judged");
    assert!(
        wrong.is_empty(),
        "found {} fixture(s) with the wrong result:\n{}\n\
         re-run one with SHAPES_ONLY=<name> cargo test --test shapes -- --ignored",
        wrong.len(),
        wrong.join("\n")
    );
}
