//! An entropy estimate for observed nonce values.
//!
//! The estimate is per position: the characters seen at each position over
//! the samples, scaled up to the alphabet size they are consistent with,
//! then summed in bits. Scaling matters because a handful of samples
//! cannot show every character of a large alphabet: 32 uniform draws from
//! 16 hex digits show about 14 of them, and a plain `log2(distinct)` would
//! call a 64-bit hex nonce a 61-bit one. A position that never varies adds
//! nothing, and no position adds more than the declared alphabet allows.
//!
//! This only bounds what the samples show. A value that looks uniform
//! (a keyed hash of a counter) can still be predictable; the pattern
//! detectors in [`super::pattern`] name the predictable kinds we can see.

use std::collections::BTreeSet;

use crate::grammar::NonceAlphabet;

/// The number of symbols a nonce of `alphabet` is drawn from. A UUID's
/// dashes sit at fixed places and carry nothing, so it counts as hex.
pub(super) fn alphabet_size(alphabet: NonceAlphabet) -> usize {
    match alphabet {
        NonceAlphabet::Hex | NonceAlphabet::Uuid => 16,
        NonceAlphabet::Base64url => 64,
        NonceAlphabet::Alnum => 62,
        NonceAlphabet::Digits => 10,
    }
}

/// Estimated bits of unpredictability in `values`, drawn from `alphabet`.
///
/// Hex digits are compared case-insensitively (a hex nonce's case carries
/// no information a reader keeps); other alphabets as written.
pub(super) fn estimate_bits(values: &[String], alphabet: NonceAlphabet) -> f64 {
    let size = alphabet_size(alphabet);
    let fold = matches!(alphabet, NonceAlphabet::Hex | NonceAlphabet::Uuid);
    let rows: Vec<Vec<char>> = values
        .iter()
        .map(|v| {
            v.chars()
                .map(|c| if fold { c.to_ascii_lowercase() } else { c })
                .collect()
        })
        .collect();
    let width = rows.iter().map(Vec::len).max().unwrap_or(0);
    (0..width)
        .map(|i| {
            let column: Vec<char> = rows.iter().filter_map(|r| r.get(i).copied()).collect();
            position_bits(&column, size)
        })
        .sum()
}

/// Bits at one position: `log2` of the alphabet size the distinct
/// characters seen are consistent with, capped by `size`. A count within
/// five standard deviations below what uniform draws from the whole
/// alphabet give earns the whole alphabet: the count of a uniform source
/// falls below its mean half the time, and scaling every such shortfall
/// down made a 64-bit nonce (`randomBytes(8)` as hex) read as 63 bits in
/// about half of all runs. (32 draws from 16 symbols: 9 or more distinct
/// earn 4 bits; a uniform source shows 8 or fewer once in 370,000
/// positions. The price: 32 samples cannot tell 12 symbols from 16.)
fn position_bits(column: &[char], size: usize) -> f64 {
    let distinct = column.iter().collect::<BTreeSet<_>>().len();
    if distinct <= 1 {
        return 0.0;
    }
    let (n, a) = (column.len() as f64, size as f64);
    // Mean and variance of the distinct symbols in n uniform draws from a.
    let miss = (1.0 - 1.0 / a).powf(n);
    let expected = a * (1.0 - miss);
    let variance = a * (a - 1.0) * (1.0 - 2.0 / a).powf(n) + a * miss - (a * miss).powi(2);
    if distinct as f64 >= expected - 5.0 * variance.max(0.0).sqrt() {
        return a.log2();
    }
    let effective = (distinct as f64 * a / expected).min(a);
    effective.log2()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn constant_positions_add_nothing() {
        let values = vec!["abcd".to_string(); 32];
        assert_eq!(estimate_bits(&values, NonceAlphabet::Hex), 0.0);
    }

    #[test]
    fn a_full_spread_earns_the_alphabet_and_no_more() {
        // Every hex digit twice at each of 16 positions: the most 32
        // samples can show, credited as 4 bits a position.
        let values: Vec<String> = (0..32)
            .map(|i| format!("{:x}", i % 16).repeat(16))
            .collect();
        let bits = estimate_bits(&values, NonceAlphabet::Hex);
        assert!((bits - 64.0).abs() < 1e-9, "{bits}");
    }

    /// 64 random bits as 16 hex digits, sampled 32 times, always earn the
    /// 64 bits required; half the alphabet per position stays well below.
    #[test]
    fn a_uniform_64_bit_nonce_is_not_read_as_less() {
        let mut state = 0x9e37_79b9_7f4a_7c15_u64;
        let mut next = || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        for _ in 0..200 {
            let values: Vec<String> = (0..32).map(|_| format!("{:016x}", next())).collect();
            let bits = estimate_bits(&values, NonceAlphabet::Hex);
            assert!(bits >= 64.0, "{bits}");
            let narrow: Vec<String> = (0..32)
                .map(|_| format!("{:016x}", next() & 0x7777_7777_7777_7777))
                .collect();
            let bits = estimate_bits(&narrow, NonceAlphabet::Hex);
            assert!(bits < 56.0, "{bits}");
        }
    }

    #[test]
    fn two_symbols_at_one_position_are_about_one_bit() {
        let values: Vec<String> = (0..32).map(|i| format!("000{}", i % 2)).collect();
        let bits = estimate_bits(&values, NonceAlphabet::Digits);
        assert!(bits > 0.9 && bits < 1.5, "{bits}");
    }
}
