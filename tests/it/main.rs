//! The one integration-test binary: every former `tests/*.rs` binary is a
//! module here, so the crate is linked into one test executable instead of
//! one per file (modelled on regex-automata). `common` is what they share;
//! run one module with `cargo test --test integration <module>::`. The
//! tests that drive only the run crate's API (runner, adapters, search) are
//! that crate's own binary, `crates/run/tests/it/`; these need the command
//! line, the report crate or several crates at once.

mod common;
// What the run crate's tests share, and the search budgets README states:
// one file each, included from the run crate's test binary.
#[path = "../../crates/run/tests/it/power_budget.rs"]
mod power_budget;
#[path = "../../crates/run/tests/it/common.rs"]
mod shared;
// The nonce framing `nonce` reports on, which the run crate's nonce tests
// probe.
#[path = "../../crates/run/tests/it/nonce_framing.rs"]
mod nonce_framing;

mod architecture;
mod body_encodings;
mod cli;
mod cli_gates;
mod consumers;
mod distribution_name;
mod evidence;
mod faults;
mod field_triage;
mod gate;
mod html;
mod init;
mod line_shapes;
mod liveness;
mod nonce;
mod outer_layer;
mod outputs;
mod overstatement;
mod readme_numbers;
mod reference_nonce;
mod reports;
mod scripts;
mod search_parts;
mod shapes;
mod unmarked;
mod varying;
// The tokenizer views exist only with the feature.
#[cfg(feature = "tokenizers")]
mod tokview;
