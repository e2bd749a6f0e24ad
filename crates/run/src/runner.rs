//! The runner: drives concrete cases through an adapter and hands what comes
//! back to the oracle. It decides nothing itself; every verdict comes from the
//! oracle's findings or from what the target did (refused, failed).

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Instant, SystemTime, UNIX_EPOCH};

use crate::adapter::replay::Replaying;
use crate::adapter::{Framing, TargetError};
use framecheck_core::catalogue::{ConcreteCase, Input, Operation, Piece, RefusalPolicy};
use framecheck_core::encoding::declared::EncodingChoice;
use framecheck_core::gate::Gate;
use framecheck_core::grammar::json_document::{Document, DocumentFrame};
use framecheck_core::layout::{self, Layout};
use framecheck_core::level::ReaderLevel;
use framecheck_core::oracle::{self, Calibration, Finding, NoCalibration, PartsStructure};
pub(crate) use framecheck_core::target::guarded;
use framecheck_launch::profile::{Capability, TargetProfile};

mod document;
pub(crate) mod faults;
pub(crate) mod fit;
pub(crate) mod parts;
pub(crate) mod plain;
pub(crate) mod segments;
pub(crate) mod several;
pub mod unmarked;
pub(crate) mod varying;

use faults::FaultWatch;
pub use fit::CalibrationFailure;
pub use fit::Misfit;
pub use parts::PartsMisfit;
use parts::{PartsFailure, PartsFraming};

pub use framecheck_launch::outcome::{
    CaseResult, Evidence, LayoutReport, Outcome, RunMeta, RunResult, Verdict,
};

/// Never set: the cancel flag of a run or a search nobody can interrupt
/// (a run's default, [`crate::search::never_cancelled`]).
pub(crate) static NEVER: AtomicBool = AtomicBool::new(false);

/// What a run needs besides the cases and the target: the one value a
/// caller fills in, every field defaulted.
#[derive(Debug, Clone)]
pub struct RunOptions<'a> {
    /// The level pass/fail is decided at.
    pub level: ReaderLevel,
    /// SHA-256 of the catalogue the cases came from.
    pub catalogue_hash: String,
    /// The `--only` filters, recorded in the report.
    pub filters: Vec<String>,
    /// A problem found before the run (catalogue errors) that makes it
    /// incomplete; recorded so the run cannot look clean.
    pub harness_error: Option<String>,
    /// Wraps of one input for `nonce.unpredictable` (nonce profiles only).
    pub nonce_samples: usize,
    /// Which findings fail a case (`--strict`), recorded in the report.
    pub gate: Gate,
    /// Polled between cases; when it is set the run stops and is marked
    /// unfinished in `meta.harness_error` (Ctrl-C). Never set by default.
    pub cancel: &'a AtomicBool,
}

impl Default for RunOptions<'_> {
    fn default() -> Self {
        RunOptions {
            level: ReaderLevel::Unicode,
            catalogue_hash: String::new(),
            filters: Vec::new(),
            harness_error: None,
            nonce_samples: framecheck_core::nonce::DEFAULT_SAMPLES,
            gate: Gate::Default,
            cancel: &NEVER,
        }
    }
}

/// Runs `cases` against `framing` and returns every result, in case order.
///
/// `on_result` sees each result as it is produced (progress bars);
/// `options.cancel` stops the run between cases.
pub fn run(
    cases: &[ConcreteCase],
    profile: &TargetProfile,
    framing: &mut dyn Framing,
    options: &RunOptions,
    on_result: &mut dyn FnMut(&CaseResult),
) -> RunResult {
    run_owned(cases.to_vec(), profile, framing, options, on_result)
}

/// [`run`], taking the cases: each moves into its result instead of being
/// copied, so a large case is held once for the whole run (issue 13, peak
/// memory). `framecheck run` uses this.
pub fn run_owned(
    cases: Vec<ConcreteCase>,
    profile: &TargetProfile,
    framing: &mut dyn Framing,
    options: &RunOptions,
    on_result: &mut dyn FnMut(&CaseResult),
) -> RunResult {
    // Every replay of the run (issue 57) is counted in the watch's log,
    // which the report states.
    let watch = FaultWatch::default();
    let replays = watch.replays();
    let mut run = run_watched(cases, profile, framing, options, on_result, watch);
    run.meta.passed_on_replay = replays.slow() as u64;
    run
}

