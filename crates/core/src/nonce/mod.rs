//! Nonce analysis: is a framing's per-call variable part unpredictable?
//!
//! A nonce framing (`<untrusted-{nonce}>…</untrusted-{nonce}>`) is only as
//! strong as the attacker's ignorance of the current value. The attacker
//! writes the content, may have seen earlier frames, and does not see the
//! current one. [`analyse`] looks at the values a target produced over
//! many wraps of one input and a few wraps of other inputs, and names the
//! first predictable kind it sees, in this order:
//!
//! 1. **time-like**: every value reads as the current time (Unix s, ms,
//!    µs or ns, decimal or hex, or a compact calendar date);
//! 2. **sequential**: the values are a counter (a constant step, decimal
//!    or hex);
//! 3. **reused**: one value for every wrap, whatever the content;
//! 4. **content-determined**: the same content always gets the same value
//!    and different content a different one (a hash of the content, which
//!    the attacker who wrote it can compute);
//! 5. **repeated**: some wraps of the same input share a value;
//! 6. **low entropy**: the estimate (`entropy`) is below 64 bits.
//!
//! Otherwise the nonce is [`NonceClass::Unpredictable`]. The order puts
//! the most specific explanation first, so a clock in whole seconds (which
//! repeats within a second) is named a clock, not a reused value. What
//! this proves is bounded by what samples can show: a keyed hash of a
//! counter looks random here. See `docs/nonce.md`.

use std::fmt;

use crate::catalogue::ConcreteCase;
use crate::grammar::NonceSpec;

mod entropy;
pub mod harvest;
mod pattern;

pub use pattern::TimeUnit;

/// How many wraps of the same input the runner makes by default.
pub const DEFAULT_SAMPLES: usize = 32;

/// The least estimated entropy, in bits, that counts as unpredictable.
pub const MIN_BITS: f64 = 64.0;

/// The nonce values a target produced.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Observations {
    /// Values from wraps of one input, in the order they were made.
    pub same_input: Vec<String>,
    /// `(content, value)` from wraps of other inputs (at least two distinct
    /// contents, to tell a content hash from a reused value).
    pub other_inputs: Vec<(String, String)>,
}

/// What kind of nonce the observations show.
#[derive(Debug, Clone, PartialEq)]
pub enum NonceClass {
    /// All distinct, no pattern, at least [`MIN_BITS`] estimated.
    Unpredictable,
    /// The values read as the current time.
    TimeLike(TimeUnit),
    /// The values are a counter with this step.
    Sequential(i128),
    /// One value for every wrap.
    Reused,
    /// The same content gets the same value, other content another.
    ContentDetermined,
    /// Wraps of the same input share values: `distinct` of `total`.
    Repeated {
        /// Distinct values.
        distinct: usize,
        /// Values observed.
        total: usize,
    },
    /// All distinct but the estimate is below [`MIN_BITS`].
    LowEntropy,
}

/// The result of [`analyse`].
#[derive(Debug, Clone, PartialEq)]
pub struct Analysis {
    /// The kind of nonce.
    pub class: NonceClass,
    /// The entropy estimate over the same-input values, in bits.
    pub bits: f64,
}

impl Analysis {
    /// Whether check `nonce.unpredictable` holds.
    pub fn holds(&self) -> bool {
        self.class == NonceClass::Unpredictable
    }
}

impl fmt::Display for Analysis {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let bits = self.bits;
        match &self.class {
            NonceClass::Unpredictable => write!(f, "the nonce is distinct per call with about {bits:.0} bits of estimated entropy"),
            NonceClass::TimeLike(unit) => write!(f, "the nonce reads as the current time ({}): an attacker can guess it", unit.name()),
            NonceClass::Sequential(step) => write!(f, "the nonce is a counter (step {step}): an attacker who saw one frame can compute the next"),
            NonceClass::Reused => f.write_str("the nonce is one value for every call: an attacker who saw one frame knows it"),
            NonceClass::ContentDetermined => f.write_str("the nonce is determined by the content (the same content gives the same value): the attacker who wrote the content can compute it"),
            NonceClass::Repeated { distinct, total } => write!(f, "the nonce repeats: {distinct} distinct values in {total} wraps of the same input"),
            NonceClass::LowEntropy => write!(f, "the nonce has about {bits:.0} bits of estimated entropy, below the {MIN_BITS:.0} required"),
        }
    }
}

