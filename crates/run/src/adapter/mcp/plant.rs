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

/// A one-page HTTP server on 127.0.0.1: `GET /<name>` answers the planted
/// body; every other path is a 404 (so a fetch server's `robots.txt`
/// check finds none and goes on).
pub(crate) struct Fixture {
    server: Arc<tiny_http::Server>,
    body: Arc<Mutex<Vec<u8>>>,
    url: String,
    thread: Option<JoinHandle<()>>,
}

impl Fixture {
    /// Starts serving `/<name>` with `content_type`.
    pub(crate) fn start(name: &str, content_type: &str) -> io::Result<Fixture> {
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
        let path = format!("/{name}");
        let (serving, page) = (Arc::clone(&server), Arc::clone(&body));
        let thread = std::thread::Builder::new()
            .name("framecheck-mcp-fixture".into())
            .spawn(move || serve(&serving, &page, &path, &header))?;
        Ok(Fixture {
            server,
            body,
            url: format!("http://127.0.0.1:{port}/{name}"),
            thread: Some(thread),
        })
    }

    /// The page's URL (`{url}`).
    pub(crate) fn url(&self) -> &str {
        &self.url
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
        let answer = if asked == path && *request.method() == tiny_http::Method::Get {
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
    pub content: &'a str,
}

/// `template` with `{workdir}`, `{url}` and `{content}` replaced in one
/// pass, so a placeholder inside a replaced value (content that says
/// `{workdir}`) is left as it is.
pub(crate) fn fill(template: &str, values: &Values<'_>) -> String {
    let names: [(&str, &str); 3] = [
        ("{workdir}", values.workdir),
        ("{url}", values.url),
        ("{content}", values.content),
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

    const VALUES: Values<'static> = Values {
        workdir: "/tmp/w",
        url: "http://127.0.0.1:9/doc.txt",
        content: "say {workdir} and {url}",
    };

    #[test]
    fn placeholders_are_filled_once_not_again_inside_the_content() {
        assert_eq!(
            fill("{workdir}/doc.txt <{content}> {other}", &VALUES),
            "/tmp/w/doc.txt <say {workdir} and {url}> {other}"
        );
    }

    #[test]
    fn json_strings_are_filled_at_any_depth() {
        let template = serde_json::json!({ "a": ["{url}", 3], "b": { "c": "{content}" } });
        let filled = fill_json(&template, &VALUES);
        assert_eq!(filled["a"][0], "http://127.0.0.1:9/doc.txt");
        assert_eq!(filled["a"][1], 3);
        assert_eq!(filled["b"]["c"], "say {workdir} and {url}");
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
        let fixture = Fixture::start("doc.txt", "text/plain").unwrap();
        fixture.plant("hello <b>");
        let get = |path: &str| {
            let addr = fixture.url().trim_start_matches("http://");
            let host = addr.split('/').next().unwrap();
            let mut stream = std::net::TcpStream::connect(host).unwrap();
            write!(stream, "GET {path} HTTP/1.0\r\nHost: {host}\r\n\r\n").unwrap();
            let mut answer = String::new();
            stream.read_to_string(&mut answer).unwrap();
            answer
        };
        let page = get("/doc.txt");
        assert!(page.starts_with("HTTP/1.0 200"), "{page}");
        assert!(page.ends_with("hello <b>"), "{page}");
        assert!(get("/robots.txt").starts_with("HTTP/1.0 404"));
    }
}
