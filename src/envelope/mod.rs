//! The reference envelope.

/// The tag name of the reference envelope.
pub const TOKEN: &str = "framecheck-untrusted";
