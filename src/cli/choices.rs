//! A clap value parser over a library enum: the enum says its names and
//! descriptions (`name()`, `description()`), so the library needs no clap
//! derive and `--help` lists each value with its line, as `ValueEnum` would.

use clap::builder::{PossibleValue, TypedValueParser};
use clap::error::ErrorKind;

/// A closed set the command line accepts by name.
pub(crate) trait Choice: Copy + Send + Sync + 'static {
    /// Every member, in the order `--help` lists them.
    fn all() -> &'static [Self];
    /// The name typed on the command line.
    fn name(self) -> &'static str;
    /// One line for `--help`.
    fn description(self) -> &'static str;
}

impl Choice for framecheck::report::Format {
    fn all() -> &'static [Self] {
        Self::ALL
    }
    fn name(self) -> &'static str {
        self.name()
    }
    fn description(self) -> &'static str {
        self.description()
    }
}

impl Choice for framecheck::adapter::subprocess::helpers::Language {
    fn all() -> &'static [Self] {
        &Self::ALL
    }
    fn name(self) -> &'static str {
        self.name()
    }
    fn description(self) -> &'static str {
        self.description()
    }
}

/// The parser for `T`: `#[arg(value_parser = Choices::<T>::new())]`.
#[derive(Clone, Copy)]
pub(crate) struct Choices<T>(std::marker::PhantomData<T>);

impl<T: Choice> Choices<T> {
    /// The parser.
    pub(crate) fn new() -> Self {
        Choices(std::marker::PhantomData)
    }

    fn possible() -> impl Iterator<Item = PossibleValue> {
        T::all()
            .iter()
            .map(|c| PossibleValue::new(c.name()).help(c.description()))
    }
}

impl<T: Choice> TypedValueParser for Choices<T> {
    type Value = T;

    fn parse_ref(
        &self,
        cmd: &clap::Command,
        arg: Option<&clap::Arg>,
        value: &std::ffi::OsStr,
    ) -> Result<T, clap::Error> {
        // Delegate to clap's own parser of the names, so a wrong value gets
        // clap's usual error with the list of valid ones.
        let names = clap::builder::PossibleValuesParser::new(Self::possible());
        let name = names.parse_ref(cmd, arg, value)?;
        T::all()
            .iter()
            .copied()
            .find(|c| c.name() == name)
            .ok_or_else(|| clap::Error::new(ErrorKind::InvalidValue).with_cmd(cmd))
    }

    fn possible_values(&self) -> Option<Box<dyn Iterator<Item = PossibleValue> + '_>> {
        Some(Box::new(Self::possible()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use framecheck::adapter::subprocess::helpers::Language;
    use framecheck::report::Format;

    fn parse<T: Choice>(name: &str) -> Result<T, clap::Error> {
        let cmd = clap::Command::new("framecheck");
        Choices::<T>::new().parse_ref(&cmd, None, std::ffi::OsStr::new(name))
    }

    #[test]
    fn format_names_parse_on_the_command_line() {
        for format in Format::ALL {
            assert_eq!(parse::<Format>(format.name()).unwrap(), *format);
        }
        assert!(parse::<Format>("xml").is_err());
    }

    #[test]
    fn language_names_parse_on_the_command_line() {
        for language in Language::ALL {
            assert_eq!(parse::<Language>(language.name()).unwrap(), language);
        }
        assert!(parse::<Language>("ruby").is_err());
    }
}