/// [`run_owned`], its faults and replays recorded by `watch`.
fn run_watched(
    cases: Vec<ConcreteCase>,
    profile: &TargetProfile,
    framing: &mut dyn Framing,
    options: &RunOptions,
    on_result: &mut dyn FnMut(&CaseResult),
    mut watch: FaultWatch,
) -> RunResult {
    let cancel = options.cancel;
    let started = Instant::now();
    let started_unix = unix_now();
    let mut harness_error = options.harness_error.clone();
    // `delimiters: none`: judged by benign plants alone (`unmarked`), a
    // plant that timed out replayed first (`Replaying`, issue 57).
    if profile.delimiters.absent {
        let framing = &mut Replaying::with_log(framing, watch.replays());
        return unmarked_run(profile, framing, options, started, started_unix);
    }
    // `wrap.returns: parts`: every stage below sees the content's part.
    let learning = &mut Replaying::with_log(&mut *framing, watch.replays());
    let parts = match parts::learn(profile, learning).transpose() {
        Ok(parts) => parts,
        Err(failure) => return parts_failed_run(profile, options, started, started_unix, failure),
    };
    let mut view;
    let framing: &mut dyn Framing = match &parts {
        Some(structure) => {
            view = PartsFraming::new(framing, structure.clone());
            &mut view
        }
        None => framing,
    };
    let mut setup = Setup::learn(&cases, profile, framing, &mut watch, options.level);
    setup.parts = parts;
    // A profile its framing contradicts judges nothing (issue 31).
    if let Some(misfit) = &setup.misfit {
        let meta = run_meta(profile, options, started, started_unix, &setup);
        return refused_run(meta, misfit, profile);
    }
    let learned = setup.learned();
    // The several-frames pass runs the cases again, after the single ones.
    let for_several = if several::applies(profile) {
        cases.clone()
    } else {
        Vec::new()
    };
    let mut results = Vec::with_capacity(cases.len());
    let single = Single {
        profile,
        setup: &setup,
        cancel,
    };
    if let Some(interrupted) = single.run(cases, framing, &mut watch, on_result, &mut results) {
        harness_error = Some(interrupted);
    }
    let mut record = |result: CaseResult| {
        on_result(&result);
        results.push(result);
    };
    let interrupted = later_passes(
        profile,
        framing,
        &mut watch,
        (options, learned),
        &for_several,
        &mut record,
    );
    harness_error = harness_error.or(interrupted);
    // The nonce pass records no fault, so this is the watch as the
    // several-frames pass left it.
    let abandoned = watch.abandoned().cloned();
    let meta = run_meta(profile, options, started, started_unix, &setup);
    finished_run(meta, harness_error, abandoned.as_ref(), results)
}

/// The passes after the single-frame cases: the several-frames cases, then
/// the nonce probes. A target given up gets no more requests (they would
/// only repeat why) and a cancel stops both; the answer is the harness
/// error of a cancel that fell during the several-frames cases.
fn later_passes(
    profile: &TargetProfile,
    framing: &mut dyn Framing,
    watch: &mut FaultWatch,
    (options, learned): (&RunOptions, Option<&Layout>),
    for_several: &[ConcreteCase],
    record: &mut dyn FnMut(CaseResult),
) -> Option<String> {
    let cancel = options.cancel;
    let mut interrupted = None;
    if !cancel.load(Ordering::SeqCst) && watch.abandoned().is_none() {
        several::run(for_several, profile, framing, watch, cancel, record);
        if cancel.load(Ordering::SeqCst) {
            interrupted = Some("interrupted during the several-frames cases".to_string());
        }
    }
    if !cancel.load(Ordering::SeqCst) && watch.abandoned().is_none() {
        let framing = &mut Replaying::with_log(framing, watch.replays());
        nonce_pass(profile, framing, learned, options, record);
    }
    interrupted
}

/// The nonce probes: they need many wraps, so they run once, after the
/// cases, unless the run was narrowed to other cases. Each result is judged
/// on the output as written.
fn nonce_pass(
    profile: &TargetProfile,
    framing: &mut dyn Framing,
    learned: Option<&Layout>,
    options: &RunOptions,
    record: &mut dyn FnMut(CaseResult),
) {
    let wanted = options.filters.is_empty() || options.filters.iter().any(|f| f.contains("nonce"));
    if !wanted {
        return;
    }
    // A sample that timed out was replayed (by the caller's `Replaying`)
    // before it counts as failed.
    for mut result in crate::nonce_probe::probe(profile, framing, learned, options.nonce_samples) {
        judged_as_written(profile, &mut result.outcome);
        record(result);
    }
}

/// The run's result once every pass is over: why it is incomplete, with
/// the target given up (`abandoned`) after any earlier reason.
fn finished_run(
    meta: RunMeta,
    harness_error: Option<String>,
    abandoned: Option<&faults::Abandoned>,
    results: Vec<CaseResult>,
) -> RunResult {
    let harness_error = match (harness_error, abandoned) {
        (Some(earlier), Some(abandoned)) => Some(format!("{earlier}; {abandoned}")),
        (None, Some(abandoned)) => Some(abandoned.to_string()),
        (earlier, None) => earlier,
    };
    RunResult {
        meta: RunMeta {
            harness_error,
            target_fault: abandoned.and_then(|a| a.fault().cloned()),
            ..meta
        },
        results,
        views: Vec::new(),
    }
}

/// A run that judged no case because `misfit` says `profile` does not
/// fit its framing.
fn refused_run(meta: RunMeta, misfit: &Misfit, profile: &TargetProfile) -> RunResult {
    RunResult {
        meta: RunMeta {
            harness_error: Some(misfit.explained(&profile.adapter)),
            misfit: true,
            ..meta
        },
        results: Vec::new(),
        views: Vec::new(),
    }
}

