//! Fuzz target `envelope_nonce`: the reference envelope's nonce mode.
//!
//! A framed input is wrapped with a chosen nonce (so the fuzzer can put the
//! frame's own marker, value and all, in the content) and then, maybe,
//! tampered with. The properties:
//!
//! - the nonce frame is the plain frame with the nonce in both tag names,
//!   nothing else changed, and reads back as the plain frame plus the nonce;
//! - the oracle, judging with the nonce profile, sees exactly one opener
//!   and one closer at every level and reports no security and no
//!   confusable finding;
//! - a closer whose value differs from the opener's (one digit changed,
//!   another frame's value, none) is refused;
//! - whatever [`read_nonce`] accepts (any text, any edit of a frame) is
//!   exactly what [`wrap_with_nonce`] writes for the fields and nonce read.

use std::fmt;

use arbitrary::Arbitrary;

use super::{decode, oracle_reads_token, AdversarialText, RoundtripInput};
use framecheck_core::level::ReaderLevel;
use framecheck_core::oracle::scan::{live_delimiters, DelimiterKind};
use framecheck_core::oracle::{self, CheckClass};
use framecheck_envelope::{self as envelope, read_nonce, wrap_with_nonce, Envelope, Nonce, TOKEN};

/// Input of [`run_envelope_nonce`].
#[derive(Clone, Arbitrary)]
pub enum NonceInput {
    /// Any text, for the reader.
    Raw(String),
    /// A frame wrapped with `nonce`, then `tamper`ed.
    Framed {
        /// The fields and content.
        frame: RoundtripInput,
        /// The nonce's bytes.
        nonce: [u8; 16],
        /// What happens to the frame before it is read.
        tamper: Tamper,
    },
}

/// An edit of a nonce frame.
#[derive(Clone, Arbitrary)]
pub enum Tamper {
    /// None: the frame as written.
    Keep,
    /// The closer's digit at `at` (modulo the length) becomes `digit`.
    Flip {
        /// Which digit.
        at: u8,
        /// The new digit (modulo the hex digits and a few others).
        digit: u8,
    },
    /// The closer carries this other frame's value.
    Other([u8; 16]),
    /// The closer carries no value.
    Remove,
    /// Anything: `delete` bytes at `at` replaced by `insert`.
    Edit {
        /// Where, modulo the length.
        at: u16,
        /// How many bytes to delete.
        delete: u8,
        /// What to insert.
        insert: AdversarialText,
    },
}

impl fmt::Debug for NonceInput {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NonceInput::Raw(text) => write!(f, "envelope::read_nonce({text:?})"),
            NonceInput::Framed { frame, nonce, .. } => write!(
                f,
                "{frame:?} with Nonce::from_bytes({nonce:?}), tampered to {:?}",
                self.tampered_text()
            ),
        }
    }
}

impl NonceInput {
    /// The text the reader is given.
    fn tampered_text(&self) -> Option<String> {
        let NonceInput::Framed {
            frame,
            nonce,
            tamper,
        } = self
        else {
            return None;
        };
        let (about, content) = frame.build();
        let nonce = Nonce::from_bytes(*nonce);
        let framed = wrap_with_nonce(&about, &content, &nonce).ok()?;
        Some(tamper.apply(&framed, &nonce))
    }
}

impl Tamper {
    fn apply(&self, framed: &str, nonce: &Nonce) -> String {
        let closer = format!("\n</{}>", nonce.tag_name());
        let head = framed.strip_suffix(closer.as_str()).unwrap_or(framed);
        let close_with = |value: &str| format!("{head}\n</{TOKEN}{value}>");
        match self {
            Tamper::Keep => framed.to_owned(),
            Tamper::Flip { at, digit } => {
                let mut value = nonce.as_str().as_bytes().to_vec();
                let at = usize::from(*at) % value.len();
                let digits = b"0123456789abcdefABCDEFxz";
                value[at] = digits[usize::from(*digit) % digits.len()];
                close_with(&format!("-{}", String::from_utf8_lossy(&value)))
            }
            Tamper::Other(bytes) => close_with(&format!("-{}", Nonce::from_bytes(*bytes))),
            Tamper::Remove => close_with(""),
            Tamper::Edit { at, delete, insert } => {
                let mut text = framed.to_owned();
                let mut start = usize::from(*at) % (text.len() + 1);
                while !text.is_char_boundary(start) {
                    start -= 1;
                }
                let mut end = (start + usize::from(*delete)).min(text.len());
                while !text.is_char_boundary(end) {
                    end += 1;
                }
                text.replace_range(start..end, &insert.build());
                text
            }
        }
    }

