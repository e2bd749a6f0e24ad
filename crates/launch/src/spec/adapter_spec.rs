//! Reading a profile's `adapter:` mapping into its kind's spec (each kind
//! writes itself back, as a proposal does, in its own module).
//!
//! The two shapes (`builtin: NAME`, or `command: [...]` with its options)
//! used to be told apart by serde's untagged enums, whose only error is "data
//! did not match any variant of untagged enum AdapterSpec". Reading every
//! key into one struct first gives each mistake its own message: an unknown
//! key is named with the keys allowed, and a mapping with neither shape (or
//! both) says what to write. A third shape, `mcp: {...}`, is a mapping of
//! its own ([`McpSpec`], unknown keys refused) and stands alone.

use std::collections::BTreeMap;
use std::path::PathBuf;

use serde::Deserialize;

use super::subprocess::{default_max_reply_bytes, default_timeout_ms};
use super::{AdapterSpec, BuiltinSpec, McpSpec, ProcessMode, SubprocessSpec};

/// Every key an `adapter:` mapping may hold.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawAdapter {
    builtin: Option<String>,
    command: Option<Vec<String>>,
    cwd: Option<PathBuf>,
    env: Option<BTreeMap<String, String>>,
    timeout_ms: Option<u64>,
    startup_ms: Option<u64>,
    mode: Option<ProcessMode>,
    max_reply_bytes: Option<usize>,
    mcp: Option<McpSpec>,
}

impl TryFrom<RawAdapter> for AdapterSpec {
    type Error = AdapterError;

    fn try_from(raw: RawAdapter) -> Result<AdapterSpec, AdapterError> {
        let subprocess_keys = [
            raw.command.is_some().then_some(ProcessKey::Command),
            raw.cwd.is_some().then_some(ProcessKey::Cwd),
            raw.env.is_some().then_some(ProcessKey::Env),
            raw.timeout_ms.is_some().then_some(ProcessKey::TimeoutMs),
            raw.startup_ms.is_some().then_some(ProcessKey::StartupMs),
            raw.mode.is_some().then_some(ProcessKey::Mode),
            raw.max_reply_bytes
                .is_some()
                .then_some(ProcessKey::MaxReplyBytes),
        ];
        let given: Vec<ProcessKey> = subprocess_keys.into_iter().flatten().collect();
        if let Some(mcp) = raw.mcp {
            if raw.builtin.is_some() || !given.is_empty() {
                return Err(AdapterError::McpWithOthers);
            }
            return Ok(AdapterSpec::Mcp { mcp: Box::new(mcp) });
        }
        match (raw.builtin, raw.command) {
            (Some(_), _) if !given.is_empty() => Err(AdapterError::BuiltinWithProcess(given)),
            (Some(builtin), None) => Ok(AdapterSpec::Builtin(BuiltinSpec { builtin })),
            (None, Some(command)) => Ok(AdapterSpec::Subprocess(SubprocessSpec {
                command,
                cwd: raw.cwd,
                env: raw.env.unwrap_or_default(),
                timeout_ms: raw.timeout_ms.unwrap_or_else(default_timeout_ms),
                startup_ms: raw.startup_ms,
                mode: raw.mode.unwrap_or_default(),
                max_reply_bytes: raw.max_reply_bytes.unwrap_or_else(default_max_reply_bytes),
            })),
            (None, None) => Err(AdapterError::NeitherShape),
            (Some(_), Some(_)) => unreachable!("caught by the first arm"),
        }
    }
}

/// A key of `adapter:` that only a subprocess target has.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ProcessKey {
    /// `command`.
    Command,
    /// `cwd`.
    Cwd,
    /// `env`.
    Env,
    /// `timeout_ms`.
    TimeoutMs,
    /// `startup_ms`.
    StartupMs,
    /// `mode`.
    Mode,
    /// `max_reply_bytes`.
    MaxReplyBytes,
}

