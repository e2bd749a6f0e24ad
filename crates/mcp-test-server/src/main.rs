//! An MCP server for framecheck's own tests, written with the same SDK the
//! MCP adapter speaks (`rmcp`), over stdio or, with `--http ADDRESS`, over
//! Streamable HTTP (the SDK's server transport, served by hyper) on
//! ADDRESS, e.g. `127.0.0.1:4711`.
//!
//! Its tool `read_file { path }` reads a file, and `echo { text }` takes
//! the text itself; both return it in one of three ways, chosen by
//! the first argument:
//!
//! - `framed`: the reference envelope (`framecheck-untrusted` tags, the
//!   content defanged), which holds under the catalogue;
//! - `raw`: the content between fixed `<document>` tags, escaped in no way,
//!   which any closing tag in the content breaks out of;
//! - `bare`: the content after one constant line and nothing after it: no
//!   frame at all (a profile declares it `delimiters: none`);
//! - `parts`: two text parts, a constant note and then the `framed` frame
//!   (a profile declares it `wrap.returns: parts`).
//!
//! - `label`: the content after `Echo: ` on the same line and nothing
//!   after it, as the reference "everything" server's `echo` answers: no
//!   frame either.
//!
//! It is also a store of notes: `note_add { text, tag? }` keeps a note (the
//! optional tag is not kept) and
//! answers `{"id": "n1"}` (as does `note_entities`, whose schema nests the
//! note as a memory server's does: `{ entities: [{ name, kind, observations:
//! [text] }] }`, `kind` one of an enum, every field required and checked), `note_read { id }` answers one note framed as
//! above, `note_list` every note, one frame each on its own line, and
//! `note_delete { id }` forgets one. `note_items` answers every note as a
//! store's list read does, among two fixed notes the store held before any
//! plant (`{"notes": [{"id": "b1", "text": …}, …, {"id": "b2", …}]}`):
//! JSON-encoded by `serde_json` in every mode but `raw`, which writes each
//! record's text between quotes as it is (control characters escaped,
//! quotes and backslashes not), so content can end its record and forge another.
//! The notes live in the server's memory
//! or, with `--store FILE`, in FILE (read at start, written at each
//! change), so a restart empties the first and not the second.
//!
//! Content carrying a trigger word exercises the fault paths: `MCP-DIE`
//! ends the server, `MCP-HANG` never answers, `MCP-ERROR` answers a
//! JSON-RPC error and `MCP-REFUSE` an `isError` result. A note carrying
//! `STORE-REFUSE` is not kept (`note_add` answers an `isError` result), nor
//! one carrying `STORE-ERROR` (a JSON-RPC error): a store that refuses some
//! content. Plain content never holds them.
//!
//! With `--slow-start DIR` the server is slow to start, and how slow is
//! decided by state, not by the clock (issue 57): the first start never
//! answers `initialize` in any test's bound, every later one answers after
//! [`SLOW_START`]; DIR keeps one file per start.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use framecheck_run::adapter::{reference, BuiltinTarget, WrapRequest};
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock, Implementation,
    ListToolsResult, PaginatedRequestParams, ServerCapabilities, ServerConfig, Tool,
};
use rmcp::service::{RequestContext, RoleServer};
use rmcp::{ErrorData, ServerHandler, ServiceExt};

/// How the server frames what it read.
#[derive(Clone, Copy)]
enum Mode {
    Framed,
    Raw,
    Bare,
    Parts,
    Label,
}

/// The notes: their text by id, and the number of the next one.
#[derive(Default, serde::Serialize, serde::Deserialize)]
struct Notes {
    next: u64,
    notes: BTreeMap<String, String>,
}

/// Where the notes live: in memory, or also in a file.
struct Store {
    notes: Notes,
    file: Option<PathBuf>,
}

impl Store {
    fn open(file: Option<PathBuf>) -> std::io::Result<Store> {
        let notes = match &file {
            Some(path) if path.exists() => serde_json::from_str(&std::fs::read_to_string(path)?)
                .map_err(std::io::Error::other)?,
            _ => Notes::default(),
        };
        Ok(Store { notes, file })
    }

    fn save(&self) -> Result<(), ErrorData> {
        let Some(path) = &self.file else {
            return Ok(());
        };
        let text = serde_json::to_string(&self.notes)
            .map_err(|e| ErrorData::internal_error(e.to_string(), None))?;
        std::fs::write(path, text).map_err(|e| ErrorData::internal_error(e.to_string(), None))
    }
}

/// The notes `note_items` answers before and after the store's own: a
/// store's benign items, there before any plant and never changed.
const FIXED_NOTES: [(&str, &str); 2] = [
    ("b1", "Buy milk on the way home."),
    ("b2", "The team meeting moved to Thursday at ten."),
];

