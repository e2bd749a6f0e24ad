//! The closed sets of `init --consumer` and `init --parser-lines`, who
//! reads a framing's output and how a parser among them splits lines, as
//! clap value enums mapped onto the profile's [`Consumer`] and
//! [`LineSemantics`] (which derive nothing from clap); a test checks that
//! every name clap accepts is the name the profile reads.

use clap::ValueEnum;
use framecheck::profile::{Consumer, LineSemantics};

/// `--consumer`: who reads the output.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(crate) enum ConsumerArg {
    /// A language model, at every reader level.
    Model,
    /// A program that parses the output and reads its bytes exactly.
    Parser,
}

impl From<ConsumerArg> for Consumer {
    fn from(arg: ConsumerArg) -> Consumer {
        match arg {
            ConsumerArg::Model => Consumer::Model,
            ConsumerArg::Parser => Consumer::Parser,
        }
    }
}

/// `--parser-lines`: where a parser consumer's lines end.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(crate) enum LinesArg {
    /// At LF only.
    Lf,
    /// At every break `str.splitlines()` honours (CR, VT, FF, NEL, U+2028…).
    Unicode,
}

impl From<LinesArg> for LineSemantics {
    fn from(arg: LinesArg) -> LineSemantics {
        match arg {
            LinesArg::Lf => LineSemantics::Lf,
            LinesArg::Unicode => LineSemantics::Unicode,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cli::same_names;

    #[test]
    fn the_audience_choices_are_the_profile_s_names() {
        same_names::<ConsumerArg, Consumer>(2);
        same_names::<LinesArg, LineSemantics>(2);
    }
}