/// A run that judged no case because the benign parts were not learned:
/// a misfit when the framing's answers contradict the profile, a harness
/// error when a benign wrap failed.
fn parts_failed_run(
    profile: &TargetProfile,
    options: &RunOptions,
    started: Instant,
    started_unix: u64,
    failure: PartsFailure,
) -> RunResult {
    let meta = run_meta(profile, options, started, started_unix, &Setup::none());
    match failure {
        PartsFailure::Misfit(misfit) => refused_run(meta, &Misfit::Parts(misfit), profile),
        PartsFailure::Wrap(error) => RunResult {
            meta: RunMeta {
                harness_error: Some(format!("calibration wrap failed: {error}")),
                target_fault: error.as_fault().cloned(),
                ..meta
            },
            results: Vec::new(),
            views: Vec::new(),
        },
    }
}

/// The run of a profile declaring `delimiters: none`: the `frame.absent`
/// verdict when benign plants bear the declaration out, a refused run when
/// they contradict it, a harness error when a plant failed. No catalogue
/// case runs: there is no frame for one to break.
fn unmarked_run(
    profile: &TargetProfile,
    framing: &mut dyn Framing,
    options: &RunOptions,
    started: Instant,
    started_unix: u64,
) -> RunResult {
    let meta = run_meta(profile, options, started, started_unix, &Setup::none());
    match unmarked::assess(framing) {
        Ok(found) => RunResult {
            meta: RunMeta {
                unmarked: true,
                ..meta
            },
            results: vec![{
                let mut result = unmarked::result(found, unmarked_delivery(profile));
                judged_as_written(profile, &mut result.outcome);
                result
            }],
            views: Vec::new(),
        },
        Err(unmarked::Failure::Misfit(contradiction)) => {
            refused_run(meta, &Misfit::Unmarked(contradiction), profile)
        }
        Err(unmarked::Failure::Wrap(error)) => RunResult {
            meta: RunMeta {
                harness_error: Some(format!("a benign plant failed: {error}")),
                ..meta
            },
            results: Vec::new(),
            views: Vec::new(),
        },
    }
}

/// How an unmarked framing's output reaches the model: a tool server's
/// (an MCP server's) through the host's tool-result message, anything else
/// as prompt text. The adapter's kind says which it is.
fn unmarked_delivery(profile: &TargetProfile) -> unmarked::Delivery {
    match profile.adapter.is_tool_server() {
        true => unmarked::Delivery::HostMessage,
        false => unmarked::Delivery::PromptText,
    }
}

/// The run's facts, as far as the runner knows them when it stops.
fn run_meta(
    profile: &TargetProfile,
    options: &RunOptions,
    started: Instant,
    started_unix: u64,
    setup: &Setup,
) -> RunMeta {
    RunMeta {
        framecheck_version: env!("CARGO_PKG_VERSION").to_string(),
        catalogue_hash: options.catalogue_hash.clone(),
        // The report names the language even when the profile does not.
        target: framecheck_launch::profile::with_language(profile),
        level: options.level,
        gate: options.gate,
        started_unix,
        duration_ms: started.elapsed().as_millis().min(u64::MAX as u128) as u64,
        filters: options.filters.clone(),
        harness_error: options.harness_error.clone(),
        manifest: None,
        layout: setup.layout.as_ref().map(LayoutReport::of),
        target_fault: None,
        misfit: false,
        unmarked: false,
        passed_on_replay: 0,
    }
}

/// The single-frame pass over the cases.
struct Single<'a> {
    profile: &'a TargetProfile,
    setup: &'a Setup,
    cancel: &'a AtomicBool,
}

impl Single<'_> {
    /// Runs each case through `watch` (retrying faults, giving the target
    /// up) into `results`; says so when it was interrupted.
    fn run(
        &self,
        cases: Vec<ConcreteCase>,
        framing: &mut dyn Framing,
        watch: &mut FaultWatch,
        on_result: &mut dyn FnMut(&CaseResult),
        results: &mut Vec<CaseResult>,
    ) -> Option<String> {
        let total = cases.len();
        let (profile, setup) = (self.profile, self.setup);
        let calibration = setup.calibration.as_ref();
        for case in cases {
            if self.cancel.load(Ordering::SeqCst) {
                return Some(format!(
                    "interrupted after {} of {total} cases",
                    results.len()
                ));
            }
            let result = match watch.abandoned() {
                Some(abandoned) => faults::not_sent(case, abandoned),
                None => watch.judge(case, profile, framing, calibration, &mut |case, framing| {
                    let fitting = fitting_layout(&case, setup.learned(), setup.bare.as_ref());
                    let learned = Learned {
                        layout: fitting,
                        calibration,
                        structure: setup.structure.as_ref(),
                        parts: setup.parts.as_ref(),
                        document: setup.document.as_ref(),
                    };
                    timed_case(case, profile, framing, &learned)
                }),
            };
            on_result(&result);
            results.push(result);
        }
        None
    }
}

/// What a run learns about the target before its cases: the frame layout
/// (with attributes, and without when it differs) and the calibration frame
/// read cases are built from.
struct Setup {
    layout: Option<Result<Layout, CalibrationFailure>>,
    calibration: Option<Result<Calibration, NoCalibration>>,
    bare: Option<Layout>,
    /// The structure a benign frame reads back as, for a reader that
    /// answers with segments (`segments`).
    structure: Option<Result<oracle::Structure, segments::NoStructure>>,
    /// The parts a benign wrap answers, for a framing that answers with
    /// parts (`parts`).
    parts: Option<PartsStructure>,
    /// Set when the profile does not fit the framing: no case is run.
    misfit: Option<Misfit>,
    /// The benign document, for a framing whose frame is a JSON document
    /// (`document`): judged instead of a layout.
    document: Option<Document>,
}

