//! The attack catalogue: `attacks/*.yaml`, loaded, validated and instantiated
//! for one target profile.
//!
//! Cases are written once as templates over a target's delimiters
//! (`{close}`, `{open}`, `{token}`…) and expanded by variant generators
//! (upper case, zero-width splice, fullwidth, homoglyph…), so the same
//! catalogue audits any framing. See `attacks/README.md` for the format.

pub mod model;

pub use model::*;
