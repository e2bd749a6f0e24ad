//! Command-line plumbing that is not a subcommand: how closed sets become
//! clap arguments. clap lives only in this binary. Report formats and
//! helper languages carry their own names and one-line descriptions in the
//! library, and [`choices`] shows them to clap; the MCP store's choices of
//! `init --mcp` are clap value enums here ([`store`]), each mapped onto the
//! profile's enum, which derives nothing from clap.

pub(crate) mod choices;
pub(crate) mod progress;
pub(crate) mod store;