    /// Whether the tampered text still carries the opener's value in its
    /// closer (a flip to the same digit, another frame's value equal to
    /// this one's, an edit that changed nothing there).
    fn keeps_the_value(&self, tampered: &str, nonce: &Nonce) -> bool {
        tampered.ends_with(&format!("\n</{}>", nonce.tag_name()))
    }
}

/// The `envelope_nonce` fuzz target.
pub fn run_envelope_nonce(data: &[u8]) {
    let Some(input) = decode::<NonceInput>(data) else {
        return;
    };
    if let NonceInput::Framed {
        frame,
        nonce,
        tamper,
    } = &input
    {
        let (about, content) = frame.build();
        let nonce = Nonce::from_bytes(*nonce);
        let Ok(framed) = wrap_with_nonce(&about, &content, &nonce) else {
            assert!(
                envelope::wrap(&about, &content).is_err(),
                "nonce mode refused what the plain envelope frames\n{input:?}"
            );
            return;
        };
        assert_same_frame_as_plain(&input, &about, &content, &framed, &nonce);
        assert_oracle_sees_one_nonce_frame(&input, &about, content, &framed);
        let tampered = tamper.apply(&framed, &nonce);
        if !matches!(tamper, Tamper::Edit { .. }) && !tamper.keeps_the_value(&tampered, &nonce) {
            assert!(
                read_nonce(&tampered).is_err(),
                "read_nonce accepted a closer without the opener's value\n{input:?}"
            );
        }
    }
    let text = match &input {
        NonceInput::Raw(text) => text.clone(),
        NonceInput::Framed { .. } => input.tampered_text().unwrap_or_default(),
    };
    assert_strict_read(&input, &text);
}

/// The nonce frame is the plain one with the nonce in the tag names, and
/// reads back as the plain one plus the nonce.
fn assert_same_frame_as_plain(
    input: &NonceInput,
    about: &Envelope,
    content: &str,
    framed: &str,
    nonce: &Nonce,
) {
    let plain = envelope::wrap(about, content)
        .unwrap_or_else(|e| panic!("the plain envelope refuses what nonce mode frames: {e}"));
    let name = nonce.tag_name();
    let middle = &plain[1 + TOKEN.len()..plain.len() - TOKEN.len() - 3];
    assert_eq!(
        framed,
        format!("<{name}{middle}</{name}>"),
        "the nonce frame differs from the plain one beyond the tag names\n{input:?}"
    );
    let mut expected = envelope::read(&plain).expect("the plain frame reads back");
    expected.nonce = Some(nonce.to_string());
    let frame = read_nonce(framed)
        .unwrap_or_else(|e| panic!("read_nonce refused wrap's own frame: {e}\n{input:?}"));
    assert_eq!(frame, expected, "fields\n{input:?}");
}

