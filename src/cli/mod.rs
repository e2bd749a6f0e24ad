//! Command-line plumbing that is not a subcommand: how closed sets the
//! library names (report formats, helper languages) become clap arguments.
//! clap lives only in this binary; the library's enums carry their own
//! names and one-line descriptions, and [`choices`] shows them to clap.

pub(crate) mod choices;
pub(crate) mod progress;
