//! Raw bytes over a protocol of JSON strings: the optional `bytes` extension.
//!
//! A JSON string cannot carry bytes that are not UTF-8, yet a framing that
//! decodes its input leniently (dropping or replacing invalid sequences,
//! accepting overlong forms) can rebuild a delimiter from them. Inside
//! framecheck a case stands for raw byte `b` with the private-use character
//! U+10FF00 + `b` ([`byte_char`]); nothing else uses that block. On the wire
//! such content travels as `content_b64` (standard base64 of the bytes), and
//! only to targets whose profile declares the `bytes` capability; `content`
//! then holds the same text with each raw byte as U+FFFD, so an adapter that
//! ignores the new field still gets a string. A reply's `framed_b64` comes
//! back through [`from_bytes`], which maps every byte that is not part of
//! valid UTF-8 to its private-use stand-in again, so the oracle sees exactly
//! which raw bytes the framing wrote. See `docs/protocol.md`.

use base64::engine::general_purpose::STANDARD;
use base64::Engine as _;

/// First code point of the stand-ins for raw bytes 0x00–0xFF.
pub const RAW_BYTE_BASE: u32 = 0x10_FF00;

/// The character that stands for raw byte `byte`.
pub fn byte_char(byte: u8) -> char {
    char::from_u32(RAW_BYTE_BASE + u32::from(byte)).expect("U+10FF00..=U+10FFFF are scalar values")
}

fn raw_byte(c: char) -> Option<u8> {
    (c as u32)
        .checked_sub(RAW_BYTE_BASE)
        .and_then(|b| u8::try_from(b).ok())
}

/// True when `text` holds a stand-in for a raw byte.
pub fn has_raw_bytes(text: &str) -> bool {
    text.chars().any(|c| raw_byte(c).is_some())
}

/// The bytes `text` stands for: stand-ins become their raw byte, everything
/// else its UTF-8 encoding.
pub fn to_bytes(text: &str) -> Vec<u8> {
    let mut out = Vec::with_capacity(text.len());
    for c in text.chars() {
        match raw_byte(c) {
            Some(b) => out.push(b),
            None => out.extend_from_slice(c.encode_utf8(&mut [0; 4]).as_bytes()),
        }
    }
    out
}

/// `text` for a target without the extension: each raw byte as U+FFFD, as
/// a lenient UTF-8 decoder would show it.
pub fn to_lossy(text: &str) -> String {
    text.chars()
        .map(|c| if raw_byte(c).is_some() { '\u{FFFD}' } else { c })
        .collect()
}

/// Text for `bytes`: valid UTF-8 as it is, every other byte as its stand-in.
pub fn from_bytes(mut bytes: &[u8]) -> String {
    let mut out = String::with_capacity(bytes.len());
    loop {
        match std::str::from_utf8(bytes) {
            Ok(valid) => {
                out.push_str(valid);
                return out;
            }
            Err(error) => {
                let (valid, rest) = bytes.split_at(error.valid_up_to());
                // valid_up_to() is exactly the valid prefix.
                out.push_str(std::str::from_utf8(valid).unwrap_or_default());
                let bad = error.error_len().unwrap_or(rest.len()).max(1);
                out.extend(rest[..bad].iter().map(|&b| byte_char(b)));
                bytes = &rest[bad..];
            }
        }
    }
}

/// Standard base64 with padding.
pub fn encode_b64(bytes: &[u8]) -> String {
    STANDARD.encode(bytes)
}

/// Decodes standard base64; `None` when it is not.
pub fn decode_b64(text: &str) -> Option<Vec<u8>> {
    STANDARD.decode(text).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn raw_bytes_round_trip_through_text() {
        let raw: Vec<u8> = b"a<\xC0/t>\xFF\xC3\xA9 \xE2\x82".to_vec();
        let text = from_bytes(&raw);
        assert!(has_raw_bytes(&text));
        assert_eq!(to_bytes(&text), raw);
        // Valid UTF-8 stays itself; only the bad bytes become stand-ins.
        assert!(text.starts_with("a<") && text.contains('é'));
        assert_eq!(to_lossy(&text).matches('\u{FFFD}').count(), 4);
        assert_eq!(from_bytes("plain é".as_bytes()), "plain é");
        assert!(!has_raw_bytes("plain é"));
    }

    #[test]
    fn base64_round_trips_and_rejects_garbage() {
        assert_eq!(decode_b64(&encode_b64(b"\x00\xFF<")).unwrap(), b"\x00\xFF<");
        assert_eq!(decode_b64("not base64!"), None);
    }
}