/// The `parts` mode's first text part.
const PARTS_NOTE: &str = "The tool's result follows in the next part.";

#[derive(Clone)]
struct TestServer {
    mode: Mode,
    store: Arc<Mutex<Store>>,
}

/// The string argument `name` of a call.
fn argument<'a>(request: &'a CallToolRequestParams, name: &str) -> Result<&'a str, ErrorData> {
    request
        .arguments
        .as_ref()
        .and_then(|args| args.get(name))
        .and_then(|value| value.as_str())
        .ok_or_else(|| {
            ErrorData::invalid_params(format!("{} needs a string `{name}`", request.name), None)
        })
}

impl TestServer {
    fn frame(&self, content: &str) -> Result<String, ErrorData> {
        match self.mode {
            Mode::Raw => Ok(format!("<document>\n{content}\n</document>")),
            Mode::Bare => Ok(format!("The file reads:\n{content}")),
            Mode::Label => Ok(format!("Echo: {content}")),
            Mode::Framed | Mode::Parts => {
                let mut framing = reference::builtin_framing(BuiltinTarget::Reference)
                    .ok_or_else(|| ErrorData::internal_error("no reference envelope", None))?;
                let request = WrapRequest {
                    content: content.to_string(),
                    kind: "tool-result".into(),
                    ..WrapRequest::default()
                };
                framing
                    .wrap(&request)
                    .map_err(|e| ErrorData::internal_error(e.to_string(), None))
            }
        }
    }

    async fn read_file(
        &self,
        request: &CallToolRequestParams,
    ) -> Result<CallToolResult, ErrorData> {
        let path = argument(request, "path")?;
        let content = std::fs::read_to_string(path)
            .map_err(|e| ErrorData::invalid_params(format!("cannot read {path}: {e}"), None))?;
        self.answer(&content).await
    }

    /// The result for `content`, after its trigger words.
    async fn answer(&self, content: &str) -> Result<CallToolResult, ErrorData> {
        if content.contains("MCP-DIE") {
            std::process::exit(3);
        }
        if content.contains("MCP-HANG") {
            std::future::pending::<()>().await;
        }
        if content.contains("MCP-ERROR") {
            return Err(ErrorData::internal_error("this content is refused", None));
        }
        if content.contains("MCP-REFUSE") {
            return Ok(CallToolResult::error(vec![ContentBlock::text("refused")]));
        }
        Ok(CallToolResult::success(self.blocks(content)?))
    }

    /// The result's text parts: the frame, after a constant note in the
    /// `parts` mode.
    fn blocks(&self, content: &str) -> Result<Vec<ContentBlock>, ErrorData> {
        let framed = ContentBlock::text(self.frame(content)?);
        Ok(match self.mode {
            Mode::Parts => vec![ContentBlock::text(PARTS_NOTE), framed],
            _ => vec![framed],
        })
    }

    fn store(&self) -> std::sync::MutexGuard<'_, Store> {
        self.store.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// `note_read`: the note, answered as a read file is.
    async fn note_read(
        &self,
        request: &CallToolRequestParams,
    ) -> Result<CallToolResult, ErrorData> {
        let id = argument(request, "id")?;
        let note = self.store().notes.notes.get(id).cloned();
        let note =
            note.ok_or_else(|| ErrorData::invalid_params(format!("no note {id:?}"), None))?;
        self.answer(&note).await
    }

    /// `note_list`: every note, one frame each, on lines of their own.
    fn note_list(&self) -> Result<CallToolResult, ErrorData> {
        let notes: Vec<String> = self.store().notes.notes.values().cloned().collect();
        let framed: Result<Vec<String>, ErrorData> = notes.iter().map(|n| self.frame(n)).collect();
        Ok(CallToolResult::success(vec![ContentBlock::text(
            framed?.join("\n"),
        )]))
    }

    /// `note_items`: every note as a record `{id, text}` of one list,
    /// between the fixed notes.
    fn note_items(&self) -> CallToolResult {
        let stored: Vec<(String, String)> = (self.store().notes.notes.iter())
            .map(|(id, text)| (id.clone(), text.clone()))
            .collect();
        let fixed = |i: usize| (FIXED_NOTES[i].0.to_string(), FIXED_NOTES[i].1.to_string());
        let notes: Vec<(String, String)> = std::iter::once(fixed(0))
            .chain(stored)
            .chain(std::iter::once(fixed(1)))
            .collect();
        let text = match self.mode {
            Mode::Raw => raw_records(&notes),
            _ => {
                let records: Vec<serde_json::Value> = (notes.iter())
                    .map(|(id, text)| serde_json::json!({ "id": id, "text": text }))
                    .collect();
                serde_json::json!({ "notes": records }).to_string()
            }
        };
        CallToolResult::success(vec![ContentBlock::text(text)])
    }

