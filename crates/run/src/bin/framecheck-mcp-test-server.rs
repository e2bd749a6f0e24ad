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
//! Content carrying a trigger word exercises the fault paths: `MCP-DIE`
//! ends the server, `MCP-HANG` never answers, `MCP-ERROR` answers a
//! JSON-RPC error and `MCP-REFUSE` an `isError` result. Plain content never
//! holds them.

use std::sync::Arc;

use framecheck_run::adapter::{reference, WrapRequest};
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
}

/// The `parts` mode's first text part.
const PARTS_NOTE: &str = "The tool's result follows in the next part.";

#[derive(Clone, Copy)]
struct TestServer {
    mode: Mode,
}

impl TestServer {
    fn frame(&self, content: &str) -> Result<String, ErrorData> {
        match self.mode {
            Mode::Raw => Ok(format!("<document>\n{content}\n</document>")),
            Mode::Bare => Ok(format!("The file reads:\n{content}")),
            Mode::Framed | Mode::Parts => {
                let mut framing = reference::builtin_framing("reference")
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
        let path = request
            .arguments
            .as_ref()
            .and_then(|args| args.get("path"))
            .and_then(|path| path.as_str())
            .ok_or_else(|| ErrorData::invalid_params("read_file needs a string `path`", None))?;
        let content = std::fs::read_to_string(path)
            .map_err(|e| ErrorData::invalid_params(format!("cannot read {path}: {e}"), None))?;
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
        Ok(CallToolResult::success(self.blocks(&content)?))
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
        Ok(ListToolsResult::with_all_items(vec![read, echo]))
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        match request.name.as_ref() {
            "read_file" => self.read_file(&request).await.map(CallToolResponse::from),
            "echo" => {
                let text = request
                    .arguments
                    .as_ref()
                    .and_then(|args| args.get("text"))
                    .and_then(|text| text.as_str())
                    .ok_or_else(|| ErrorData::invalid_params("echo needs a string `text`", None))?;
                Ok(CallToolResult::success(self.blocks(text)?).into())
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
        move || Ok(server),
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

const USAGE: &str = "usage: framecheck-mcp-test-server framed|raw|bare [--http ADDRESS]";

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mode = match args.first().map(String::as_str) {
        Some("framed") => Mode::Framed,
        Some("raw") => Mode::Raw,
        Some("bare") => Mode::Bare,
        Some("parts") => Mode::Parts,
        _ => return Err(USAGE.into()),
    };
    let http = match &args[1..] {
        [] => None,
        [flag, address] if flag == "--http" => Some(address.clone()),
        _ => return Err(USAGE.into()),
    };
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()?;
    let server = TestServer { mode };
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