/// The oracle, with the nonce profile: one opener at the start and one
/// closer at the end at every level, no security or confusable finding.
fn assert_oracle_sees_one_nonce_frame(
    input: &NonceInput,
    about: &Envelope,
    content: String,
    framed: &str,
) {
    let profile = framecheck_envelope::reference_nonce_profile();
    let grammar = profile.grammar();
    for level in ReaderLevel::ALL {
        let live = live_delimiters(framed, &*grammar, level);
        assert!(
            live.len() == 2
                && live[0].kind == DelimiterKind::Open
                && live[0].start == 0
                && live[1].kind == DelimiterKind::Close
                && live[1].end == framed.len() - 1,
            "{level}: the oracle does not see one opener and one closer: {live:?}\n{input:?}\n{framed:?}"
        );
    }
    let (request, case) = super::roundtrip_case(about, content);
    let body = read_nonce(framed).ok().map(|frame| frame.body);
    let findings = oracle::judge_roundtrip(&case, &profile, &request, framed, body.as_deref());
    let wrong: Vec<_> = findings
        .iter()
        .filter(|f| matches!(f.class, CheckClass::Security | CheckClass::Confusable))
        .collect();
    assert!(
        wrong.is_empty(),
        "the oracle reports findings on the nonce reference's own frame: {wrong:#?}\n{input:?}\n{framed:?}"
    );
}

/// What `read_nonce` accepts is exactly what `wrap_with_nonce` writes for
/// the fields and the nonce it read, and its body does not read as the
/// token.
fn assert_strict_read(input: &NonceInput, text: &str) {
    let Ok(frame) = read_nonce(text) else {
        return;
    };
    let nonce = frame
        .nonce
        .as_deref()
        .and_then(Nonce::parse)
        .unwrap_or_else(|| panic!("an accepted frame without a well-formed nonce\n{input:?}"));
    let about = Envelope {
        kind: frame.kind.clone(),
        attributes: frame.attributes.clone(),
        provenance: frame.provenance.clone(),
    };
    let rewrapped = wrap_with_nonce(&about, &frame.body, &nonce)
        .unwrap_or_else(|e| panic!("wrap refuses the fields read accepted: {e}\n{input:?}"));
    assert_eq!(
        rewrapped, text,
        "read_nonce accepted a text wrap would not write\n{input:?}"
    );
    assert!(
        !oracle_reads_token(&frame.body),
        "accepted body reads as the token\n{input:?}"
    );
}

#[cfg(test)]
mod tests {
    use super::*;
    use sha2::{Digest, Sha256};

    /// Pseudo-random inputs, half of them of the `Framed` variant: the
    /// properties hold on all, and the framed ones reach every tamper.
    #[test]
    fn pseudo_random_inputs_hold_and_reach_every_tamper() {
        let mut framed = 0;
        let mut tampers = [0usize; 5];
        for i in 0u32..400 {
            let mut data = if i % 2 == 0 {
                vec![0, 0, 0, 0x80]
            } else {
                vec![0, 0, 0, 0]
            };
            for block in 0..(i % 7 + 1) {
                data.extend_from_slice(&Sha256::digest(
                    [i.to_le_bytes(), block.to_le_bytes()].concat(),
                ));
            }
            if let Some(NonceInput::Framed { tamper, frame, .. }) = decode::<NonceInput>(&data) {
                let (about, content) = frame.build();
                framed += usize::from(envelope::wrap(&about, &content).is_ok());
                tampers[match tamper {
                    Tamper::Keep => 0,
                    Tamper::Flip { .. } => 1,
                    Tamper::Other(_) => 2,
                    Tamper::Remove => 3,
                    Tamper::Edit { .. } => 4,
                }] += 1;
            }
            run_envelope_nonce(&data);
        }
        assert!(framed >= 100, "only {framed} framed inputs wrapped");
        assert!(tampers.iter().all(|&n| n > 0), "{tampers:?}");
    }

    #[test]
    fn a_tampered_closer_is_refused_and_kept_frames_read() {
        let nonce = Nonce::from_bytes([0x3c; 16]);
        let framed = wrap_with_nonce(&Envelope::default(), "x", &nonce).unwrap();
        for tamper in [
            Tamper::Flip { at: 31, digit: 0 },
            Tamper::Other([1; 16]),
            Tamper::Remove,
        ] {
            let text = tamper.apply(&framed, &nonce);
            assert!(!tamper.keeps_the_value(&text, &nonce), "{text:?}");
            assert!(read_nonce(&text).is_err(), "{text:?}");
        }
        assert_eq!(Tamper::Keep.apply(&framed, &nonce), framed);
    }
}
