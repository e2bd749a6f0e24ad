//! The one integration-test binary: every former `tests/*.rs` binary is a
//! module here, so the crate is linked into one test executable instead of
//! one per file (modelled on regex-automata). `common` is what they share;
//! run one module with `cargo test --test integration <module>::`.

mod blind;
mod common;

mod architecture;
mod attribute_collisions;
mod body_encodings;
mod cli;
mod cli_gates;
mod consumers;
mod control_chars;
mod corpus_replay;
mod distribution_name;
mod evidence;
mod faults;
mod field_model;
mod field_triage;
mod fuzz_search;
mod gate;
mod html;
mod init;
mod line_shapes;
mod liveness;
mod nonce;
mod nonce_catalogue;
mod outer_layer;
mod outputs;
mod overstatement;
mod raw_bytes;
mod readme_numbers;
mod reference_nonce;
mod reports;
mod runner;
mod scripts;
mod search;
mod search_grammars;
mod search_jobs;
mod search_parts;
mod search_power;
mod several;
mod several_parts;
mod shapes;
mod subprocess;
mod unmarked;
mod varying;
// The tokenizer views exist only with the feature.
#[cfg(feature = "tokenizers")]
mod tokview;
