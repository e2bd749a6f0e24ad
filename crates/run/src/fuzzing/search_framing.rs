//! `search_framing`: the fuzz target that runs *search's* judgement against
//! a user's framing, so a fuzzing service (ClusterFuzzLite, OSS-Fuzz) can
//! run long campaigns against it with libFuzzer as the engine.
//!
//! The target is named by the environment variable [`TARGET_ENV`] (a
//! profile file; `reference` or unset for the reference envelope, in
//! process), or, when that is unset, by `search_framing.target/PROFILE`
//! next to the fuzz binary: a file holding the profile's path relative to
//! that directory, where `.clusterfuzzlite/build.sh` copies the profile and
//! its adapter's files (a fuzzing service passes no environment). It is calibrated
//! once per thread ([`crate::search::OneInput::prepare`]): a `dyn Framing`
//! is not `Send`, so it cannot sit in a process-wide `OnceLock`, and
//! libFuzzer calls the target from one thread.
//!
//! An input is one of:
//!
//! - a saved search corpus entry (`framecheck search --corpus DIR` writes
//!   them: JSON with `format: framecheck-search-corpus/1`), judged as a
//!   mutant of its seed case, so a search corpus is a seed corpus as is;
//! - plain bytes: two bytes (little-endian) pick a seed case, the rest is
//!   UTF-8 (lossy) split at NUL into content, kind, provenance and
//!   attributes (`key US value` pairs separated by RS); a missing part is
//!   the seed case's own, and `CANARY` stands for the case's canary.
//!
//! The request is wrapped by the target and judged as search judges a
//! mutant; a failure that is new (the seed case passes that check
//! unmutated), shrinks and replays as a written catalogue case panics with
//! that case's YAML, so libFuzzer records a crash whose message is the
//! reproducer for `framecheck run --catalogue`. A target that was given up
//! (it kept faulting) panics too, saying it is a harness error.

use std::cell::RefCell;
use std::mem::ManuallyDrop;
use std::path::PathBuf;

use crate::adapter::{self, ConnectError, Framing, WrapRequest};
use crate::search::{CorpusEntry, NotJudged, OneInput, SearchFinding};
use framecheck_core::catalogue;
use framecheck_core::level::ReaderLevel;
use framecheck_launch::profile::{BuiltinTarget, LoadedProfile, ProfileError, TargetProfile};

use super::{decode_attributes, encode_attributes, MAX_INPUT_BYTES};

/// The environment variable naming the target's profile file.
pub const TARGET_ENV: &str = "FRAMECHECK_FUZZ_TARGET";

/// The directory `.clusterfuzzlite/build.sh` ships next to the fuzz
/// binary, and the file in it naming the profile.
const BESIDE_BINARY: (&str, &str) = ("search_framing.target", "PROFILE");

/// Stands for the seed case's canary in a plain input.
pub const CANARY: &str = "CANARY";

/// A target calibrated for judging fuzzer inputs.
pub struct SearchTarget {
    judge: OneInput<'static>,
}

/// A new failure an input produced: the confirmed finding and the catalogue
/// file that replays it.
#[derive(Debug)]
pub struct Found {
    /// The finding, as its written case replayed.
    pub finding: SearchFinding,
    /// The catalogue YAML holding the case.
    pub yaml: String,
}