    /// `note_add`, `note_entities` and `note_delete`: the store changed,
    /// and saved.
    fn note_change(&self, request: &CallToolRequestParams) -> Result<CallToolResult, ErrorData> {
        let entity_text = match request.name.as_ref() {
            "note_entities" => Some(entity_observation(request)?),
            _ => None,
        };
        let mut store = self.store();
        let answer = if request.name != "note_delete" {
            let text = match &entity_text {
                Some(text) => text.as_str(),
                None => argument(request, "text")?,
            };
            if text.contains("STORE-REFUSE") {
                return Ok(CallToolResult::error(vec![ContentBlock::text(
                    "this note is not kept",
                )]));
            }
            if text.contains("STORE-ERROR") {
                return Err(ErrorData::invalid_params("this note is not kept", None));
            }
            store.notes.next += 1;
            let id = format!("n{}", store.notes.next);
            store.notes.notes.insert(id.clone(), text.to_string());
            serde_json::json!({ "id": id }).to_string()
        } else {
            let id = argument(request, "id")?;
            store.notes.notes.remove(id);
            format!("deleted {id}")
        };
        store.save()?;
        Ok(CallToolResult::success(vec![ContentBlock::text(answer)]))
    }
}

/// The `raw` mode's list: each record written as text, its note between
/// quotes with only control characters escaped (JSON allows none raw), so
/// a quote in a note ends it.
fn raw_records(notes: &[(String, String)]) -> String {
    let records: Vec<String> = (notes.iter())
        .map(|(id, text)| {
            let text: String = (text.chars())
                .map(|c| match c {
                    '\u{0}'..='\u{1f}' => format!("\\u{:04x}", u32::from(c)),
                    c => c.to_string(),
                })
                .collect();
            format!("{{\"id\": \"{id}\", \"text\": \"{text}\"}}")
        })
        .collect();
    format!("{{\"notes\": [{}]}}", records.join(", "))
}

/// `note_entities`'s one observation of its one entity, every field it
/// requires checked as a server validating its schema would.
fn entity_observation(request: &CallToolRequestParams) -> Result<String, ErrorData> {
    let invalid = |what: &str| ErrorData::invalid_params(format!("note_entities: {what}"), None);
    let entities = (request.arguments.as_ref())
        .and_then(|args| args.get("entities"))
        .and_then(|v| v.as_array())
        .ok_or_else(|| invalid("needs an array `entities`"))?;
    let [entity] = entities.as_slice() else {
        return Err(invalid("needs exactly one entity"));
    };
    let name = entity.get("name").and_then(|v| v.as_str());
    if name.is_none_or(str::is_empty) {
        return Err(invalid("an entity needs a non-empty `name`"));
    }
    let kind = entity.get("kind").and_then(|v| v.as_str());
    if !matches!(kind, Some("person" | "place")) {
        return Err(invalid("an entity's `kind` is person or place"));
    }
    match entity
        .get("observations")
        .and_then(|v| v.as_array())
        .map(Vec::as_slice)
    {
        Some([serde_json::Value::String(text)]) => Ok(text.clone()),
        _ => Err(invalid("an entity needs `observations`, one string")),
    }
}