impl ProcessKey {
    /// The key as written in a profile.
    pub fn name(self) -> &'static str {
        match self {
            ProcessKey::Command => "command",
            ProcessKey::Cwd => "cwd",
            ProcessKey::Env => "env",
            ProcessKey::TimeoutMs => "timeout_ms",
            ProcessKey::StartupMs => "startup_ms",
            ProcessKey::Mode => "mode",
            ProcessKey::MaxReplyBytes => "max_reply_bytes",
        }
    }
}

/// Why an `adapter:` mapping has neither usable shape. The YAML parser
/// reports it (with the mapping's position) through its `Display`.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum AdapterError {
    /// `builtin` together with keys of a subprocess target.
    #[error(
        "adapter: `builtin` cannot be combined with {}; a built-in target has no process",
        join(.0)
    )]
    BuiltinWithProcess(Vec<ProcessKey>),
    /// Neither `builtin` nor `command`.
    #[error("adapter needs `command: [program, args...]` (a subprocess speaking docs/protocol.md), `mcp: {{...}}` (an MCP server) or `builtin: reference`")]
    NeitherShape,
    /// `mcp` beside other keys: its own keys go inside it.
    #[error(
        "adapter: `mcp` stands alone; its command, env and timeout go inside the `mcp:` mapping"
    )]
    McpWithOthers,
}

fn join(keys: &[ProcessKey]) -> String {
    let names: Vec<&str> = keys.iter().map(|k| k.name()).collect();
    names.join(", ")
}

#[cfg(test)]
mod tests {
    use crate::profile::{
        AdapterField, AdapterRule, InvalidAdapter, InvalidProfile, TargetProfile,
    };

    /// The adapter field a profile error names, when it is an adapter's.
    fn adapter_field(error: &InvalidProfile) -> Option<AdapterField> {
        InvalidAdapter::of(error).map(|e| e.field)
    }

    /// The adapter rule a profile error says broke, when it is an adapter's.
    fn adapter_rule(error: &InvalidProfile) -> Option<&AdapterRule> {
        InvalidAdapter::of(error).map(|e| &e.rule)
    }

    fn adapter_of(adapter: &str) -> crate::profile::AdapterSpec {
        let text = format!(
            "name: x\nadapter: {adapter}\ndelimiters: {{ syntax: xml-tag, token: t }}\ncapabilities: [wrap]\n"
        );
        TargetProfile::parse(&text).unwrap().adapter.clone()
    }

    /// What a proposal writes of each kind, word for word as `init` wrote it
    /// before the writing moved here, and read back as the same adapter.
    #[test]
    fn each_kind_is_written_as_a_proposal_writes_it_and_reads_back() {
        let subprocess = "{ command: [python3, a.py], cwd: sub, env: { K: v }, timeout_ms: 500, startup_ms: 900 }";
        let written = [
            (
                subprocess,
                "adapter:\n  command: [\"python3\",\"a.py\"]\n  cwd: \"sub\"  # relative to this file's directory\n  env: {\"K\":\"v\"}\n  timeout_ms: 500  # per request\n  startup_ms: 900  # more for the request that starts the adapter\n",
            ),
            ("{ builtin: reference }", "adapter: { builtin: \"reference\" }\n"),
        ];
        for (adapter, text) in written {
            let spec = adapter_of(adapter);
            assert_eq!(spec.written(), text);
            let profile = format!(
                "name: x\n{text}delimiters: {{ syntax: xml-tag, token: t }}\ncapabilities: [wrap]\n"
            );
            assert_eq!(TargetProfile::parse(&profile).unwrap().adapter, spec);
        }
    }