impl Setup {
    /// Learns the layout; when that fails, checks that the target answers
    /// a benign request at all (`watch` gives it up otherwise, and nothing
    /// more is asked of it).
    fn learn(
        cases: &[ConcreteCase],
        profile: &TargetProfile,
        framing: &mut dyn Framing,
        watch: &mut FaultWatch,
        level: ReaderLevel,
    ) -> Setup {
        // What is learned here is learned through replays: a request that
        // timed out is tried again under the replay budget first.
        let framing = &mut Replaying::with_log(framing, watch.replays());
        if let Some(frame) = profile.grammar().document() {
            return Setup::document(cases, profile, framing, watch, &frame);
        }
        let mut layout = if cases.is_empty() {
            None
        } else {
            Some(learn_layout_typed(profile, framing, true))
        };
        if matches!(layout, Some(Err(_))) {
            watch.first_contact(profile, framing, None);
        }
        let misfit = match (&mut layout, watch.abandoned()) {
            (Some(layout), None) => fit_learned(profile, framing, layout, level).err(),
            _ => None,
        };
        if watch.abandoned().is_some() || misfit.is_some() {
            return Setup {
                layout,
                calibration: None,
                bare: None,
                structure: None,
                parts: None,
                misfit,
                document: None,
            };
        }
        let calibration = calibration_for(cases, layout.as_ref(), profile, framing);
        let learned = layout.as_ref().and_then(|l| l.as_ref().ok());
        let bare = learn_bare_layout(profile, framing, learned);
        let structure = segments::learn_structure(profile, framing);
        Setup {
            layout,
            calibration,
            bare,
            structure,
            parts: None,
            misfit: None,
            document: None,
        }
    }

    /// What a run learns of a framing whose frame is a JSON document: the
    /// benign document (no layout), or why the profile does not fit.
    fn document(
        cases: &[ConcreteCase],
        profile: &TargetProfile,
        framing: &mut dyn Framing,
        watch: &mut FaultWatch,
        frame: &DocumentFrame,
    ) -> Setup {
        let mut setup = Setup::none();
        if cases.is_empty() {
            return setup;
        }
        match document::learn(framing, frame) {
            Ok(learned) => setup.document = Some(learned),
            Err(document::Failure::Misfit(misfit)) => setup.misfit = Some(misfit),
            Err(document::Failure::Wrap(error)) => {
                setup.layout = Some(Err(CalibrationFailure::Wrap(error)));
                watch.first_contact(profile, framing, None);
            }
        }
        setup
    }

    /// Nothing learned: no calibration ran.
    fn none() -> Setup {
        Setup {
            layout: None,
            calibration: None,
            bare: None,
            structure: None,
            parts: None,
            misfit: None,
            document: None,
        }
    }

    fn learned(&self) -> Option<&Layout> {
        self.layout.as_ref().and_then(|l| l.as_ref().ok())
    }
}

/// Seconds since the Unix epoch (0 on a clock set before it).
fn unix_now() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or(0)
}

/// The target's frame for read cases that quote frame pieces: the learned
/// layout's sample when there is one, else a calibration wrap; `None` when
/// no case needs it (so no wrap is spent on it).
fn calibration_for(
    cases: &[ConcreteCase],
    layout: Option<&Result<Layout, CalibrationFailure>>,
    profile: &TargetProfile,
    framing: &mut dyn Framing,
) -> Option<Result<Calibration, NoCalibration>> {
    let needs_frame = cases.iter().any(|c| c.harvest.is_some() || matches!(&c.input, Input::Read(pieces) if pieces.iter().any(|p| !matches!(p, Piece::Literal(_)))));
    match layout {
        _ if !needs_frame => None,
        Some(Ok(l)) => Some(Ok(Calibration {
            framed: l.sample.framed.clone(),
            body_start: l.sample.slot.start,
            body_end: l.sample.slot.end,
        })),
        _ => Some(calibrate_target(profile, framing)),
    }
}

/// What a case is judged against, as the run learned it.
struct Learned<'a> {
    /// The layout fitting the case.
    layout: Option<&'a Layout>,
    /// The target's own frame, for read cases.
    calibration: Option<&'a Result<Calibration, NoCalibration>>,
    /// How a benign frame reads back, for a reader answering segments.
    structure: Option<&'a Result<oracle::Structure, segments::NoStructure>>,
    /// The parts a benign wrap answers, for a framing answering parts.
    parts: Option<&'a PartsStructure>,
    /// The benign document, for a framing whose frame is a JSON document.
    document: Option<&'a Document>,
}

