//! Every rule of the `adapter:` section, as the message a user reads: the
//! line and column of the field at fault and the rule's words, byte for
//! byte. Issue 53 moved these rules' fields and kinds out of core; these
//! messages were printed by the code before the move (5fd2578, this test
//! run there with the expected texts left empty) and must not change.

use crate::profile::TargetProfile;

/// A profile whose `adapter:` mapping is `lines`, each indented under it
/// from line 3 on.
fn with_adapter(lines: &str) -> String {
    let indented: String = lines.lines().map(|l| format!("  {l}\n")).collect();
    format!("name: x\nadapter:\n{indented}delimiters: {{ syntax: xml-tag, token: t }}\ncapabilities: [wrap]\n")
}

/// `with_adapter` for an `mcp:` mapping, its keys from line 4 on.
fn with_mcp(lines: &str) -> String {
    let indented: String = lines.lines().map(|l| format!("  {l}\n")).collect();
    with_adapter(&format!("mcp:\n{indented}"))
}

const READ: &str = "command: [s]\ntool: r\nplant: argument\narguments: { t: \"{content}\" }";

/// Each rule once: the adapter text and the whole message.
fn cases() -> Vec<(String, &'static str)> {
    let mcp = |extra: &str| with_mcp(&format!("{READ}\n{extra}"));
    vec![
        (with_adapter("command: []"), "line 3, column 12: adapter.command must name a program"),
        (with_adapter("command: [a]\ntimeout_ms: 0"), "line 4, column 15: adapter.timeout_ms must be positive"),
        (with_mcp("command: []\ntool: r\nplant: argument\narguments: { t: \"{content}\" }"), "line 4, column 14: adapter.mcp.command must name a program"),
        (with_mcp("command: []\nurl: \"http://127.0.0.1:8/mcp\"\ntool: r\nplant: file"), "line 4, column 14: adapter.mcp.url needs adapter.mcp.command: framecheck starts the server itself, so it can restart it after a hang and stop it at the end (a server already running elsewhere is not supported)"),
        (mcp("timeout_ms: 0"), "line 8, column 17: adapter.mcp.timeout_ms must be positive"),
        (with_mcp("command: [s]\ntool: r\nplant: http\narguments: { u: x }"), "line 7, column 16: adapter.mcp.arguments: plant `http` needs `{url}` in an argument value, or the tool never reads the content"),
        (mcp("plant_name: a/b"), "line 8, column 17: adapter.mcp.plant_name \"a/b\" must be one file name (no `/`, not `.` or `..`)"),
        (with_mcp("command: [s]\ntool: r\nplant: http\nplant_name: \"v1//q\"\narguments: { u: \"{url}\" }"), "line 7, column 17: adapter.mcp.plant_name \"v1//q\" must be a page path of names separated by `/` (none empty, `.` or `..`)"),
        (mcp("plant_body: x"), "line 8, column 17: adapter.mcp.plant_body is the fixture page's body; it needs `plant: http`"),
        (mcp("url: \"https://127.0.0.1:8443/mcp\""), "line 8, column 10: adapter.mcp.url \"https://127.0.0.1:8443/mcp\" must be a plain http:// URL, such as http://127.0.0.1:{port}/mcp"),
        (mcp("url: \"http://127.0.0.1:{port}/mcp\""), "line 8, column 10: adapter.mcp.url has `{port}` but neither adapter.mcp.command nor env does, so the server cannot know which port to listen on"),
        (with_mcp("command: [s]\ntool: r\nplant: tool"), "line 6, column 12: adapter.mcp: `plant: tool` needs `write` (the tool that stores the content)"),
        (with_mcp("command: [s]\ntool: r\nplant: command"), "line 6, column 12: adapter.mcp: `plant: command` needs `setup` (the command that stores it)"),
        (mcp("clean: tool"), "line 8, column 12: adapter.mcp: `clean: tool` needs `clean_tool` (the tool that deletes a plant)"),
        (mcp("write: { tool: w, arguments: { t: \"{content}\" } }"), "line 8, column 12: adapter.mcp.write is only read with `plant: tool`; the profile does not choose it"),
        (mcp("setup: { command: [x, \"{content}\"] }"), "line 8, column 12: adapter.mcp.setup is only read with `plant: command`; the profile does not choose it"),
        (mcp("clean_tool: { tool: d }"), "line 8, column 17: adapter.mcp.clean_tool is only read with `clean: tool`; the profile does not choose it"),
        (with_mcp("command: [s]\ntool: r\nplant: tool\nwrite: { tool: w, arguments: { t: x } }"), "line 7, column 12: adapter.mcp.write.arguments must hold `{content}` (or `{content_json}`), or the store never gets the content"),
        (with_mcp("command: [s]\ntool: r\nplant: command\nsetup: { command: [x, y] }"), "line 7, column 12: adapter.mcp.setup.command must hold `{content}` (or `{content_json}`), or the store never gets the content"),
        (with_mcp("command: [s]\ntool: r\nplant: command\nsetup: { command: [], input: stdin }"), "line 7, column 12: adapter.mcp.setup.command must name a program"),
        (with_mcp("command: [s]\ntool: r\nplant: command\nsetup: { command: [x], input: file, timeout_ms: 0 }"), "line 7, column 12: adapter.mcp.setup.timeout_ms must be positive"),
        (with_mcp("command: [s]\ntool: r\nplant: tool\nwrite: { tool: w, arguments: { t: \"{content}\" }, id: { pointer: id } }"), "line 7, column 12: adapter.mcp.write.id.pointer \"id\" is not a JSON pointer (RFC 6901): it starts with `/`, as in `/id`"),
        (with_mcp("command: [s]\ntool: r\nplant: tool\nwrite: { tool: w, arguments: { t: \"{content}\" }, id: { pattern: \"(\" } }"), "line 7, column 12: adapter.mcp.write.id.pattern \"(\" is not a regular expression: regex parse error:\n    (\n    ^\nerror: unclosed group"),
        (with_mcp("command: [s]\ntool: r\narguments: { id: \"{id}\" }\nplant: tool\nwrite: { tool: w, arguments: { t: \"{content}\" } }"), "line 6, column 16: adapter.mcp.arguments uses `{id}`, but adapter.mcp.write.id does not say where the write tool's answer has it"),
        (mcp("clean: tool\nclean_tool: { tool: d, arguments: { id: \"{id}\" } }"), "line 9, column 17: adapter.mcp.clean_tool.arguments uses `{id}`, but adapter.mcp.write.id does not say where the write tool's answer has it"),
    ]
}

#[test]
fn every_adapter_rule_prints_its_message_as_before() {
    let mut got = Vec::new();
    for (text, _) in cases() {
        got.push(TargetProfile::parse(&text).unwrap_err().to_string());
    }
    let want: Vec<&str> = cases().into_iter().map(|(_, m)| m).collect();
    assert_eq!(got, want);
}
