//! Where an MCP target's content is planted: a per-run work directory, a
//! page on a local HTTP fixture server, and the placeholders that point a
//! tool's arguments (and the server's command) at them.
//!
//! Both are torn down when dropped: the work directory is removed, the
//! fixture's thread is unblocked and joined. The fixture listens on
//! 127.0.0.1 only, on a port the kernel picks.

use std::io;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;

/// A directory under the system's temporary directory, removed on drop.
#[derive(Debug)]
pub(crate) struct WorkDir {
    path: PathBuf,
}

impl WorkDir {
    /// Creates a fresh directory, named so two runs (or two targets of one
    /// run) never share one.
    pub(crate) fn create() -> io::Result<WorkDir> {
        static NEXT: AtomicU64 = AtomicU64::new(0);
        let base = std::env::temp_dir();
        for _ in 0..16 {
            let mut salt = [0u8; 8];
            getrandom::fill(&mut salt).map_err(|e| io::Error::other(e.to_string()))?;
            let name = format!(
                "framecheck-mcp-{}-{}-{:016x}",
                std::process::id(),
                NEXT.fetch_add(1, Ordering::Relaxed),
                u64::from_le_bytes(salt)
            );
            let path = base.join(name);
            match std::fs::create_dir(&path) {
                Ok(()) => return Ok(WorkDir { path }),
                Err(e) if e.kind() == io::ErrorKind::AlreadyExists => continue,
                Err(e) => return Err(e),
            }
        }
        Err(io::Error::other("no fresh work directory name was free"))
    }

    /// The directory.
    pub(crate) fn path(&self) -> &Path {
        &self.path
    }
}

impl Drop for WorkDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.path);
    }
}

/// A one-page HTTP server on 127.0.0.1: `/<path>` answers the planted body
/// whatever the method (a server may `POST` a query to an API endpoint);
/// every other path is a 404 (so a fetch server's `robots.txt` check finds
/// none and goes on).
pub(crate) struct Fixture {
    server: Arc<tiny_http::Server>,
    body: Arc<Mutex<Vec<u8>>>,
    origin: String,
    url: String,
    thread: Option<JoinHandle<()>>,
}

impl Fixture {
    /// Starts serving `/<path>` with `content_type`.
    pub(crate) fn start(path: &str, content_type: &str) -> io::Result<Fixture> {
        let server = tiny_http::Server::http("127.0.0.1:0").map_err(io::Error::other)?;
        let port = server
            .server_addr()
            .to_ip()
            .map(|addr| addr.port())
            .ok_or_else(|| io::Error::other("the fixture server has no IP address"))?;
        let server = Arc::new(server);
        let body = Arc::new(Mutex::new(Vec::new()));
        let header = tiny_http::Header::from_bytes("Content-Type", content_type)
            .map_err(|()| io::Error::other(format!("bad content_type {content_type:?}")))?;
        let origin = format!("http://127.0.0.1:{port}");
        let url = format!("{origin}/{path}");
        let path = format!("/{path}");
        let (serving, page) = (Arc::clone(&server), Arc::clone(&body));
        let thread = std::thread::Builder::new()
            .name("framecheck-mcp-fixture".into())
            .spawn(move || serve(&serving, &page, &path, &header))?;
        Ok(Fixture {
            server,
            body,
            origin,
            url,
            thread: Some(thread),
        })
    }

    /// The page's URL (`{url}`).
    pub(crate) fn url(&self) -> &str {
        &self.url
    }

    /// The server's scheme, host and port (`{origin}`).
    pub(crate) fn origin(&self) -> &str {
        &self.origin
    }

    /// Replaces the page's body.
    pub(crate) fn plant(&self, content: &str) {
        *self.body.lock().unwrap_or_else(|p| p.into_inner()) = content.as_bytes().to_vec();
    }
}

fn serve(
    server: &tiny_http::Server,
    body: &Mutex<Vec<u8>>,
    path: &str,
    header: &tiny_http::Header,
) {
    for request in server.incoming_requests() {
        // Query strings are ignored: some fetchers add cache busters.
        let asked = request.url().split('?').next().unwrap_or_default();
        let answer = if asked == path {
            let bytes = body.lock().unwrap_or_else(|p| p.into_inner()).clone();
            tiny_http::Response::from_data(bytes).with_header(header.clone())
        } else {
            tiny_http::Response::from_data(b"not found".to_vec()).with_status_code(404)
        };
        // A client that hung up is its own business.
        let _ = request.respond(answer);
    }
}

impl Drop for Fixture {
    fn drop(&mut self) {
        self.server.unblock();
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

/// The values of the placeholders for one call.
pub(crate) struct Values<'a> {
    pub workdir: &'a str,
    pub url: &'a str,
    pub origin: &'a str,
    pub content: &'a str,
    /// The content as one JSON string literal, quotes included.
    pub content_json: String,
    /// The port picked for `adapter.mcp.url`; `None` leaves `{port}` as
    /// written (a server spoken to over stdio has none).
    pub port: Option<String>,
    /// The id the write tool answered (`plant: tool`); `None` leaves
    /// `{id}` as written.
    pub id: Option<String>,
}

impl<'a> Values<'a> {
    /// The values for `content`.
    pub(crate) fn new(workdir: &'a str, url: &'a str, origin: &'a str, content: &'a str) -> Self {
        // A `String` always serialises.
        let content_json = serde_json::to_string(content).unwrap_or_default();
        Values {
            workdir,
            url,
            origin,
            content,
            content_json,
            port: None,
            id: None,
        }
    }