/// Runs one case and records how long it took.
fn timed_case(
    case: ConcreteCase,
    profile: &TargetProfile,
    framing: &mut dyn Framing,
    learned: &Learned,
) -> CaseResult {
    let (layout, calibration) = (learned.layout, learned.calibration);
    let case_started = Instant::now();
    // A case that writes an earlier frame's nonce is run, and reported, with
    // the value harvested in place of its stand-in.
    let case = match framecheck_core::nonce::harvest::resolve(&case, profile, calibration) {
        Ok(None) => case,
        Ok(Some(resolved)) => resolved,
        Err(failed) => {
            let outcome = Outcome::Error {
                reason: failed.to_string(),
                stderr_tail: String::new(),
                fault: None,
            };
            return CaseResult {
                case,
                outcome,
                evidence: Evidence::default(),
                elapsed_us: 0,
            };
        }
    };
    let (mut outcome, evidence) = match (learned.structure, &case.input) {
        (Some(structure), Input::Wrap(request)) if profile.can(Capability::Read) => {
            run_segments_case(&case, profile, framing, learned, structure, request)
        }
        _ => run_case(&case, profile, framing, learned),
    };
    let framed = evidence.framed.as_deref();
    framecheck_core::nonce::harvest::judge(&case, profile, layout, framed, &mut outcome);
    CaseResult {
        case,
        outcome,
        evidence,
        elapsed_us: case_started.elapsed().as_micros().min(u64::MAX as u128) as u64,
    }
}

/// Whether `profile` fits `framing`: calibration learns a layout under it,
/// and plain benign content lands where that layout says. This is the
/// check every run makes before its first case; `framecheck init` asks it
/// of its proposals and `init --check` of a committed profile. A target
/// that fails its calibration wraps is no misfit: `Ok` here, and the run
/// reports the failure.
pub fn check_fit(
    profile: &TargetProfile,
    framing: &mut dyn Framing,
    level: ReaderLevel,
) -> Result<(), Misfit> {
    // A wrap that timed out is replayed before it is taken as failed.
    let framing = &mut Replaying::new(framing);
    if profile.delimiters.absent {
        return match unmarked::assess(framing) {
            Err(unmarked::Failure::Misfit(contradiction)) => Err(Misfit::Unmarked(contradiction)),
            Ok(_) | Err(unmarked::Failure::Wrap(_)) => Ok(()),
        };
    }
    if let Some(frame) = profile.grammar().document() {
        return match document::learn(framing, &frame) {
            Err(document::Failure::Misfit(misfit)) => Err(misfit),
            Ok(_) | Err(document::Failure::Wrap(_)) => Ok(()),
        };
    }
    let mut view;
    let framing: &mut dyn Framing = match parts::learn(profile, framing) {
        None => framing,
        Some(Ok(structure)) => {
            view = PartsFraming::new(framing, structure);
            &mut view
        }
        Some(Err(PartsFailure::Misfit(misfit))) => return Err(Misfit::Parts(misfit)),
        // A failed wrap is no misfit: the run reports it.
        Some(Err(PartsFailure::Wrap(_))) => return Ok(()),
    };
    let mut layout = learn_layout_typed(profile, framing, true);
    fit_learned(profile, framing, &mut layout, level)
}

/// The layouts a run judges wraps against, learned once per target: the
/// frame calibration learned, and the one without attributes where it can
/// differ. Search judges its mutants against the same ones.
#[derive(Debug, Clone, Default)]
pub struct Layouts {
    learned: Option<Layout>,
    bare: Option<Layout>,
}

impl Layouts {
    /// Learns them from `framing` and checks, on the same calibration,
    /// that `profile` fits it ([`check_fit`]): one calibration where a
    /// check and then a learning would wrap the probes twice. None is
    /// learned when calibration fails (a case is then judged by the shape
    /// rule without a layout, as in a run).
    pub fn learn_fitting(
        profile: &TargetProfile,
        framing: &mut dyn Framing,
        level: ReaderLevel,
    ) -> Result<Layouts, Misfit> {
        let mut typed = learn_layout_typed(profile, framing, true);
        fit_learned(profile, framing, &mut typed, level)?;
        let learned = typed.ok();
        let bare = learn_bare_layout(profile, framing, learned.as_ref());
        Ok(Layouts { learned, bare })
    }

    /// The layout `case`'s output is judged against.
    pub fn fitting(&self, case: &ConcreteCase) -> Option<&Layout> {
        fitting_layout(case, self.learned.as_ref(), self.bare.as_ref())
    }
}

/// Wraps the layout probes and learns the target's frame layout.
pub fn learn_layout(
    profile: &TargetProfile,
    framing: &mut dyn Framing,
) -> Result<Layout, CalibrationFailure> {
    learn_layout_typed(profile, framing, true)
}

/// The frame without attributes, for requests that carry none (see
/// `layout::probes_with`); learned only when a layout was learned at all
/// and the target writes attributes, so it can differ.
fn learn_bare_layout(
    profile: &TargetProfile,
    framing: &mut dyn Framing,
    learned: Option<&Layout>,
) -> Option<Layout> {
    match learned {
        Some(_) if profile.can(Capability::Attributes) => {
            learn_layout_typed(profile, framing, false).ok()
        }
        _ => None,
    }
}

/// The layout a case's output is judged against: the one learned without
/// attributes for a wrap request that carries none, when there is one.
fn fitting_layout<'a>(
    case: &ConcreteCase,
    learned: Option<&'a Layout>,
    bare: Option<&'a Layout>,
) -> Option<&'a Layout> {
    match (&case.input, bare) {
        (Input::Wrap(request), Some(bare)) if request.attributes.is_empty() => Some(bare),
        _ => learned,
    }
}

