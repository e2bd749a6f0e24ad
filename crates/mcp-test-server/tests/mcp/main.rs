//! The MCP adapter against real servers, in one test binary: this crate's
//! test server and the published ones `.ci/run` installs. They live with
//! the server because only a crate's own integration tests are told where
//! its binaries are (`CARGO_BIN_EXE_framecheck-mcp-test-server`).

mod items;
mod server;
mod store;
