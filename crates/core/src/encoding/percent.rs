//! The `percent` body encoding: the content's UTF-8 bytes outside RFC
//! 3986's unreserved characters written as `%XX`, as a URL's components
//! are (`urllib.parse.quote`, `encodeURIComponent`), and read back as a
//! URL decoder reads them (`urllib.parse.unquote`).
//!
//! Writers differ in what they leave as it is (`quote` keeps `/` unless
//! told otherwise and a `safe` argument keeps more; `encodeURIComponent`
//! keeps `!'()*`), so a body is found by decoding the span between the
//! content's first and last words ([`Spelling::Loose`]) and judged by what
//! it decodes to, not by which characters it escaped: a character left as
//! it is reads back as itself, and one the encoding lets through raw (a
//! `<` kept by `safe`) is still seen by the oracle's scans, which read the
//! encoded body. A `+` is a `+`, as `unquote` reads it (`unquote_plus`'s
//! space is a form encoding, not this one).

use std::borrow::Cow;

use percent_encoding::{percent_decode_str, utf8_percent_encode, AsciiSet, NON_ALPHANUMERIC};

use super::codec::{Codec, Experiment, Spelling};
use super::{Datamark, DecodeError};

/// What the canonical writer escapes: everything but RFC 3986's
/// unreserved characters (letters, digits, `-._~`).
const ESCAPED: &AsciiSet = &NON_ALPHANUMERIC
    .remove(b'-')
    .remove(b'.')
    .remove(b'_')
    .remove(b'~');

/// The `percent` codec.
pub(super) struct PercentCodec;

impl Codec for PercentCodec {
    fn name(&self) -> &'static str {
        "percent"
    }

    fn encode(&self, content: &str, _mark: Datamark<'_>) -> String {
        utf8_percent_encode(content, ESCAPED).to_string()
    }

    fn decode<'b>(&self, body: &'b str, _mark: &str) -> Result<Cow<'b, str>, DecodeError> {
        // A `%` not followed by two hex digits stays as written, as
        // `unquote` and the crate both read it.
        percent_decode_str(body)
            .decode_utf8()
            .map_err(|_| DecodeError::NotUtf8)
    }

    fn faithful(&self, body: &str, content: &str, mark: Datamark<'_>) -> bool {
        self.decode(body, mark.mark)
            .is_ok_and(|decoded| decoded == content)
    }

    fn tried_undeclared(&self) -> bool {
        true
    }

    fn spelling(&self) -> Spelling {
        Spelling::Loose {
            quotes: &[],
            nests_unquoted: false,
        }
    }

    fn experiment(&self) -> Option<Experiment> {
        None
    }

    fn model_may_decode(&self) -> bool {
        // `%3C` is no bracket a model reads as one the way it reads `&lt;`
        // in markup: like base64, the escapes are opaque to a reader that
        // does not decode them.
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_writers_spelling_reads_back_and_only_exact_readings_are_faithful() {
        let content = "a/b <x> 50% é\n+";
        let ours = PercentCodec.encode(content, "".into());
        assert_eq!(ours, "a%2Fb%20%3Cx%3E%2050%25%20%C3%A9%0A%2B");
        // urllib.parse.quote(content, safe=' '), and quote's default.
        for body in [
            "a%2Fb %3Cx%3E 50%25 %C3%A9%0A%2B",
            "a/b%20%3Cx%3E%2050%25%20%C3%A9%0A%2B",
            ours.as_str(),
        ] {
            assert!(PercentCodec.faithful(body, content, "".into()), "{body}");
        }
        // A `%` the writer left raw before two hex digits is read as an
        // escape: the content does not come back.
        assert!(!PercentCodec.faithful("%41", "%41", "".into()));
        assert!(PercentCodec.faithful("100%", "100%", "".into()));
        // quote_plus's `+` is a `+` to this reader.
        assert!(!PercentCodec.faithful("a+b", "a b", "".into()));
        assert_eq!(PercentCodec.decode("%FF", ""), Err(DecodeError::NotUtf8));
    }
}