/// [`learn_layout`] with or without an attribute in the probes, saying
/// whether a failure is the target's or the profile's.
fn learn_layout_typed(
    profile: &TargetProfile,
    framing: &mut dyn Framing,
    with_attribute: bool,
) -> Result<Layout, CalibrationFailure> {
    // Longer probes when the framing leaves the usual ones unframed
    // (`varying`): a frame only above some length.
    let (probes, wraps) = varying::calibrated(
        profile.frame.empty,
        layout::probes_with(profile, with_attribute),
        |request| guarded(|| framing.wrap(request)),
    )
    .map_err(CalibrationFailure::Wrap)?;
    let learned = layout::learn(profile, &probes, &wraps).map_err(CalibrationFailure::Misfit)?;
    Ok(with_variants(profile, framing, &probes, learned))
}

/// Whether `profile` fits `framing` ([`fit::check`]) under the layout
/// calibration learned, or failed to learn. Where calibration did not find
/// the probe content (the framing rewrites it) and the plain benign wraps,
/// judged without a layout, contradict the profile, the layout is learned
/// from plain content instead ([`varying::learn_plain`], as `init` learns
/// its proposal): without a layout, text the framing writes before its
/// frame (a preamble, a title echoing the content) reads as a frame that
/// does not begin where the profile says. That layout replaces the failure
/// when the plain wraps fit it; the runs that fit without one are judged
/// as before.
fn fit_learned(
    profile: &TargetProfile,
    framing: &mut dyn Framing,
    layout: &mut Result<Layout, CalibrationFailure>,
    level: ReaderLevel,
) -> Result<(), Misfit> {
    let misfit = match fit::check(profile, framing, layout, level) {
        Ok(()) => return Ok(()),
        Err(misfit) => misfit,
    };
    // A declared encoding that does not explain the probes is the profile
    // contradicting its framing (content encoded twice, declared once):
    // plain content, which no encoding changes, would fit it all the same,
    // and every case with a quote or a break would then be judged against
    // an encoding the framing does not write. So a plain layout stands in
    // only where no encoding is declared to explain the rewrite.
    let undeclared = match &profile.body.encoding {
        None => true,
        Some(EncodingChoice::Always(encoding)) => encoding.is_none(),
        Some(EncodingChoice::PerContent(_)) => false,
    };
    let rewritten = undeclared
        && matches!(
            layout,
            Err(CalibrationFailure::Misfit(
                layout::LayoutError::ContentNotFound { .. }
            ))
        );
    let plain = if rewritten {
        learn_plain_layout(profile, framing)
    } else {
        None
    };
    let Some(plain) = plain.map(Ok) else {
        return Err(misfit);
    };
    if fit::check(profile, framing, &plain, level).is_err() {
        return Err(misfit);
    }
    *layout = plain;
    Ok(())
}

/// The layout learned from plain content, with its variants; `None` when
/// a wrap fails or none is learned.
fn learn_plain_layout(profile: &TargetProfile, framing: &mut dyn Framing) -> Option<Layout> {
    let probes = layout::probes(profile);
    let (plain, learned) =
        varying::learn_plain(profile, &probes, |r| guarded(|| framing.wrap(r))).ok()?;
    Some(with_variants(profile, framing, &plain, learned.ok()?))
}

/// `learned` with the frames the framing writes for empty and for one-line
/// content, where they differ from it.
fn with_variants(
    profile: &TargetProfile,
    framing: &mut dyn Framing,
    probes: &layout::Probes,
    mut learned: Layout,
) -> Layout {
    // The frame for empty content, when the framing writes one (a refusal
    // leaves empty content to be judged against the layout as it is).
    let empty: Result<Vec<String>, _> = probes
        .empty_requests()
        .iter()
        .map(|r| guarded(|| framing.wrap(r)))
        .collect();
    if let Ok(empty) = empty {
        learned.learn_empty(profile, probes, &empty);
    }
    learn_one_line(profile, framing, probes, &mut learned);
    learned
}

/// The frame of one-line content, when the framing writes another than for
/// the probes' two lines (`layout::variant`): the first one-line probe
/// tells, and only then are the others wrapped. A failed wrap leaves the
/// usual layout alone; the cases report such failures.
fn learn_one_line(
    profile: &TargetProfile,
    framing: &mut dyn Framing,
    probes: &layout::Probes,
    learned: &mut Layout,
) {
    let one = probes.one_line();
    let mut wrap = |r: &framecheck_core::target::WrapRequest| guarded(|| framing.wrap(r));
    let Ok(first) = wrap(&one.requests()[0]) else {
        return;
    };
    if learned.fits_one_line(&first) {
        return;
    }
    let rest: Result<Vec<String>, _> = one.requests()[1..].iter().map(&mut wrap).collect();
    if let Ok(rest) = rest {
        let wraps: Vec<String> = std::iter::once(first).chain(rest).collect();
        learned.learn_one_line(profile, &one, &wraps);
    }
}

