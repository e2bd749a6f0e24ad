//! Honest generators, each written the way a framing would write it, and
//! the one class each must get.

use std::io::Read;
use std::time::{SystemTime, UNIX_EPOCH};

use sha2::{Digest, Sha256};

use super::*;
use crate::grammar::NonceAlphabet;

fn hex_spec() -> NonceSpec {
    NonceSpec {
        alphabet: NonceAlphabet::Hex,
        min_length: None,
    }
}

fn now_ns() -> u128 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .expect("clock after 1970")
        .as_nanos()
}

fn random_hex(chars: usize) -> String {
    let mut bytes = vec![0u8; chars.div_ceil(2)];
    std::fs::File::open("/dev/urandom")
        .and_then(|mut f| f.read_exact(&mut bytes))
        .expect("/dev/urandom");
    let hex: String = bytes.iter().map(|b| format!("{b:02x}")).collect();
    hex[..chars].to_string()
}

/// Wraps one input [`DEFAULT_SAMPLES`] times, then three other inputs,
/// the way the runner does, and analyses what `nonce` produced.
fn classify(spec: NonceSpec, mut nonce: impl FnMut(&str) -> String) -> Analysis {
    let same_input = (0..DEFAULT_SAMPLES)
        .map(|_| nonce("the same benign content"))
        .collect();
    let other_inputs = ["first other", "second other", "third other"]
        .iter()
        .map(|c| (c.to_string(), nonce(c)))
        .collect();
    let observed = Observations {
        same_input,
        other_inputs,
    };
    analyse(&spec, &observed, now_ns())
}

#[test]
fn secrets_random_is_unpredictable() {
    let a = classify(hex_spec(), |_| random_hex(32));
    assert_eq!(a.class, NonceClass::Unpredictable, "{a}");
    assert!(a.holds());
    assert!(a.bits >= MIN_BITS && a.bits <= 128.0, "{}", a.bits);
}

#[test]
fn a_random_uuid_is_unpredictable() {
    let spec = NonceSpec {
        alphabet: NonceAlphabet::Uuid,
        min_length: None,
    };
    let a = classify(spec, |_| {
        let h = random_hex(32);
        // Version 4 and variant nibbles fixed, as uuid4() writes them.
        format!(
            "{}-{}-4{}-a{}-{}",
            &h[..8],
            &h[8..12],
            &h[13..16],
            &h[17..20],
            &h[20..]
        )
    });
    assert_eq!(a.class, NonceClass::Unpredictable, "{a}");
}

#[test]
fn a_counter_is_sequential() {
    let mut n = 41u64;
    let a = classify(hex_spec(), |_| {
        n += 1;
        format!("{n:016x}")
    });
    assert_eq!(a.class, NonceClass::Sequential(1), "{a}");
    assert!(!a.holds());
}

#[test]
fn nanoseconds_are_time_like() {
    let a = classify(
        NonceSpec {
            alphabet: NonceAlphabet::Digits,
            min_length: Some(19),
        },
        |_| now_ns().to_string(),
    );
    assert_eq!(a.class, NonceClass::TimeLike(TimeUnit::Nanoseconds), "{a}");
}

#[test]
fn whole_seconds_are_time_like_not_reused() {
    let a = classify(hex_spec(), |_| format!("{:x}", now_ns() / 1_000_000_000));
    assert_eq!(a.class, NonceClass::TimeLike(TimeUnit::Seconds), "{a}");
}

#[test]
fn a_content_hash_is_content_determined() {
    let a = classify(hex_spec(), |content| {
        let digest = Sha256::digest(content.as_bytes());
        digest.iter().take(16).map(|b| format!("{b:02x}")).collect()
    });
    assert_eq!(a.class, NonceClass::ContentDetermined, "{a}");
}

#[test]
fn a_fixed_value_is_reused() {
    let fixed = random_hex(32);
    let a = classify(hex_spec(), |_| fixed.clone());
    assert_eq!(a.class, NonceClass::Reused, "{a}");
}

#[test]
fn a_short_random_value_is_low_entropy() {
    let a = classify(hex_spec(), |_| random_hex(8));
    assert_eq!(a.class, NonceClass::LowEntropy, "{a}");
    assert!(a.bits < 40.0, "{}", a.bits);
}

#[test]
fn a_small_pool_repeats() {
    let pool: Vec<String> = (0..4).map(|_| random_hex(32)).collect();
    let mut i = 0usize;
    let a = classify(hex_spec(), |_| {
        // A pool drawn once and cycled: distinct-looking, but it repeats.
        i = (i * 5 + 3) % 4;
        pool[i].clone()
    });
    assert!(
        matches!(
            a.class,
            NonceClass::Repeated {
                distinct: 4,
                total: 32
            }
        ),
        "{a}"
    );
}
