//! The reference envelope's own tests, one binary (`props`): its property
//! tests (wrap and read-back, the control scan, nonce mode), checked
//! against `framecheck_core::level`'s plain folding and the oracle rather
//! than the envelope's fast scanner, and one test per weakness the seed
//! framings showed. They build nothing above the envelope (issue 53: each
//! crate carries its own tests).

mod control_props;
mod nonce_props;
mod seed_weaknesses;
mod wrap_props;

/// The line breaks a test reads text at, written out here so that the
/// tests do not take the envelope's own list as their oracle.
pub(crate) fn is_line_break(c: char) -> bool {
    matches!(
        c,
        '\n' | '\u{0B}' | '\u{0C}' | '\r' | '\u{85}' | '\u{2028}' | '\u{2029}'
    )
}