/// Wraps the oracle's benign calibration request, so read cases can be
/// built from the target's own frame when no layout could be learned.
fn calibrate_target(
    profile: &TargetProfile,
    framing: &mut dyn Framing,
) -> Result<Calibration, NoCalibration> {
    let request = oracle::calibration_request();
    let framed = guarded(|| framing.wrap(&request)).map_err(NoCalibration::Wrap)?;
    oracle::calibrate(profile, &request, &framed).map_err(NoCalibration::Unusable)
}

fn run_case(
    case: &ConcreteCase,
    profile: &TargetProfile,
    framing: &mut dyn Framing,
    learned: &Learned,
) -> (Outcome, Evidence) {
    let (layout, calibration) = (learned.layout, learned.calibration);
    let mut evidence = Evidence::default();
    if let Some(missing) = case.requires.iter().find(|c| !profile.can(**c)) {
        let reason = format!("target lacks the {} capability", missing.name());
        return (Outcome::Skipped { reason }, evidence);
    }
    let outcome = match (&case.input, case.operation) {
        (Input::Wrap(request), operation) => {
            match parts::wrap_case(framing, learned.parts, request, &mut evidence) {
                Err(error) => refusal_or_error(case, error),
                Ok((framed, parts_findings)) => {
                    // An output with no frame at all is judged as that, on
                    // this case alone (`varying`).
                    let unframed =
                        varying::absent(profile, request, &framed, unmarked_delivery(profile));
                    let outcome = if let Some(finding) = unframed {
                        judged(oracle::as_written(profile, vec![finding]))
                    } else if operation == Operation::Roundtrip && profile.can(Capability::Read) {
                        let wrapped = (request, framed.as_str());
                        read_back(case, profile, framing, layout, wrapped, &mut evidence)
                    } else if let Some(document) = learned.document {
                        judged(oracle::for_consumers(profile, |p| {
                            document::judge(case, p, document, framing, request, &framed)
                        }))
                    } else {
                        judged(oracle::for_consumers(profile, |p| {
                            oracle::judge_wrap_in(case, p, layout, request, &framed)
                        }))
                    };
                    evidence.framed = Some(framed);
                    with_findings(outcome, oracle::as_written(profile, parts_findings))
                }
            }
        }
        (Input::Read(pieces), _) => match resolve_pieces(pieces, calibration) {
            Err(no_frame) => Outcome::Error {
                reason: no_frame.to_string(),
                stderr_tail: String::new(),
                fault: None,
            },
            Ok(text) => {
                let outcome = match guarded(|| framing.read(&text)) {
                    // A reader that refuses a text has rejected it.
                    Err(TargetError::Refused(_)) => {
                        evidence.read_body = Some(None);
                        judged(oracle::for_reader(profile, |p| {
                            oracle::judge_read(case, p, &text, None)
                        }))
                    }
                    Err(error) => refusal_or_error(case, error),
                    Ok(body) => {
                        let findings = oracle::for_reader(profile, |p| {
                            oracle::judge_read(case, p, &text, body.as_deref())
                        });
                        evidence.read_body = Some(body);
                        judged(findings)
                    }
                };
                evidence.read_text = Some(text);
                outcome
            }
        },
    };
    (outcome, evidence)
}

/// A roundtrip case's frame read back by the target's reader, and judged
/// with what it answered (a reader that refuses its own frame has
/// rejected it).
fn read_back(
    case: &ConcreteCase,
    profile: &TargetProfile,
    framing: &mut dyn Framing,
    layout: Option<&Layout>,
    (request, framed): (&framecheck_core::target::WrapRequest, &str),
    evidence: &mut Evidence,
) -> Outcome {
    let body = match guarded(|| framing.read(framed)) {
        Err(TargetError::Refused(_)) => None,
        Err(error) => return refusal_or_error(case, error),
        Ok(body) => body,
    };
    let findings = oracle::for_consumers(profile, |p| {
        oracle::judge_roundtrip_in(case, p, layout, request, framed, body.as_deref())
    });
    evidence.read_body = Some(body);
    judged(findings)
}

/// A wrap case for a reader that answers with segments: the wrap is judged
/// as usual, and its output is read back and judged by `reader.structure`
/// (whatever the case's operation: a parser reads every frame).
fn run_segments_case(
    case: &ConcreteCase,
    profile: &TargetProfile,
    framing: &mut dyn Framing,
    learned: &Learned,
    structure: &Result<oracle::Structure, segments::NoStructure>,
    request: &framecheck_core::target::WrapRequest,
) -> (Outcome, Evidence) {
    let layout = learned.layout;
    let mut evidence = Evidence::default();
    if let Some(missing) = case.requires.iter().find(|c| !profile.can(**c)) {
        let reason = format!("target lacks the {} capability", missing.name());
        return (Outcome::Skipped { reason }, evidence);
    }
    let (framed, parts_findings) =
        match parts::wrap_case(framing, learned.parts, request, &mut evidence) {
            Err(error) => return (refusal_or_error(case, error), evidence),
            Ok(answer) => answer,
        };
    let mut findings = oracle::as_written(profile, parts_findings);
    let outcome =
        match segments::read_back(case, structure, framing, request, &framed, &mut evidence) {
            segments::ReadBack::Judged(more) => {
                findings.extend(segments::wrap_findings(
                    profile,
                    |p| oracle::judge_wrap_in(case, p, layout, request, &framed),
                    Some(&more),
                ));
                judged(findings)
            }
            segments::ReadBack::Error(reason) => Outcome::Error {
                reason,
                stderr_tail: String::new(),
                fault: None,
            },
        };
    evidence.framed = Some(framed);
    (outcome, evidence)
}

