//! What each way of making an MCP store clean costs per plant, through this
//! crate's test server (`src/main.rs`, its notes
//! tools), stdio, no framing work to speak of: a write and a read by id
//! (`clean: none`), plus a delete (`clean: tool`), a server restart
//! (`clean: restart`), or a fresh work directory and a restart (`clean:
//! workdir`, the notes kept in a file there, the only strategy that clears
//! one); and a `plant: command` whose setup command (`sh`) writes the file
//! the server reads. The notes are in the server's memory otherwise: under
//! `clean: none` a file would grow with every iteration.

use std::path::Path;
use std::time::Duration;

use criterion::{criterion_group, criterion_main, Criterion};
use framecheck_launch::profile::McpSpec;
use framecheck_run::adapter::mcp::McpFraming;
use framecheck_run::adapter::{Framing, WrapRequest};

const SERVER: &str = env!("CARGO_BIN_EXE_framecheck-mcp-test-server");

/// The notes server in `raw` mode, its notes in `{workdir}` when
/// `on_disk`, planted by `note_add`, read by id, with `clean` merged in.
fn notes(on_disk: bool, clean: serde_json::Value) -> McpSpec {
    let mut command = vec![SERVER, "raw"];
    if on_disk {
        command.extend(["--store", "{workdir}/notes.json"]);
    }
    let mut spec = serde_json::json!({
        "command": command,
        "tool": "note_read",
        "arguments": { "id": "{id}" },
        "plant": "tool",
        "write": { "tool": "note_add", "arguments": { "text": "{content}" }, "id": { "pointer": "/id" } },
    });
    for (key, value) in clean.as_object().expect("an object") {
        spec[key] = value.clone();
    }
    serde_json::from_value(spec).expect("a valid adapter")
}

fn setup_command() -> McpSpec {
    serde_json::from_value(serde_json::json!({
        "command": [SERVER, "raw"],
        "tool": "read_file",
        "arguments": { "path": "{workdir}/stored.txt" },
        "plant": "command",
        "setup": { "command": ["sh", "-c", "cat > \"$0/stored.txt\"", "{workdir}"], "input": "stdin" },
    }))
    .expect("a valid adapter")
}

fn bench_clean(c: &mut Criterion) {
    let request = WrapRequest {
        content: "A short note, about the size of an issue title.".into(),
        ..WrapRequest::default()
    };
    let mut group = c.benchmark_group("mcp_clean");
    group.sample_size(10);
    group.warm_up_time(Duration::from_millis(500));
    group.measurement_time(Duration::from_secs(3));
    let strategies = [
        ("none", notes(false, serde_json::json!({}))),
        (
            "tool",
            notes(
                false,
                serde_json::json!({
                "clean": "tool",
                "clean_tool": { "tool": "note_delete", "arguments": { "id": "{id}" } },
                }),
            ),
        ),
        (
            "restart",
            notes(false, serde_json::json!({ "clean": "restart" })),
        ),
        (
            "workdir",
            notes(true, serde_json::json!({ "clean": "workdir" })),
        ),
        ("setup_command", setup_command()),
    ];
    for (name, spec) in strategies {
        let mut framing = McpFraming::new(&spec, Path::new(".")).expect("a target");
        // The first plant starts the server outside the measurement.
        framing.wrap(&request).expect("the server answers");
        group.bench_function(name, |b| {
            b.iter(|| framing.wrap(&request).expect("the server answers"))
        });
    }
    group.finish();
}

criterion_group!(benches, bench_clean);
criterion_main!(benches);
