//! MCP servers spoken to over Streamable HTTP (`adapter.mcp.url`): the
//! port picked for `{port}`, the wait until the started server listens,
//! and the SDK's own client transport (over reqwest) that speaks to it.
//!
//! The wait is a TCP connect, tried again until `startup_ms` (under the
//! target's patience) ends or the server exits, so a server that never
//! listens ends in an error naming the endpoint (and the profile line of
//! `url`), not in the SDK's connection error from its first `POST`.

use std::io::{self, Read};
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::time::{Duration, Instant};

use rmcp::transport::streamable_http_client::StreamableHttpClientTransportConfig;
use rmcp::transport::StreamableHttpClientTransport;

use super::super::subprocess::GroupProcess;

/// How long one connect attempt, and the pause between two, may take.
const POLL: Duration = Duration::from_millis(50);

/// A port on 127.0.0.1 that was free a moment ago: the kernel picks it for
/// a listener closed at once, and the server binds it next. Another
/// program could take it in between; the server then fails to listen and
/// the start is an error, tried again on the next request.
pub(super) fn free_port() -> io::Result<u16> {
    let listener = TcpListener::bind("127.0.0.1:0")?;
    Ok(listener.local_addr()?.port())
}

/// Why the endpoint never accepted a connection.
#[derive(Debug, thiserror::Error)]
pub(super) enum ListenError {
    /// The filled-in URL has no host and port to connect to.
    #[error("{url:?} is not a URL with a reachable host and port: {reason}")]
    BadUrl {
        /// The URL, `{port}` filled in.
        url: String,
        /// What the URL parser or resolver said.
        reason: String,
    },
    /// The server ended while it was waited for.
    #[error("the server exited ({status}) before it listened at {url}")]
    Exited {
        /// The URL, `{port}` filled in.
        url: String,
        /// How it ended.
        status: String,
    },
    /// The server ran but nothing accepted a connection in time.
    #[error("nothing listened at {url} within {waited}")]
    Silent {
        /// The URL, `{port}` filled in.
        url: String,
        /// The bound that passed, as the reason states it.
        waited: String,
    },
}

/// Waits until something accepts a TCP connection at `url`'s host and
/// port, for at most `startup` (`waited` states it), giving up early if
/// `process` exits.
pub(super) fn wait_listening(
    url: &str,
    process: &mut GroupProcess,
    startup: Duration,
    waited: &str,
) -> Result<(), ListenError> {
    let bad = |reason: String| ListenError::BadUrl {
        url: url.to_string(),
        reason,
    };
    let parsed = reqwest::Url::parse(url).map_err(|e| bad(e.to_string()))?;
    let addresses: Vec<SocketAddr> = parsed
        .socket_addrs(|| None)
        .map_err(|e| bad(e.to_string()))?;
    let deadline = Instant::now() + startup;
    loop {
        if addresses
            .iter()
            .any(|address| TcpStream::connect_timeout(address, POLL).is_ok())
        {
            return Ok(());
        }
        if let Some(status) = process.exited() {
            return Err(ListenError::Exited {
                url: url.to_string(),
                status: status.to_string(),
            });
        }
        if Instant::now() >= deadline {
            return Err(ListenError::Silent {
                url: url.to_string(),
                waited: waited.to_string(),
            });
        }
        std::thread::sleep(POLL);
    }
}

/// The SDK's Streamable HTTP transport to `url`. Proxies are turned off:
/// the server is on this machine, and an `HTTP_PROXY` meant for the
/// outside must not carry the audit's traffic. Spawns the SDK's worker,
/// so it is called inside the runtime.
pub(super) fn transport(
    url: &str,
) -> Result<StreamableHttpClientTransport<reqwest::Client>, reqwest::Error> {
    let client = reqwest::Client::builder().no_proxy().build()?;
    let config = StreamableHttpClientTransportConfig::with_uri(url);
    Ok(StreamableHttpClientTransport::with_client(client, config))
}

/// Reads a server's stdout to its end on a thread of its own: a server
/// spoken to over HTTP may still log there, and a full pipe would stop it.
pub(super) fn drain(mut stdout: std::process::ChildStdout) -> io::Result<()> {
    std::thread::Builder::new()
        .name("framecheck-mcp-stdout".into())
        .spawn(move || {
            let mut chunk = [0u8; 8192];
            loop {
                match stdout.read(&mut chunk) {
                    Ok(0) => break,
                    Ok(_) => {}
                    Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                    Err(_) => break,
                }
            }
        })
        .map(drop)
}
