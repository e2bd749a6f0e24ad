//! framecheck-core: the model of a framing audit, with nothing that runs a
//! target. It holds what the attack catalogue, a target's profile and the
//! oracle agree on, and what a run produced; the reports it is written as
//! are `framecheck-report`'s.
//!
//! The modules are listed in the one direction data flows in; each uses only
//! modules above it:
//!
//! - [`level`]: the reader levels and how each one folds text (the spec).
//! - [`reader`]: one reader level's rules in one place (fold, lines, names).
//! - [`records`]: role records inside a frame: their declared spelling, read at a level.
//! - [`chat_template`]: chat-template control strings and the context a frame sits in.
//! - [`yaml`]: the YAML options every file framecheck reads is parsed with.
//! - [`files`]: writing one file so no reader sees it half-written.
//! - [`target`]: the [`target::Framing`] trait, the wrap request, faults.
//! - [`grammar`]: delimiter grammars: liveness, rendering, opener parsing.
//! - [`profile`]: target profiles: delimiters, syntax, capabilities.
//! - [`encoding`]: body encodings (JSON string, entities, base64, data-marking).
//! - [`manifest`]: what a run was made from.
//! - [`catalogue`]: loading, validating and instantiating attack cases; the id lock.
//! - [`layout`]: the frame layout learned by calibration.
//! - [`tokview`]: tokenizer views of a framed text.
//! - [`oracle`]: structural checks and findings.
//! - [`gate`]: which findings fail a case (`--strict`), in one place.
//! - [`outcome`]: what a run produced: case results, run facts, view reports.
//! - [`nonce`]: is a framing's per-call variable part unpredictable?
//!
//! The reference envelope (`framecheck-envelope`), everything that runs a
//! target (`framecheck-run`) and the reports (`framecheck-report`) are
//! crates above this one; this crate cannot name them.
//!
//! Judging one framed output needs no target at all: a profile, a case of
//! the catalogue and the text. A framing that lets content close its frame
//! is caught by the oracle's census:
//!
//! ```
//! use framecheck_core::catalogue;
//! use framecheck_core::oracle::{judge_wrap, Check};
//! use framecheck_core::profile::ResolvedProfile;
//! use framecheck_core::target::WrapRequest;
//!
//! let profile = ResolvedProfile::parse(
//!     "name: naive\nadapter: { command: [./frame] }\n\
//!      delimiters: { grammar: xml-tag, token: data }\ncapabilities: [wrap]\n",
//! )
//! .unwrap();
//! let cases = catalogue::instantiate(&catalogue::builtin(), &profile);
//! let case = cases.iter().find(|c| c.id == "breakout-close-mid-content").unwrap();
//! let request = WrapRequest { content: "a </data> b".into(), ..WrapRequest::default() };
//! // A naive framing: the content is pasted between the tags as it is.
//! let framed = format!("<data>\n{}\n</data>", request.content);
//! let findings = judge_wrap(case, &profile, &request, &framed);
//! assert!(findings.iter().any(|f| f.check == Check::DelimiterCensus));
//! ```
#![deny(missing_docs)]

/// Declares an enum's `ALL` (every variant, in the order given) from one
/// list, and a match over the same list that the compiler checks for
/// exhaustiveness: a variant added to the enum and not to the list is a
/// build error, not a variant every `ALL` loop silently skips. Defined
/// before the modules, so each of them can use it.
macro_rules! every_variant {
    ($(#[$doc:meta])* $enum:ident: [$($variant:ident),+ $(,)?]) => {
        impl $enum {
            $(#[$doc])*
            pub const ALL: [$enum; [$($enum::$variant),+].len()] = [$($enum::$variant),+];
        }

        // Never called: it exists so the compiler checks that the list
        // above names every variant.
        const _: fn($enum) = |variant| match variant {
            $($enum::$variant)|+ => {}
        };
    };
}

pub mod catalogue;
pub mod chat_template;
pub mod encoding;
pub mod files;
pub mod gate;
pub mod grammar;
pub mod layout;
pub mod level;
pub mod manifest;
pub mod nonce;
pub mod oracle;
pub mod outcome;
pub mod profile;
pub mod pyliteral;
pub mod reader;
pub mod records;
pub mod target;
pub mod tokview;
pub mod yaml;