/// Decides `nonce.unpredictable` for `observed` values of a nonce declared
/// as `spec`, at `now_ns` (Unix nanoseconds, when the wraps were made).
pub fn analyse(spec: &NonceSpec, observed: &Observations, now_ns: u128) -> Analysis {
    let same = &observed.same_input;
    let bits = entropy::estimate_bits(same, spec.alphabet);
    let all: Vec<String> = same
        .iter()
        .chain(observed.other_inputs.iter().map(|(_, v)| v))
        .cloned()
        .collect();
    let distinct = count_distinct(same);
    let class = if let Some(unit) = pattern::clock_unit(&all, now_ns) {
        NonceClass::TimeLike(unit)
    } else if let Some(step) = pattern::counter_step(same) {
        NonceClass::Sequential(step)
    } else if count_distinct(&all) == 1 && all.len() > 1 {
        NonceClass::Reused
    } else if distinct == 1 && same.len() > 1 && content_determined(observed) {
        NonceClass::ContentDetermined
    } else if distinct < same.len() {
        NonceClass::Repeated {
            distinct,
            total: same.len(),
        }
    } else if bits < MIN_BITS {
        NonceClass::LowEntropy
    } else {
        NonceClass::Unpredictable
    };
    Analysis { class, bits }
}

fn count_distinct(values: &[String]) -> usize {
    values
        .iter()
        .collect::<std::collections::BTreeSet<_>>()
        .len()
}

/// Whether equal contents got equal values and different contents
/// different values, over the other inputs and the same-input value.
fn content_determined(observed: &Observations) -> bool {
    let mut by_content = std::collections::BTreeMap::new();
    for (content, value) in &observed.other_inputs {
        if by_content
            .insert(content, value)
            .is_some_and(|v| v != value)
        {
            return false;
        }
    }
    let values: Vec<&String> = by_content.values().copied().collect();
    by_content.len() >= 2
        && count_distinct(&values.into_iter().cloned().collect::<Vec<_>>()) == by_content.len()
}

/// The source every probe case names in place of a catalogue file.
pub const PROBE_SOURCE: &str = "<framecheck nonce probe>";

/// True for a case these probes made (its input is built from the target's
/// own earlier outputs), false for a catalogue case.
pub fn is_probe(case: &ConcreteCase) -> bool {
    case.source.file.as_os_str() == PROBE_SOURCE
}

/// `value` with its last character changed within its class (a digit to
/// another digit, a hex letter to another hex letter): the same length and
/// shape, so a reader that checks the shape (a UUID's version nibble)
/// still sees a well-formed value, and a near miss, so a reader that
/// compares only a prefix is caught too.
pub fn other_value(value: &str) -> String {
    let mut chars: Vec<char> = value.chars().collect();
    if let Some(c) = chars.iter_mut().rev().find(|c| c.is_ascii_alphanumeric()) {
        let next = |c: char, first: char, count: u8| {
            char::from(first as u8 + (c as u8 - first as u8 + 1) % count)
        };
        *c = match *c {
            '0'..='9' => next(*c, '0', 10),
            'a'..='f' => next(*c, 'a', 6),
            'A'..='F' => next(*c, 'A', 6),
            'g'..='z' => next(*c, 'g', 20),
            _ => next(*c, 'G', 20),
        };
    }
    chars.into_iter().collect()
}

#[cfg(test)]
mod tests;
