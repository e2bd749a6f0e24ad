//! framecheck's target launch configuration: how framecheck reaches a
//! framing, as a profile's `adapter:` section declares it (a built-in, a
//! subprocess speaking the JSON-lines protocol, or an MCP server), with
//! its rules and the parts of the manifest that read it.
//!
//! It sits between core and the crates that name a whole target (the run
//! crate, which launches it; the report crate, which records it and reads
//! it back; the reference envelope, whose built-in profile names its
//! adapter). Core knows the frame description only: it parses the profile
//! file and carries the `adapter:` section as its type parameter
//! (`framecheck_core::profile::Launch`), and this crate fills that
//! parameter in. Data flows one way: core, then this crate, then those.
//!
//! [`profile`] and [`outcome`] are core's modules of the same names with
//! the target types made concrete ([`profile::TargetProfile`] is core's
//! `TargetProfile<AdapterSpec>`), so that one path names a target and its
//! frame description alike.

mod language;
pub mod manifest;
mod spec;

/// Core's profile module, with the launch configuration and the target
/// types made concrete.
pub mod profile {
    pub use framecheck_core::profile::*;

    pub use crate::language::Language;
    // Every kind's spec as the spec module exports it, so a new kind is
    // not listed here too.
    pub use crate::spec::*;

    /// A framing under test and how framecheck reaches it.
    pub type TargetProfile = framecheck_core::profile::TargetProfile<AdapterSpec>;

    /// A target and the directory its profile was loaded from.
    pub type LoadedProfile = framecheck_core::profile::LoadedProfile<AdapterSpec>;
}

/// Core's outcome module, with a run's target made concrete.
pub mod outcome {
    pub use framecheck_core::outcome::*;

    use crate::profile::AdapterSpec;

    /// Facts about a run that every report states.
    pub type RunMeta = framecheck_core::outcome::RunMeta<AdapterSpec>;

    /// A whole run: the input to every report.
    pub type RunResult = framecheck_core::outcome::RunResult<AdapterSpec>;
}

#[cfg(test)]
mod tests {
    use framecheck_core::profile::{Field, InvalidProfile, Position};

    use crate::profile::{AdapterField, AdapterRule, InvalidAdapter, TargetProfile};

    /// A target is written as the one mapping its file is: the adapter
    /// between the language and the delimiters, as reports record it and
    /// the manifest hashes it, and read back to the same two halves.
    #[test]
    fn a_target_is_written_and_read_as_one_mapping() {
        let text = "name: t\nadapter: { command: [python3, a.py], timeout_ms: 7 }\n\
                    delimiters: { grammar: xml-tag, token: doc }\ncapabilities: [wrap]\n";
        let profile = TargetProfile::parse(text).unwrap();
        let json = serde_json::to_string(&profile).unwrap();
        assert!(
            json.starts_with(
                "{\"name\":\"t\",\"description\":\"\",\"language\":\"\",\
                 \"adapter\":{\"command\":[\"python3\",\"a.py\"],"
            ),
            "{json}"
        );
        assert!(json.contains("\"timeout_ms\":7,"), "{json}");
        assert!(
            json.contains("},\"delimiters\":{\"grammar\":\"xml-tag\""),
            "{json}"
        );
        let back: TargetProfile = serde_json::from_str(&json).unwrap();
        assert_eq!(back, profile);
        assert_eq!(back.framing.delimiters.token, "doc");
        // An unknown key is still refused, naming the struct as before.
        let error = TargetProfile::parse(&format!("{text}colour: red\n")).unwrap_err();
        assert!(
            error.to_string().contains("unknown field `colour`"),
            "{error}"
        );
    }

    fn expect(field: AdapterField, rule: AdapterRule, at: Option<(u64, u64)>) -> InvalidProfile {
        let error = InvalidProfile::adapter(InvalidAdapter::new(field, rule));
        assert_eq!(error.field, Some(Field::Adapter));
        InvalidProfile {
            position: at.map(|(line, column)| Position { line, column }),
            ..error
        }
    }

    /// An adapter's rules name their field and the place it has in the
    /// text, as core's rules do.
    #[test]
    fn adapter_errors_point_at_their_field() {
        let base = "name: x\nadapter:\n  command: [a]\ndelimiters:\n  grammar: xml-tag\n  token: t\ncapabilities: [wrap]\n";
        let with = |line: &str, new: &str| base.replacen(line, new, 1);
        let cases = [
            (
                with("  command: [a]", "  command: []"),
                expect(
                    AdapterField::AdapterCommand,
                    AdapterRule::EmptyCommand,
                    Some((3, 12)),
                ),
            ),
            (
                with("  command: [a]", "  command: [a]\n  timeout_ms: 0"),
                expect(
                    AdapterField::AdapterTimeoutMs,
                    AdapterRule::ZeroTimeout,
                    Some((4, 15)),
                ),
            ),
        ];
        for (text, expected) in cases {
            assert_eq!(TargetProfile::parse(&text).unwrap_err(), expected, "{text}");
        }
    }
}
