//! Peak memory of a catalogue run, per byte of its largest case: the goal
//! "under 4x the largest framed output plus a constant" (issue 13), which
//! `benches/peak_memory.sh` measures as a resident set and issue 56 found
//! at 5 bytes per byte.
//!
//! A counting global allocator records the most heap bytes live at once
//! while a one-case catalogue (the bench's probe texts, a line repeated) is
//! loaded, instantiated, run against the reference envelope and written in
//! every report format, as `framecheck run` does. The slope between two
//! sizes of the case, in bytes live per byte of content, must stay under
//! the goal's 4; the constant (profile, tables, report skeletons) cancels
//! out. Allocations are a function of the input alone (one thread, no
//! clock), so this is an exact bound, not a timing.
//!
//! It is the root crate's second test binary, not a module of `tests/it`:
//! the allocator counts every allocation of the process, so no other test
//! may run beside it, and it drives the runner and the reports, which only
//! the root crate builds (the run crate's tests may not build the report
//! crate beside it).

use std::alloc::{GlobalAlloc, Layout, System};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};

use framecheck_core::catalogue::instantiate;
use framecheck_core::catalogue::load::load_files;
use framecheck_envelope::reference::Reference;
use framecheck_envelope::reference_profile;
use framecheck_report::{write_all, Format, Summary, EXIT_OK};
use framecheck_run::runner::{run_owned, RunOptions};

/// Heap bytes allocated and not yet freed.
static LIVE: AtomicUsize = AtomicUsize::new(0);
/// The most `LIVE` has been since it was last reset.
static PEAK: AtomicUsize = AtomicUsize::new(0);

/// The system allocator, counting.
struct Counting;

fn grew(bytes: usize) {
    let live = LIVE.fetch_add(bytes, Ordering::SeqCst) + bytes;
    PEAK.fetch_max(live, Ordering::SeqCst);
}

fn shrank(bytes: usize) {
    LIVE.fetch_sub(bytes, Ordering::SeqCst);
}

// SAFETY: every call is passed to `System` unchanged; the counters are
// only read by the test.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let ptr = unsafe { System.alloc(layout) };
        if !ptr.is_null() {
            grew(layout.size());
        }
        ptr
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        let ptr = unsafe { System.alloc_zeroed(layout) };
        if !ptr.is_null() {
            grew(layout.size());
        }
        ptr
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) };
        shrank(layout.size());
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        let new = unsafe { System.realloc(ptr, layout, new_size) };
        if !new.is_null() {
            if new_size >= layout.size() {
                grew(new_size - layout.size());
            } else {
                shrank(layout.size() - new_size);
            }
        }
        new
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

/// The probe lines `benches/peak_memory.sh` measures, from the one list
/// both read: an ASCII log line, the same with a zero-width space, CJK,
/// Hangul, Cyrillic, accented prose with characters that fold to several,
/// and emoji with zero-width joiners.
const PROBES: &str = include_str!("../benches/peak_memory_probes.tsv");

/// Each probe's name and line: a tab-separated line of [`PROBES`], its
/// `\u` escapes decoded (the body of a double-quoted string, as the bench
/// writes it into its YAML catalogue).
fn probes() -> Vec<(String, String)> {
    PROBES
        .lines()
        .filter(|line| !line.starts_with('#') && !line.trim().is_empty())
        .map(|line| {
            let (name, body) = line.split_once('\t').expect("a name, a tab, a line");
            let text: String = serde_json::from_str(&format!("\"{body}\"")).expect("a string body");
            (name.to_string(), text)
        })
        .collect()
}

/// The goal's bound, in bytes of memory per byte of content.
const GOAL: f64 = 4.0;

/// The bench's one-case catalogue: `line` and a newline, `repeat` times.
fn probe_catalogue(line: &str, repeat: usize) -> String {
    // A JSON string is a YAML double-quoted scalar.
    let content = serde_json::to_string(&format!("{line}\n")).expect("a string");
    format!(
        "schema: framecheck-catalogue/1
category: benign
description: Peak memory probe.
notes:
  Large:
    description: Large content.
    effect: Memory grows with the content.
cases:
  - id: peak-memory-probe
    title: Peak memory probe
    why: Measures peak memory against the content size.
    references: [CWE-400]
    severity: info
    flags: [Large]
    op: roundtrip
    input:
      content: {content}
      repeat: {repeat}
    expect: faithful
"
    )
}

/// The most heap bytes live at once, over what was live before, while the
/// probe catalogue is loaded, run and reported into `out`.
fn peak_of_run(line: &str, repeat: usize, out: &Path) -> usize {
    let files = [(
        PathBuf::from("benign.yaml"),
        probe_catalogue(line, repeat).into_bytes(),
    )];
    let before = LIVE.load(Ordering::SeqCst);
    PEAK.store(before, Ordering::SeqCst);
    {
        let loaded = load_files(&files);
        assert!(loaded.errors.is_empty(), "{:?}", loaded.errors);
        let profile = reference_profile();
        let cases = instantiate(&loaded.catalogue, &profile);
        assert_eq!(cases.len(), 1, "one case, one variant");
        let run = run_owned(
            cases,
            &profile,
            &mut Reference,
            &RunOptions::default(),
            &mut |_| {},
        );
        // A failing or erroring run holds other things; the goal is about
        // a run that did the work.
        assert_eq!(Summary::of(&run).exit_code(), EXIT_OK);
        write_all(&run, out, "reference", Format::ALL).expect("reports written");
    }
    PEAK.load(Ordering::SeqCst) - before
}

#[test]
fn a_catalogue_run_holds_under_four_bytes_per_byte_of_its_largest_case() {
    let out = std::env::temp_dir().join(format!("framecheck-peak-memory-{}", std::process::id()));
    std::fs::create_dir_all(&out).expect("a report directory");
    let (small, large) = (8_000, 32_000);
    let mut over = Vec::new();
    let probes = probes();
    assert!(
        !probes.is_empty(),
        "no probe in benches/peak_memory_probes.tsv"
    );
    for (name, line) in &probes {
        let bytes = |repeat: usize| (line.len() + 1) * repeat;
        let grown = peak_of_run(line, large, &out) as f64 - peak_of_run(line, small, &out) as f64;
        let per_byte = grown / (bytes(large) - bytes(small)) as f64;
        println!("{name}: {per_byte:.2} bytes per byte of content");
        if per_byte >= GOAL {
            over.push(format!("{name} {per_byte:.2}"));
        }
    }
    std::fs::remove_dir_all(&out).expect("the report directory removed");
    assert!(
        over.is_empty(),
        "peak heap per byte of content at or over {GOAL}: {}",
        over.join(", ")
    );
}