    /// Only an MCP server is a tool server, and `init`'s patience raises
    /// each kind's own timeouts, never lowers them.
    #[test]
    fn each_kind_says_whether_it_is_a_tool_server_and_takes_patience() {
        let subprocess = adapter_of("{ command: [x], timeout_ms: 500, startup_ms: 900 }");
        let builtin = adapter_of("{ builtin: reference }");
        let mcp = adapter_of("{ mcp: { command: [s], tool: read, plant: file } }");
        assert!(!subprocess.is_tool_server() && !builtin.is_tool_server());
        assert!(mcp.is_tool_server());
        let crate::profile::AdapterSpec::Subprocess(patient) =
            subprocess.clone().at_least_patient(1_000, 100)
        else {
            unreachable!()
        };
        assert_eq!((patient.timeout_ms, patient.startup_ms), (1_000, Some(900)));
        assert_eq!(builtin.clone().at_least_patient(1_000, 100), builtin);
        let crate::profile::AdapterSpec::Mcp { mcp: patient } = mcp.at_least_patient(u64::MAX, 0)
        else {
            unreachable!()
        };
        assert_eq!(patient.timeout_ms, u64::MAX);
    }

    fn error_of(adapter: &str) -> String {
        let text = format!(
            "name: x\nadapter: {adapter}\ndelimiters: {{ syntax: xml-tag, token: t }}\ncapabilities: [wrap]\n"
        );
        TargetProfile::parse(&text).unwrap_err().to_string()
    }

    #[test]
    fn a_misspelt_key_is_named_with_the_keys_allowed() {
        let message = error_of("{ comand: [python3, a.py] }");
        assert!(message.contains("comand"), "{message}");
        assert!(message.contains("command"), "{message}");
        assert!(message.starts_with("line 2, column"), "{message}");
        assert!(!message.contains("untagged"), "{message}");
        assert!(!message.contains("AdapterSpec"), "{message}");
    }

    #[test]
    fn neither_shape_says_what_to_write() {
        let message = error_of("{ timeout_ms: 5 }");
        assert!(message.contains("adapter needs `command:"), "{message}");
        assert!(!message.contains("untagged"), "{message}");
    }

    #[test]
    fn both_shapes_are_refused() {
        let message = error_of("{ builtin: reference, command: [x] }");
        assert!(
            message.contains("cannot be combined with command"),
            "{message}"
        );
    }

    const MCP: &str = "{ mcp: { command: [srv, \"{workdir}\"], tool: read, arguments: { path: \"{workdir}/doc.txt\" }, plant: file } }";

    #[test]
    fn an_mcp_adapter_reads_with_its_defaults() {
        let text = format!("name: x\nadapter: {MCP}\ndelimiters: {{ syntax: xml-tag, token: t }}\ncapabilities: [wrap]\n");
        let profile = TargetProfile::parse(&text).unwrap();
        let crate::profile::AdapterSpec::Mcp { mcp } = &profile.adapter else {
            panic!("not an mcp adapter: {:?}", profile.adapter);
        };
        assert_eq!(mcp.tool, "read");
        assert_eq!(mcp.plant, crate::profile::Plant::File);
        assert_eq!(mcp.plant_name, "doc.txt");
        assert_eq!(mcp.timeout_ms, 20_000);
        // It serializes back to the shape it was read from.
        let json = serde_json::to_value(&profile.adapter).unwrap();
        assert_eq!(json["mcp"]["tool"], "read");
    }

    #[test]
    fn an_mcp_adapter_refuses_unknown_keys_and_plants() {
        let message = error_of("{ mcp: { command: [s], tool: t, plant: file, timeout: 5 } }");
        assert!(message.contains("timeout"), "{message}");
        assert!(message.starts_with("line 2"), "{message}");
        let message = error_of("{ mcp: { command: [s], tool: t, plant: ftp } }");
        assert!(message.contains("ftp"), "{message}");
        let message = error_of("{ mcp: { command: [s], tool: t, plant: file }, cwd: x }");
        assert!(message.contains("`mcp` stands alone"), "{message}");
    }