/// Why the fuzz target has no target to judge inputs against.
#[derive(Debug, thiserror::Error)]
pub enum TargetUnavailable {
    /// The profile the environment names does not load.
    #[error("{0}")]
    Profile(#[from] ProfileError),
    /// Its target cannot be opened.
    #[error("{0}")]
    Connect(#[from] ConnectError),
    /// It was opened but no input can be judged against it.
    #[error("{0}")]
    NotJudged(#[from] NotJudged),
}

impl SearchTarget {
    /// Calibrates `framing` for `profile` against the built-in catalogue at
    /// the `unicode` level (search's default). Both live as long as the
    /// process (they are leaked): a fuzz target is built once per process.
    pub fn new(
        profile: TargetProfile,
        framing: Box<dyn Framing>,
    ) -> Result<SearchTarget, NotJudged> {
        let profile: &'static TargetProfile = Box::leak(Box::new(profile));
        let framing: &'static mut dyn Framing = Box::leak(framing);
        let cases = catalogue::instantiate(&catalogue::builtin(), profile);
        let judge = OneInput::prepare(&cases, profile, framing, ReaderLevel::Unicode)?;
        Ok(SearchTarget { judge })
    }

    /// The target [`TARGET_ENV`] or the profile beside the binary names;
    /// the reference envelope when neither does.
    pub fn from_environment() -> Result<SearchTarget, TargetUnavailable> {
        let loaded = match target_profile_path() {
            None => LoadedProfile {
                profile: framecheck_envelope::reference_profile(),
                dir: PathBuf::from("."),
            },
            Some(path) => TargetProfile::load(&path)?,
        };
        let framing = adapter::connect(&loaded)?;
        Ok(SearchTarget::new(loaded.profile, framing)?)
    }

    /// Judges one input; `Ok(Some)` for a confirmed new failure, `Err` when
    /// the target was given up.
    pub fn find(&mut self, data: &[u8]) -> Result<Option<Found>, NotJudged> {
        if data.len() > MAX_INPUT_BYTES {
            return Ok(None);
        }
        let Some((seed, request)) = self.decode(data) else {
            return Ok(None);
        };
        let found = self.judge.judge(seed, request)?;
        Ok(found.map(|finding| Found {
            yaml: self.judge.written_case(&finding),
            finding,
        }))
    }

    /// Judges one input and panics on a confirmed new failure with the
    /// replayable case, or on a target given up.
    pub fn run(&mut self, data: &[u8]) {
        match self.find(data) {
            Ok(None) => {}
            Ok(Some(found)) => panic!(
                "search_framing: confirmed finding {} ({}), grown from seed case {}.\n\
                 Replayable case (save it as DIR/{}.yaml, named after its category \
                 as every catalogue file is, and run \
                 `framecheck run --catalogue DIR --target PROFILE`):\n{}",
                found.finding.id,
                found.finding.finding.check,
                found.finding.seed_case,
                found.finding.category.name(),
                found.yaml
            ),
            Err(reason) => {
                panic!("search_framing: harness error, not a finding: target given up: {reason}")
            }
        }
    }

    /// The seed case and request `data` stands for.
    fn decode(&self, data: &[u8]) -> Option<(usize, WrapRequest)> {
        if data.first() == Some(&b'{') {
            if let Ok(entry) = serde_json::from_slice::<CorpusEntry>(data) {
                let seed = self.judge.seed_of(&entry)?;
                return Some((seed, entry.request));
            }
        }
        let seeds = self.judge.seeds();
        let seed = match data {
            [a, b, ..] => usize::from(u16::from_le_bytes([*a, *b])),
            [a] => usize::from(*a),
            [] => 0,
        } % seeds.len();
        let case = &seeds[seed];
        let catalogue::Input::Wrap(request) = &case.input else {
            return None;
        };
        let mut request = request.clone();
        let text = String::from_utf8_lossy(data.get(2..).unwrap_or_default());
        let text = text.replace(CANARY, &case.canary);
        let mut parts = text.splitn(4, '\0');
        let mut next = |field: &mut String| {
            if let Some(part) = parts.next() {
                *field = part.to_string();
            }
        };
        next(&mut request.content);
        next(&mut request.kind);
        next(&mut request.provenance);
        if let Some(attributes) = parts.next() {
            request.attributes = decode_attributes(attributes).collect();
        }
        Some((seed, request))
    }

    /// The seed cases an input's first two bytes pick from.
    pub fn seeds(&self) -> &[catalogue::ConcreteCase] {
        self.judge.seeds()
    }
}

/// The bytes of a plain input: seed case `seed`, then `request`'s fields
/// with `canary` written as [`CANARY`]. What seed corpus generators write.
pub fn plain_search_seed(seed: u16, request: &WrapRequest, canary: &str) -> Vec<u8> {
    let hide = |text: &str| {
        if canary.is_empty() {
            text.to_string()
        } else {
            text.replace(canary, CANARY)
        }
    };
    let attributes =
        encode_attributes((request.attributes.iter()).map(|(k, v)| (hide(k), hide(v))));
    let text = format!(
        "{}\0{}\0{}\0{}",
        hide(&request.content),
        hide(&request.kind),
        hide(&request.provenance),
        attributes
    );
    let mut data = seed.to_le_bytes().to_vec();
    data.extend_from_slice(text.as_bytes());
    data
}

/// The profile file the environment or the fuzz binary's directory names.
fn target_profile_path() -> Option<PathBuf> {
    match std::env::var_os(TARGET_ENV) {
        Some(value) if value == BuiltinTarget::Reference.name() || value.is_empty() => None,
        Some(value) => Some(PathBuf::from(value)),
        None => {
            let exe = std::env::current_exe().ok()?;
            let shipped = exe.parent()?.join(BESIDE_BINARY.0);
            let named = std::fs::read_to_string(shipped.join(BESIDE_BINARY.1)).ok()?;
            Some(shipped.join(named.trim()))
        }
    }
}

/// This thread's target, or the error that kept it from being calibrated.
///
/// Never dropped: the target borrows its profile and framing, which are
/// leaked to live as long as the process, and this slot holds the only
/// pointers to them. Dropped at thread exit, it would leave them
/// unreachable before LeakSanitizer's exit check (on by default under
/// libFuzzer), which then reports the framing as a leak and fails the run
/// with a crash file for whatever input came last (the fresh-clone CI of
/// stop 67 failed so in `.clusterfuzzlite/check.sh`).
type Slot = Option<ManuallyDrop<Result<SearchTarget, TargetUnavailable>>>;

thread_local! {
    /// This thread's target, calibrated on first use; the error when it
    /// could not be.
    static TARGET: RefCell<Slot> = const { RefCell::new(None) };
}

/// The `search_framing` fuzz target: judges `data` against the target the
/// environment names; panics on a confirmed new failure.
pub fn run_search_framing(data: &[u8]) {
    TARGET.with(|cell| {
        let mut slot = cell.borrow_mut();
        let target =
            slot.get_or_insert_with(|| ManuallyDrop::new(SearchTarget::from_environment()));
        match &mut **target {
            Ok(target) => target.run(data),
            Err(reason) => {
                panic!("search_framing: harness error, not a finding: cannot prepare the target: {reason}")
            }
        }
    });
}
