//! Who reads a proposal's output: the consumers `framecheck init` writes
//! in `reader:`, and the line rule of a parser among them.
//!
//! Whether a model reads a framing's output, and which parser reads it
//! back, are facts of the deployment, not of the framing: one adapter can
//! feed a model in one product and only a parser in another, and a parser
//! the framing does not ship answers no experiment. Calibration shows one
//! thing only: a parser the framing ships (its reader answers segments, or
//! decodes the entities of its markup). So a new proposal judges the model,
//! which reading is what a framing is for, and that parser where it shows;
//! the user names the consumers (`init --consumer`, and `--parser-lines`
//! for a parser whose line rule no reader shows) where the deployment is
//! otherwise, and a profile `init` starts from keeps its own.

use framecheck_launch::profile::{Consumer, Consumers, LineSemantics, ReaderSection};

/// Who reads the output, as the user says it (`init --consumer`,
/// `--parser-lines`); each field left `None` is proposed as calibration
/// shows it.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Audience {
    /// The consumers of the output, in place of the default (the model, and
    /// a parser where the framing's own reader shows one).
    pub consumers: Option<Consumers>,
    /// How a parser consumer splits lines, in place of what the framing's
    /// own reader shows (for a parser the framing does not ship, nothing
    /// shows it).
    pub parser_lines: Option<LineSemantics>,
}

/// Where a proposal's consumers come from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Start {
    /// `init PROFILE`: the profile's declared consumers are kept.
    Declared,
    /// A new proposal, with what the user said of its audience.
    New(Audience),
}

impl Start {
    /// Whether the proposal needs a `reader:` line although the framing
    /// answers no `read`: the user named a parser, or its line rule.
    pub(crate) fn names_a_reader(self) -> bool {
        match self {
            Start::Declared => false,
            Start::New(audience) => {
                audience.parser_lines.is_some()
                    || audience
                        .consumers
                        .is_some_and(|c| c.members() != [Consumer::Model])
            }
        }
    }
}

/// The consumers to propose, model first, and why (the `reader:` line's
/// comment). `parser_seen`: the framing's own reader showed a parser.
pub(crate) fn consumers(
    declared: &ReaderSection,
    parser_seen: bool,
    start: Start,
) -> (Vec<Consumer>, &'static str) {
    match start {
        Start::New(Audience {
            consumers: Some(stated),
            ..
        }) => (stated.members(), "as stated (`init --consumer`)"),
        Start::New(_) if parser_seen => (
            vec![Consumer::Model, Consumer::Parser],
            "the framing's own reader parses the frame, and a model reads the output (what a \
             framing is for); say `init --consumer parser` if no model reads it",
        ),
        Start::New(_) => (
            vec![Consumer::Model],
            "a model reads the output; say `init --consumer` if a parser reads it too",
        ),
        Start::Declared => (
            declared_consumers(declared, parser_seen),
            "as declared, with a parser the reader shows",
        ),
    }
}

/// `init PROFILE`'s consumers: the declared ones, with a parser added
/// where the read-back shows one. A declared list stays a list, so the
/// run judges each (a model that reads the output now and the parser that
/// reads it back later); one declared consumer is replaced by an observed
/// parser, as the profile's single consumer was the framing's reader.
fn declared_consumers(declared: &ReaderSection, parser_seen: bool) -> Vec<Consumer> {
    let consumers = declared.consumers();
    if !parser_seen || consumers.contains(&Consumer::Parser) {
        return consumers;
    }
    match declared.consumers {
        Some(_) => [consumers, vec![Consumer::Parser]].concat(),
        None => vec![Consumer::Parser],
    }
}

/// The parser's line rule to propose: the user's, else a declared one
/// other than the default, else what the framing's reader showed.
pub(crate) fn parser_lines(
    declared: &ReaderSection,
    observed: LineSemantics,
    start: Start,
) -> LineSemantics {
    match start {
        Start::New(Audience {
            parser_lines: Some(stated),
            ..
        }) => stated,
        _ if !declared.lines.is_lf() => declared.lines,
        _ => observed,
    }
}
