//! Command-line plumbing that is not a subcommand: how closed sets become
//! clap arguments. clap lives only in this binary. Report formats and
//! helper languages carry their own names and one-line descriptions in the
//! library, and [`choices`] shows them to clap; the MCP store's choices of
//! `init --mcp` are clap value enums here ([`store`]), as are the audience
//! of `init --consumer` ([`audience`]), each mapped onto the profile's enum,
//! which derives nothing from clap.

pub(crate) mod audience;
pub(crate) mod choices;
pub(crate) mod progress;
pub(crate) mod store;

/// Every value clap accepts for `A` maps to the profile's value `P` of the
/// same name (its serialisation, as `init` writes it into a proposal), and
/// the profile has no value clap does not offer (`profile_values` in all).
#[cfg(test)]
pub(crate) fn same_names<A, P>(profile_values: usize)
where
    A: clap::ValueEnum + Copy,
    P: From<A> + serde::Serialize,
{
    for arg in A::value_variants() {
        let name = arg.to_possible_value().expect("no value is hidden");
        assert_eq!(
            serde_json::json!(P::from(*arg)),
            serde_json::Value::from(name.get_name()),
        );
    }
    assert_eq!(A::value_variants().len(), profile_values);
}