    #[test]
    fn an_mcp_rule_names_its_line() {
        let text = "name: x\nadapter:\n  mcp:\n    command: [s]\n    tool: fetch\n    plant: http\n    arguments: { url: \"http://example.com\" }\ndelimiters: { syntax: xml-tag, token: t }\ncapabilities: [wrap]\n";
        let error = TargetProfile::parse(text).unwrap_err();
        assert_eq!(adapter_field(&error), Some(AdapterField::McpArguments));
        let message = error.to_string();
        assert!(message.starts_with("line 7, column"), "{message}");
        assert!(message.contains("`{url}`"), "{message}");
        let empty = text.replace("command: [s]", "command: []");
        let message = TargetProfile::parse(&empty).unwrap_err().to_string();
        assert!(message.starts_with("line 4, column"), "{message}");
        assert!(message.contains("adapter.mcp.command"), "{message}");
    }

    #[test]
    fn a_page_may_be_an_api_endpoint_reached_through_the_command() {
        let api = "{ mcp: { command: [s, --api-url, \"{origin}\"], tool: sql, plant: http, plant_name: v1/q, plant_body: '[{\"x\": {content_json}}]' } }";
        let text = format!("name: x\nadapter: {api}\ndelimiters: {{ syntax: xml-tag, token: t }}\ncapabilities: [wrap]\n");
        let profile = TargetProfile::parse(&text).unwrap();
        let crate::profile::AdapterSpec::Mcp { mcp } = &profile.adapter else {
            panic!("not an mcp adapter");
        };
        assert_eq!(mcp.plant_name, "v1/q");
        assert_eq!(mcp.plant_body.as_deref(), Some("[{\"x\": {content_json}}]"));
        // Through env as well; not through the command for an argument plant.
        let env =
            "{ mcp: { command: [s], env: { API: \"{origin}/v1\" }, tool: sql, plant: http } }";
        assert!(TargetProfile::parse(&text.replace(api, env)).is_ok());
        let message =
            error_of("{ mcp: { command: [s, \"{content}\"], tool: t, plant: argument } }");
        assert!(message.contains("`{content}`"), "{message}");
    }

    #[test]
    fn page_paths_and_bodies_are_checked() {
        let page = |name: &str| {
            error_of(&format!(
                "{{ mcp: {{ command: [s], tool: t, plant: http, plant_name: \"{name}\", arguments: {{ u: \"{{url}}\" }} }} }}"
            ))
        };
        for bad in ["v1//q", "../q", "v1/./q", "/q"] {
            let message = page(bad);
            assert!(message.contains("page path"), "{bad}: {message}");
        }
        let message = error_of("{ mcp: { command: [s], tool: t, plant: file, plant_name: a/b } }");
        assert!(message.contains("one file name"), "{message}");
        // The line named is the body's, not the plant name's above it.
        let text = "name: x\nadapter:\n  mcp:\n    command: [s]\n    tool: t\n    plant: file\n    plant_name: d.txt\n    plant_body: x\ndelimiters: { syntax: xml-tag, token: t }\ncapabilities: [wrap]\n";
        let error = TargetProfile::parse(text).unwrap_err();
        assert_eq!(adapter_field(&error), Some(AdapterField::McpPlantBody));
        let message = error.to_string();
        assert!(message.starts_with("line 8, column"), "{message}");
        assert!(message.contains("plant_body"), "{message}");
    }

