//! The run crate's one integration-test binary: tests that drive the
//! runner, the adapters and search through the crate's public API, with the
//! crates below it (core, envelope, launch) and nothing above, so testing
//! the run crate builds no command line and no report crate. Run one module
//! with `cargo test -p framecheck-run --test it <module>::`. `common` is
//! what these share with the root crate's tests; `blind` holds the
//! catalogue-blind framings search must find.

mod blind;
mod common;
mod nonce_framing;
mod power_budget;

mod attribute_collisions;
mod control_chars;
mod corpus_replay;
mod field_model;
mod fuzz_search;
mod nonce;
mod nonce_catalogue;
mod raw_bytes;
mod runner;
mod search;
mod search_grammars;
mod search_jobs;
mod search_power;
mod several;
mod several_parts;
mod subprocess;