impl ServerHandler for TestServer {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build()).with_server_info(
            Implementation::new("framecheck-mcp-test-server", env!("CARGO_PKG_VERSION")),
        )
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        let schema = serde_json::json!({
            "type": "object",
            "properties": { "path": { "type": "string" } },
            "required": ["path"],
        });
        let serde_json::Value::Object(schema) = schema else {
            unreachable!("a JSON object literal");
        };
        let read = Tool::new("read_file", "Reads a text file", Arc::new(schema));
        let schema = serde_json::json!({
            "type": "object",
            "properties": { "text": { "type": "string" } },
            "required": ["text"],
        });
        let serde_json::Value::Object(schema) = schema else {
            unreachable!("a JSON object literal");
        };
        let echo = Tool::new("echo", "Returns the text", Arc::new(schema));
        // An optional label beside the text (not kept): a write tool with
        // more than one property, for `init --mcp` given some arguments.
        let schema = serde_json::json!({
            "type": "object",
            "properties": { "text": { "type": "string" }, "tag": { "type": "string" } },
            "required": ["text"],
        });
        let serde_json::Value::Object(schema) = schema else {
            unreachable!("a JSON object literal");
        };
        let add = Tool::new("note_add", "Keeps a note", Arc::new(schema));
        let schema = serde_json::json!({
            "type": "object",
            "properties": { "id": { "type": "string" } },
            "required": ["id"],
        });
        let serde_json::Value::Object(schema) = schema else {
            unreachable!("a JSON object literal");
        };
        let read_note = Tool::new("note_read", "Reads one note", Arc::new(schema.clone()));
        let delete = Tool::new("note_delete", "Forgets one note", Arc::new(schema));
        let schema = serde_json::json!({
            "type": "object",
            "properties": { "entities": { "type": "array", "items": {
                "type": "object",
                "properties": {
                    "name": { "type": "string" },
                    "kind": { "type": "string", "enum": ["person", "place"] },
                    "observations": { "type": "array", "items": { "type": "string" } },
                    "source": { "type": "string" },
                },
                "required": ["name", "kind", "observations"],
            } } },
            "required": ["entities"],
        });
        let serde_json::Value::Object(schema) = schema else {
            unreachable!("a JSON object literal");
        };
        let entities = Tool::new("note_entities", "Keeps entities' notes", Arc::new(schema));
        let list = Tool::new(
            "note_list",
            "Reads every note",
            Arc::new(serde_json::Map::new()),
        );
        let items = Tool::new(
            "note_items",
            "Reads every note as a list of records",
            Arc::new(serde_json::Map::new()),
        );
        Ok(ListToolsResult::with_all_items(vec![
            read, echo, add, entities, read_note, list, items, delete,
        ]))
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        match request.name.as_ref() {
            "read_file" => self.read_file(&request).await.map(CallToolResponse::from),
            "echo" => {
                let text = argument(&request, "text")?;
                Ok(CallToolResult::success(self.blocks(text)?).into())
            }
            "note_read" => self.note_read(&request).await.map(CallToolResponse::from),
            "note_list" => self.note_list().map(CallToolResponse::from),
            "note_items" => Ok(self.note_items().into()),
            "note_add" | "note_entities" | "note_delete" => {
                self.note_change(&request).map(CallToolResponse::from)
            }
            other => Err(ErrorData::invalid_params(
                format!("no tool {other:?}"),
                None,
            )),
        }
    }
}

/// Serves the MCP endpoint `/mcp` on `address` until killed.
async fn serve_http(server: TestServer, address: &str) -> std::io::Result<()> {
    use hyper_util::rt::TokioIo;
    use hyper_util::service::TowerToHyperService;
    use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
    use rmcp::transport::{StreamableHttpServerConfig, StreamableHttpService};
    let service = StreamableHttpService::new(
        move || Ok(server.clone()),
        Arc::new(LocalSessionManager::default()),
        StreamableHttpServerConfig::default(),
    );
    let listener = tokio::net::TcpListener::bind(address).await?;
    loop {
        let (stream, _) = listener.accept().await?;
        let service = TowerToHyperService::new(service.clone());
        tokio::spawn(async move {
            // A connection the client dropped is the client's business.
            let _ = hyper::server::conn::http1::Builder::new()
                .serve_connection(TokioIo::new(stream), service)
                .await;
        });
    }
}

const USAGE: &str =
    "usage: framecheck-mcp-test-server framed|raw|bare|parts|label [--http ADDRESS] \
                     [--store FILE] [--slow-start DIR]";

/// How long a `--slow-start` server's starts after its first take.
const SLOW_START: Duration = Duration::from_secs(2);

/// `--slow-start DIR`: waits before serving, as long as the starts DIR has
/// counted say: the first start longer than any test waits, later ones
/// [`SLOW_START`].
fn wait_to_start(dir: &Path) -> std::io::Result<()> {
    let starts = std::fs::read_dir(dir)?.count();
    std::fs::write(dir.join(format!("start-{starts}")), "")?;
    std::thread::sleep(match starts {
        0 => Duration::from_secs(600),
        _ => SLOW_START,
    });
    Ok(())
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mode = match args.first().map(String::as_str) {
        Some("framed") => Mode::Framed,
        Some("raw") => Mode::Raw,
        Some("bare") => Mode::Bare,
        Some("parts") => Mode::Parts,
        Some("label") => Mode::Label,
        _ => return Err(USAGE.into()),
    };
    let (mut http, mut file) = (None, None);
    for pair in args[1..].chunks(2) {
        match pair {
            [flag, address] if flag == "--http" => http = Some(address.clone()),
            [flag, path] if flag == "--store" => file = Some(PathBuf::from(path)),
            [flag, dir] if flag == "--slow-start" => wait_to_start(Path::new(dir))?,
            _ => return Err(USAGE.into()),
        }
    }
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()?;
    let store = Arc::new(Mutex::new(Store::open(file)?));
    let server = TestServer { mode, store };
    runtime.block_on(async {
        if let Some(address) = http {
            serve_http(server, &address).await?;
            return Ok(());
        }
        let service = server.serve(rmcp::transport::stdio()).await?;
        service.waiting().await?;
        Ok(())
    })
}