    #[test]
    fn an_http_endpoint_is_read_and_checked() {
        let http = "{ mcp: { command: [s, --port, \"{port}\"], url: \"http://127.0.0.1:{port}/mcp\", tool: t, plant: file } }";
        let text = format!("name: x\nadapter: {http}\ndelimiters: {{ syntax: xml-tag, token: t }}\ncapabilities: [wrap]\n");
        let profile = TargetProfile::parse(&text).unwrap();
        let crate::profile::AdapterSpec::Mcp { mcp } = &profile.adapter else {
            panic!("not an mcp adapter");
        };
        assert_eq!(mcp.url.as_deref(), Some("http://127.0.0.1:{port}/mcp"));
        assert_eq!(mcp.url_at.map(|at| at.line), Some(2));
        // The port may reach the server through its environment instead.
        let env = http.replace(
            "command: [s, --port, \"{port}\"]",
            "command: [s], env: { PORT: \"{port}\" }",
        );
        assert!(TargetProfile::parse(&text.replace(http, &env)).is_ok());
        let unpassed = "name: x\nadapter:\n  mcp:\n    command: [s]\n    url: \"http://127.0.0.1:{port}/mcp\"\n    tool: t\n    plant: file\ndelimiters: { syntax: xml-tag, token: t }\ncapabilities: [wrap]\n";
        let error = TargetProfile::parse(unpassed).unwrap_err();
        assert_eq!(adapter_rule(&error), Some(&AdapterRule::McpPortNotPassed));
        let message = error.to_string();
        assert!(message.starts_with("line 5, column"), "{message}");
        assert!(message.contains("adapter.mcp.url"), "{message}");
        let tls = unpassed.replace("http://127.0.0.1:{port}", "https://127.0.0.1:8443");
        let message = TargetProfile::parse(&tls).unwrap_err().to_string();
        assert!(message.starts_with("line 5, column"), "{message}");
        assert!(message.contains("plain http://"), "{message}");
        // A fixed port needs nothing passed.
        let fixed = unpassed.replace("{port}", "8931");
        assert!(TargetProfile::parse(&fixed).is_ok());
        // A server framecheck does not start is not driven.
        let running = fixed.replace("command: [s]", "command: []");
        let error = TargetProfile::parse(&running).unwrap_err();
        assert_eq!(
            adapter_rule(&error),
            Some(&AdapterRule::McpUrlWithoutCommand)
        );
        let message = error.to_string();
        assert!(message.starts_with("line 4, column"), "{message}");
        assert!(message.contains("already running elsewhere"), "{message}");
    }

    /// A profile whose `adapter.mcp` mapping is `lines` (each indented
    /// under it, from line 4 on).
    fn store_profile(lines: &str) -> String {
        let indented: String = lines.lines().map(|l| format!("    {l}\n")).collect();
        format!("name: x\nadapter:\n  mcp:\n{indented}delimiters: {{ syntax: xml-tag, token: t }}\ncapabilities: [wrap]\n")
    }

    #[test]
    fn a_store_plant_reads_its_write_tool_setup_command_and_clean_strategy() {
        let text = store_profile(
            "command: [s]\ntool: note_read\narguments: { id: \"{id}\" }\nplant: tool\nwrite: { tool: note_add, arguments: { text: \"{content}\" }, id: { pointer: /id } }\nclean: tool\nclean_tool: { tool: note_delete, arguments: { id: \"{id}\" } }",
        );
        let profile = TargetProfile::parse(&text).unwrap();
        let crate::profile::AdapterSpec::Mcp { mcp } = &profile.adapter else {
            panic!("not an mcp adapter");
        };
        let write = mcp.write.as_ref().unwrap();
        assert_eq!(
            write.id,
            Some(crate::profile::IdFrom::Pointer("/id".into()))
        );
        assert_eq!(mcp.clean, crate::profile::Clean::Tool);
        assert_eq!(mcp.clean_tool.as_ref().unwrap().tool, "note_delete");
        let text = store_profile(
            "command: [s]\ntool: read_file\nplant: command\nsetup: { command: [sh, -c, \"cat > doc.txt\"], input: stdin }\nprepare: [git, init, \"{workdir}\"]\nclean: workdir",
        );
        let profile = TargetProfile::parse(&text).unwrap();
        let crate::profile::AdapterSpec::Mcp { mcp } = &profile.adapter else {
            panic!("not an mcp adapter");
        };
        let setup = mcp.setup.as_ref().unwrap();
        assert_eq!(setup.input, crate::profile::SetupInput::Stdin);
        assert_eq!(setup.timeout_ms, 10_000);
        assert_eq!(mcp.prepare, vec!["git", "init", "{workdir}"]);
        assert_eq!(mcp.clean, crate::profile::Clean::Workdir);
    }

