//! A fixed amount of `wrap` work on one corpus of `benches/envelope.rs`,
//! for counting instructions: `perf stat -e instructions:u` (or valgrind)
//! on this program compares two builds of the envelope on a machine whose
//! load makes wall-clock timings noisy, since the count of instructions
//! retired does not depend on the load. It is not a timing: criterion
//! (`cargo bench --bench envelope`) measures speed.
//!
//! ```text
//! cargo build --release --example wrap_corpus
//! perf stat -e instructions:u target/release/examples/wrap_corpus cyrillic 1048576 200
//! ```
//!
//! The arguments are the corpus's name, the text's size in bytes and how
//! many times to wrap it. Run it with 0 wraps as well to subtract the
//! fixed cost (building the text, the process's start).

use std::hint::black_box;
use std::process::ExitCode;

use framecheck::envelope;

#[path = "../benches/corpora/mod.rs"]
mod corpora;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [name, size, times] = args.as_slice() else {
        eprintln!("usage: wrap_corpus CORPUS SIZE_IN_BYTES TIMES");
        return ExitCode::FAILURE;
    };
    let Some((_, pattern)) = corpora::CORPORA.iter().find(|(n, _)| n == name) else {
        let names: Vec<&str> = corpora::CORPORA.iter().map(|(n, _)| *n).collect();
        eprintln!("no corpus {name:?}; the corpora: {}", names.join(", "));
        return ExitCode::FAILURE;
    };
    let (Ok(size), Ok(times)) = (size.parse::<usize>(), times.parse::<u32>()) else {
        eprintln!("SIZE_IN_BYTES and TIMES are whole numbers, not {size:?} and {times:?}");
        return ExitCode::FAILURE;
    };
    let text = corpora::text_of(pattern, size);
    let about = corpora::about();
    let mut framed = 0;
    for _ in 0..times {
        match envelope::wrap(&about, black_box(&text)) {
            Ok(out) => framed += black_box(out).len(),
            Err(error) => {
                eprintln!("wrap failed: {error}");
                return ExitCode::FAILURE;
            }
        }
    }
    println!(
        "{name}: {} bytes wrapped {times} times, {framed} bytes out",
        text.len()
    );
    ExitCode::SUCCESS
}
