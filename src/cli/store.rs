//! The closed sets of `init --mcp` that say how an MCP target's store is
//! planted and cleaned (`--plant`, `--setup-input`, `--clean`), as clap
//! value enums. The profile's own enums ([`Plant`], [`SetupInput`],
//! [`Clean`]) derive nothing from clap, so each is mirrored here and mapped
//! by an exhaustive `match`; a test checks that every name clap accepts is
//! the name the profile reads. A wrong value gets clap's error, which lists
//! the choices.

use clap::ValueEnum;
use framecheck::profile::{Clean, Plant, SetupInput};

/// `--plant`: where the content is planted.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(crate) enum PlantArg {
    /// A file in the work directory (`{workdir}/<plant-name>`).
    File,
    /// A page served on 127.0.0.1 at `{url}`.
    Http,
    /// The `{content}` placeholder of the tool's arguments.
    Argument,
    /// The server's own write tool (`--write-tool`).
    Tool,
    /// A setup command (`--setup`).
    Command,
}

impl From<PlantArg> for Plant {
    fn from(arg: PlantArg) -> Plant {
        match arg {
            PlantArg::File => Plant::File,
            PlantArg::Http => Plant::Http,
            PlantArg::Argument => Plant::Argument,
            PlantArg::Tool => Plant::Tool,
            PlantArg::Command => Plant::Command,
        }
    }
}

/// `--setup-input`: how the setup command gets the content.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(crate) enum SetupInputArg {
    /// Where `{content}` stands in the command.
    Argument,
    /// On its standard input.
    Stdin,
    /// In `{workdir}/<plant-name>`, written before it runs.
    File,
}

impl From<SetupInputArg> for SetupInput {
    fn from(arg: SetupInputArg) -> SetupInput {
        match arg {
            SetupInputArg::Argument => SetupInput::Argument,
            SetupInputArg::Stdin => SetupInput::Stdin,
            SetupInputArg::File => SetupInput::File,
        }
    }
}

/// `--clean`: how each plant starts from a clean store.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(crate) enum CleanArg {
    /// Nothing: each read answers only the last plant.
    None,
    /// The server is restarted.
    Restart,
    /// A fresh work directory, `--prepare` run in it, the server restarted.
    Workdir,
    /// `--clean-tool` is called after each read.
    Tool,
}

impl From<CleanArg> for Clean {
    fn from(arg: CleanArg) -> Clean {
        match arg {
            CleanArg::None => Clean::None,
            CleanArg::Restart => Clean::Restart,
            CleanArg::Workdir => Clean::Workdir,
            CleanArg::Tool => Clean::Tool,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cli::same_names;

    #[test]
    fn the_store_choices_are_the_profile_s_names() {
        same_names::<PlantArg, Plant>(5);
        same_names::<SetupInputArg, SetupInput>(3);
        same_names::<CleanArg, Clean>(4);
    }
}