/// A result whose every finding was judged once on the output as written
/// (the nonce probes, an unmarked framing's verdict): each finding handed
/// to the consumers it concerns ([`oracle::as_written`]).
fn judged_as_written(profile: &TargetProfile, outcome: &mut Outcome) {
    if let Outcome::Judged { findings } = outcome {
        *findings = oracle::as_written(profile, std::mem::take(findings));
    }
}

fn judged(findings: Vec<Finding>) -> Outcome {
    Outcome::Judged { findings }
}

/// `outcome` with `first` before its own findings, when it was judged
/// (a refusal or an error stays as it is).
fn with_findings(outcome: Outcome, mut first: Vec<Finding>) -> Outcome {
    match outcome {
        Outcome::Judged { findings } => {
            first.extend(findings);
            judged(first)
        }
        other => other,
    }
}

fn refusal_or_error(case: &ConcreteCase, error: TargetError) -> Outcome {
    match error {
        TargetError::Refused(reason) => Outcome::Refused {
            reason,
            acceptable: case.refusal == RefusalPolicy::Allowed,
        },
        // The store's refusal, not the framing's: no verdict either way.
        TargetError::Unplanted(reason) => Outcome::Unplanted { reason },
        TargetError::Failed {
            reason,
            stderr_tail,
            fault,
        } => Outcome::Error {
            reason,
            stderr_tail,
            fault: fault.map(|f| *f),
        },
    }
}

/// Why a read case that quotes the target's own frame cannot be built.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum NoFrame {
    /// The calibration that would have given the frame failed.
    #[error(transparent)]
    Calibration(NoCalibration),
    /// The target has no frame of its own: it cannot wrap.
    #[error("case needs the target's own frame, but the target cannot wrap")]
    CannotWrap,
}

/// Joins a read case's pieces with the target's calibration frame.
pub fn resolve_pieces(
    pieces: &[Piece],
    calibration: Option<&Result<Calibration, NoCalibration>>,
) -> Result<String, NoFrame> {
    let mut text = String::new();
    for piece in pieces {
        if let Piece::Literal(literal) = piece {
            text.push_str(literal);
            continue;
        }
        let calibration = match calibration {
            Some(Ok(calibration)) => calibration,
            Some(Err(failed)) => return Err(NoFrame::Calibration(failed.clone())),
            None => return Err(NoFrame::CannotWrap),
        };
        text.push_str(match piece {
            Piece::Frame => &calibration.framed,
            Piece::FrameHead => calibration.head(),
            Piece::FrameBody => calibration.body(),
            Piece::FrameTail => calibration.tail(),
            Piece::Literal(_) => unreachable!("handled above"),
        });
    }
    Ok(text)
}

/// Runs the built-in catalogue against `framing` and returns the result, for
/// a Rust project's own tests. See [`assert_conformance`].
pub fn check_conformance(
    framing: &mut dyn Framing,
    profile: &TargetProfile,
    level: ReaderLevel,
) -> RunResult {
    let catalogue = framecheck_core::catalogue::builtin();
    let cases = framecheck_core::catalogue::instantiate(&catalogue, profile);
    let options = RunOptions {
        level,
        catalogue_hash: catalogue.hash.clone(),
        ..RunOptions::default()
    };
    run(&cases, profile, framing, &options, &mut |_| {})
}

/// Asserts that `framing` passes every case of the built-in catalogue at
/// `level`; panics with a list of the failing cases otherwise.
///
/// ```no_run
/// use framecheck_core::level::ReaderLevel;
/// use framecheck_launch::profile::TargetProfile;
/// use framecheck_run::adapter::reference::Reference;
/// framecheck_run::runner::assert_conformance(&mut Reference, &framecheck_envelope::reference_profile(), ReaderLevel::Unicode);
/// ```
pub fn assert_conformance(framing: &mut dyn Framing, profile: &TargetProfile, level: ReaderLevel) {
    let run = check_conformance(framing, profile, level);
    let failures: Vec<String> = run
        .results
        .iter()
        .filter(|r| {
            matches!(
                r.verdict_at(level),
                Verdict::Fail | Verdict::FidelityFail | Verdict::Error
            )
        })
        .map(|r| {
            let checks: Vec<String> = r
                .findings_at(level)
                .iter()
                .map(|f| format!("{}: {}", f.check, f.message))
                .collect();
            format!(
                "  {} [{}] {}\n    {}",
                r.case.id,
                r.verdict_at(level).name(),
                r.case.title,
                if checks.is_empty() {
                    format!("{:?}", r.outcome)
                } else {
                    checks.join("\n    ")
                }
            )
        })
        .collect();
    assert!(
        failures.is_empty(),
        "{} of {} framecheck cases fail at the {} level:\n{}",
        failures.len(),
        run.results.len(),
        level,
        failures.join("\n")
    );
}
