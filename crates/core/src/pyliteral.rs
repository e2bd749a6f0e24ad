//! Python literals as CPython writes and reads them: `repr` of a string
//! (the `python-literal` body encoding) and the literal subset `repr` writes
//! for a record (the `python-document` grammar's syntax). Below both the
//! grammars and the encodings in the module order, since each uses it and it
//! uses neither.

pub mod python;
pub mod python_value;

/// What `python3 -c SCRIPT` prints for `input` (written to its stdin as
/// JSON), parsed as JSON: the two modules' checks against CPython share it.
/// `None` when there is no `python3` (outside CI; under `CI` it fails).
#[cfg(test)]
fn run_python(script: &str, input: &serde_json::Value) -> Option<serde_json::Value> {
    use std::io::Write as _;
    use std::process::{Command, Stdio};
    let spawned = Command::new("python3")
        .args(["-X", "utf8", "-c", script])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn();
    let Ok(mut child) = spawned else {
        assert!(std::env::var_os("CI").is_none(), "python3 is needed in CI");
        eprintln!("SKIP: no python3");
        return None;
    };
    let mut stdin = child.stdin.take().expect("piped stdin");
    stdin.write_all(input.to_string().as_bytes()).unwrap();
    drop(stdin);
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success(), "python3 failed");
    Some(serde_json::from_slice(&out.stdout).unwrap())
}