    /// Each rule of a store plant, the line its message names and the
    /// words it says.
    #[test]
    fn a_store_plant_s_mistakes_name_their_line() {
        let cases = [
            ("command: [s]\ntool: r\nplant: tool", 6, "`plant: tool` needs `write`"),
            ("command: [s]\ntool: r\nplant: command", 6, "`plant: command` needs `setup`"),
            ("command: [s]\ntool: r\nplant: file\nwrite: { tool: w, arguments: { t: \"{content}\" } }", 7, "only read with `plant: tool`"),
            ("command: [s]\ntool: r\nplant: file\nsetup: { command: [x, \"{content}\"] }", 7, "only read with `plant: command`"),
            ("command: [s]\ntool: r\nplant: tool\nwrite: { tool: w, arguments: { t: x } }", 7, "write.arguments must hold `{content}`"),
            ("command: [s]\ntool: r\nplant: command\nsetup: { command: [x, y] }", 7, "setup.command must hold `{content}`"),
            ("command: [s]\ntool: r\nplant: command\nsetup: { command: [] , input: stdin }", 7, "must name a program"),
            ("command: [s]\ntool: r\nplant: command\nsetup: { command: [x], input: file, timeout_ms: 0 }", 7, "must be positive"),
            ("command: [s]\ntool: r\nplant: tool\nwrite: { tool: w, arguments: { t: \"{content}\" }, id: { pointer: id } }", 7, "is not a JSON pointer"),
            ("command: [s]\ntool: r\nplant: tool\nwrite: { tool: w, arguments: { t: \"{content}\" }, id: { pattern: \"(\" } }", 7, "is not a regular expression"),
            ("command: [s]\ntool: r\narguments: { id: \"{id}\" }\nplant: tool\nwrite: { tool: w, arguments: { t: \"{content}\" } }", 6, "adapter.mcp.arguments uses `{id}`"),
            ("command: [s]\ntool: r\nplant: argument\narguments: { t: \"{content}\" }\nclean: tool", 8, "`clean: tool` needs `clean_tool`"),
            ("command: [s]\ntool: r\nplant: argument\narguments: { t: \"{content}\" }\nclean_tool: { tool: d }", 8, "only read with `clean: tool`"),
        ];
        for (lines, line, words) in cases {
            let message = TargetProfile::parse(&store_profile(lines))
                .unwrap_err()
                .to_string();
            assert!(
                message.starts_with(&format!("line {line}, column")),
                "{lines}: {message}"
            );
            assert!(message.contains(words), "{lines}: {message}");
        }
    }

    #[test]
    fn both_shapes_still_read() {
        let text = "name: x\nadapter: { builtin: reference }\ndelimiters: { syntax: xml-tag, token: t }\ncapabilities: [wrap]\n";
        assert!(TargetProfile::parse(text).is_ok());
        let text = "name: x\nadapter: { command: [a], mode: one-shot }\ndelimiters: { syntax: xml-tag, token: t }\ncapabilities: [wrap]\n";
        assert!(TargetProfile::parse(text).is_ok());
    }
}

/// The adapter's own typed errors, before the YAML parser turns them into
/// its message.
#[cfg(test)]
mod typed {
    use super::{AdapterError, ProcessKey, RawAdapter};
    use crate::profile::AdapterSpec;

    fn shape(yaml: &str) -> Result<AdapterSpec, AdapterError> {
        let raw: RawAdapter = serde_saphyr::from_str(yaml).unwrap();
        AdapterSpec::try_from(raw)
    }

    #[test]
    fn builtin_with_process_keys_names_them_in_order() {
        let error = shape("{ builtin: reference, mode: one-shot, cwd: x }").unwrap_err();
        assert_eq!(
            error,
            AdapterError::BuiltinWithProcess(vec![ProcessKey::Cwd, ProcessKey::Mode])
        );
        assert_eq!(
            error.to_string(),
            "adapter: `builtin` cannot be combined with cwd, mode; a built-in target has no process"
        );
    }

    #[test]
    fn neither_shape_is_its_own_kind() {
        assert_eq!(
            shape("{ timeout_ms: 5 }").unwrap_err(),
            AdapterError::NeitherShape
        );
    }
}