    /// The values with `{port}` filled by `port`.
    pub(crate) fn with_port(mut self, port: Option<u16>) -> Self {
        self.port = port.map(|p| p.to_string());
        self
    }

    /// The values with `{id}` filled by `id`.
    pub(crate) fn with_id(mut self, id: Option<&str>) -> Self {
        self.id = id.map(str::to_string);
        self
    }
}

/// `template` with `{workdir}`, `{url}`, `{origin}`, `{content}`,
/// `{content_json}`, `{port}` and `{id}` replaced in one pass, so a
/// placeholder inside a replaced value (content that says `{workdir}`) is
/// left as it is.
pub(crate) fn fill(template: &str, values: &Values<'_>) -> String {
    let names: [(&str, &str); 7] = [
        ("{workdir}", values.workdir),
        ("{url}", values.url),
        ("{origin}", values.origin),
        ("{content}", values.content),
        ("{content_json}", &values.content_json),
        ("{port}", values.port.as_deref().unwrap_or("{port}")),
        ("{id}", values.id.as_deref().unwrap_or("{id}")),
    ];
    let mut out = String::with_capacity(template.len());
    let mut rest = template;
    'outer: while !rest.is_empty() {
        for (name, value) in names {
            if let Some(after) = rest.strip_prefix(name) {
                out.push_str(value);
                rest = after;
                continue 'outer;
            }
        }
        let mut chars = rest.chars();
        if let Some(c) = chars.next() {
            out.push(c);
        }
        rest = chars.as_str();
    }
    out
}

/// Every string inside `value`, keys left as written, filled in.
pub(crate) fn fill_json(value: &serde_json::Value, values: &Values<'_>) -> serde_json::Value {
    use serde_json::Value;
    match value {
        Value::String(s) => Value::String(fill(s, values)),
        Value::Array(items) => Value::Array(items.iter().map(|v| fill_json(v, values)).collect()),
        Value::Object(map) => Value::Object(
            map.iter()
                .map(|(k, v)| (k.clone(), fill_json(v, values)))
                .collect(),
        ),
        other => other.clone(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn values() -> Values<'static> {
        Values::new(
            "/tmp/w",
            "http://127.0.0.1:9/doc.txt",
            "http://127.0.0.1:9",
            "say {workdir} and \"{url}\"",
        )
    }

    #[test]
    fn placeholders_are_filled_once_not_again_inside_the_content() {
        assert_eq!(
            fill("{workdir}/doc.txt <{content}> {other}", &values()),
            "/tmp/w/doc.txt <say {workdir} and \"{url}\"> {other}"
        );
    }

    #[test]
    fn the_origin_and_the_content_as_json_are_placeholders_too() {
        assert_eq!(
            fill("--api-url={origin} [{\"x\":{content_json}}]", &values()),
            r#"--api-url=http://127.0.0.1:9 [{"x":"say {workdir} and \"{url}\""}]"#
        );
    }

    #[test]
    fn the_port_is_filled_only_when_one_was_picked() {
        let template = "--port={port} {content}";
        assert_eq!(
            fill(template, &values()),
            "--port={port} say {workdir} and \"{url}\""
        );
        let values = Values::new("", "", "", "{port}").with_port(Some(4711));
        assert_eq!(fill(template, &values), "--port=4711 {port}");
    }

    #[test]
    fn the_id_is_filled_only_when_the_write_answered_one() {
        let template = "note {id}: {content}";
        let values = Values::new("", "", "", "{id}");
        assert_eq!(fill(template, &values), "note {id}: {id}");
        let values = values.with_id(Some("n7"));
        assert_eq!(fill(template, &values), "note n7: {id}");
    }

    #[test]
    fn json_strings_are_filled_at_any_depth() {
        let template = serde_json::json!({ "a": ["{url}", 3], "b": { "c": "{content}" } });
        let filled = fill_json(&template, &values());
        assert_eq!(filled["a"][0], "http://127.0.0.1:9/doc.txt");
        assert_eq!(filled["a"][1], 3);
        assert_eq!(filled["b"]["c"], "say {workdir} and \"{url}\"");
    }

    #[test]
    fn the_work_directory_is_removed_when_dropped() {
        let dir = WorkDir::create().unwrap();
        let path = dir.path().to_path_buf();
        std::fs::write(path.join("doc.txt"), "x").unwrap();
        drop(dir);
        assert!(!path.exists());
    }

    #[test]
    fn the_fixture_serves_the_planted_page_and_nothing_else() {
        use std::io::{Read, Write};
        let fixture = Fixture::start("v1/doc.txt", "text/plain").unwrap();
        assert_eq!(fixture.url(), format!("{}/v1/doc.txt", fixture.origin()));
        fixture.plant("hello <b>");
        let ask = |method: &str, path: &str| {
            let host = fixture.origin().trim_start_matches("http://");
            let mut stream = std::net::TcpStream::connect(host).unwrap();
            write!(
                stream,
                "{method} {path} HTTP/1.0\r\nHost: {host}\r\nContent-Length: 2\r\n\r\n{{}}"
            )
            .unwrap();
            let mut answer = String::new();
            stream.read_to_string(&mut answer).unwrap();
            answer
        };
        for method in ["GET", "POST"] {
            let page = ask(method, "/v1/doc.txt?x=1");
            assert!(page.starts_with("HTTP/1.0 200"), "{method}: {page}");
            assert!(page.ends_with("hello <b>"), "{method}: {page}");
        }
        assert!(ask("GET", "/robots.txt").starts_with("HTTP/1.0 404"));
        assert!(ask("GET", "/doc.txt").starts_with("HTTP/1.0 404"));
    }
}
