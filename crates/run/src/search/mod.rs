//! Black-box attack search: mutate catalogue payloads, run them through any
//! target, and keep the inputs that break the frame.
//!
//! A fixed catalogue finds only the breakouts someone thought of. The search
//! takes every security case that wraps content, applies one to three
//! mutation operators ([`Operator`]) to the delimiters in its input (case
//! flips, invisible splices, lookalike letters and brackets, whitespace
//! inside delimiters, line-break variants, nesting, duplication, splitting a
//! delimiter between an attribute and the content, control characters and
//! ANSI/OSC sequences, and a stack of two to four [`Trick`]s on one
//! delimiter span found by the target's grammar, module `stack`), and asks
//! the oracle about the result.
//!
//! The search learns: a mutant whose framed output shows something not seen
//! before (a check that came close, a stacked spelling kept or rewritten,
//! a new count of live delimiters, an output-length anomaly, a new line
//! structure in the header) joins a corpus, and half of the later mutants
//! grow from corpus entries, the smaller of two drawn (module `corpus`). Length is kept in check as libFuzzer keeps
//! it: a mutant may grow only an allowance past its seed case, and a
//! smaller input with a kept entry's features replaces it; one padding
//! step per lineage may jump past the allowance (module `length`), so a
//! defect that needs long input is still one step away.
//!
//! A failing mutant counts as **new** when the mutation caused the failure:
//! the catalogue case it grew from passes that check unmutated on this
//! target. Only the first confirmed failure per signature (the failed
//! check, the operator families and the stacked tricks that produced it) is
//! kept; a signature whose finding did not replay is tried again, at most
//! three times. Each new failure is
//! shrunk (delta debugging over the characters of each field, keeping the same
//! check failing at the same level), written as a catalogue case, and
//! **replayed**: the written case is loaded, instantiated and run through
//! the runner and oracle like any catalogue case (module `replay`), and the
//! finding is reported only if that run fails. A finding that does not
//! replay is counted in [`SearchReport::unconfirmed`] and dropped.
//!
//! The mutant's canary bookkeeping follows the mutation: an operator that
//! moves text carrying the canary into another field (split-across-attribute
//! moves it into an attribute value) changes where the canary belongs, so
//! the fields are recomputed from where the canary actually is
//! ([`canary_fields`]).
//!
//! Every mutant is judged as `framecheck run` judges a case: against the
//! frame layouts calibration learned ([`crate::runner::Layouts`]), so a
//! framing's constant text around the frame is its own, not a failure. A
//! framing whose wrap answers parts (`wrap.returns: parts`) is seen through
//! the benign parts learned once per search (`runner::parts`): every stage
//! reads the content's part as the framed text, and each mutant's parts
//! are judged by `parts.structure` as well.
//!
//! A search that could not do its job is a harness error
//! ([`SearchReport::harness_error`]), never a clean result: the target never
//! answered, no mutant was tried, or the pass that learns the catalogue's
//! known failures did not finish within the budget.
//!
//! Runs are deterministic for a given `--seed`: the generator is a SplitMix64
//! stream. A time budget truncates that stream at a machine-dependent point; a
//! case budget does not.

mod campaign;
mod corpus;
mod emit;
mod faults;
mod length;
mod mutate;
mod nonce_ops;
mod one_input;
mod parallel;
mod propose;
mod record_ops;
mod replay;
mod section_ops;
mod stack;

use std::collections::{BTreeMap, BTreeSet};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};

pub use campaign::{load_corpus, save_corpus, CorpusEntry, CorpusError};
pub use emit::{render_markdown, render_terminal_summary, to_catalogue_files};
pub use mutate::Operator;
pub use one_input::{NotJudged, OneInput};
pub use propose::{render_proposal, TrickStack};
pub use stack::Trick;

use crate::adapter::replay::Replaying;
use crate::adapter::{FaultKind, Framing, TargetError, WrapRequest};
use crate::runner::{parts, segments, Layouts};
use corpus::{Corpus, Entry};
use framecheck_core::catalogue::{Category, ConcreteCase, Expectation, Field, Input, Operation};
use framecheck_core::grammar::ForgedLines;
use framecheck_core::level::ReaderLevel;
use framecheck_core::oracle::{self, Check, CheckClass, Finding, PartsStructure};
use framecheck_launch::profile::{
    Consumer, ReaderReturns, ResolvedProfile, TargetProfile, WrapReturns,
};
use mutate::SplitMix64;

/// How long a search may run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Budget {
    /// At most this many mutants (shrinking not counted).
    Cases(u64),
    /// At most this much wall time, shrinking included.
    Time(Duration),
}

/// Why a text is no [`Budget`].
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum BudgetError {
    /// No number before the unit.
    #[error("budget {0:?}: expected a number of cases, or seconds like 60s")]
    NoNumber(String),
    /// A unit other than `s` or `m`.
    #[error("budget {0:?}: unit must be s or m")]
    Unit(String),
}

impl std::str::FromStr for Budget {
    type Err = BudgetError;

    /// `500` is a number of mutants; `60s` or `2m` a time budget.
    fn from_str(text: &str) -> Result<Budget, BudgetError> {
        let text = text.trim();
        let (number, unit) = text.split_at(
            text.find(|c: char| !c.is_ascii_digit())
                .unwrap_or(text.len()),
        );
        let value: u64 = number
            .parse()
            .map_err(|_| BudgetError::NoNumber(text.to_string()))?;
        match unit {
            "" => Ok(Budget::Cases(value)),
            "s" => Ok(Budget::Time(Duration::from_secs(value))),
            "m" => Ok(Budget::Time(Duration::from_secs(value * 60))),
            _ => Err(BudgetError::Unit(text.to_string())),
        }
    }
}

/// Why a finished search stopped, told from its report and options by the
/// rules its loop stops on (`Explorer::run`): a user who gave
/// `--max-findings 1` sees that the search stopped there, not at its budget.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StopReason {
    /// The search did not finish (its harness error says why).
    Incomplete,
    /// It found `--max-findings` new failures.
    MaxFindings(usize),
    /// It tried the mutants its budget allowed.
    MutantBudget(u64),
    /// Its time budget ran out.
    TimeBudget(Duration),
    /// A mutant budget not spent, the finding limit not reached and no
    /// harness error: only a cancel request (Ctrl-C) stops the loop then.
    Interrupted,
}

impl StopReason {
    /// Why the search that wrote `report` under `options` stopped.
    pub fn of(report: &SearchReport, options: &SearchOptions) -> Self {
        if report.harness_error.is_some() {
            return StopReason::Incomplete;
        }
        if report.findings.len() >= options.max_findings {
            return StopReason::MaxFindings(options.max_findings);
        }
        match options.budget {
            Budget::Cases(limit) if report.mutants_tried >= limit => {
                StopReason::MutantBudget(limit)
            }
            Budget::Cases(_) => StopReason::Interrupted,
            Budget::Time(limit) => StopReason::TimeBudget(limit),
        }
    }
}

impl std::fmt::Display for StopReason {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            StopReason::Incomplete => write!(f, "the search did not finish"),
            StopReason::MaxFindings(n) => {
                write!(f, "--max-findings {n} reached (raise it to search on)")
            }
            StopReason::MutantBudget(n) => write!(f, "the budget of {n} mutants is spent"),
            StopReason::TimeBudget(limit) => {
                write!(f, "the time budget of {}s is spent", limit.as_secs())
            }
            StopReason::Interrupted => write!(f, "it was interrupted"),
        }
    }
}

/// Search settings.
#[derive(Debug, Clone)]
pub struct SearchOptions<'a> {
    /// Mutants or time.
    pub budget: Budget,
    /// Seed of the mutation stream.
    pub seed: u64,
    /// Level at which a mutant must fail to count.
    pub level: ReaderLevel,
    /// Most target calls spent shrinking one finding.
    pub shrink_calls: usize,
    /// Stop after this many new findings.
    pub max_findings: usize,
    /// Set to stop the search (Ctrl-C); [`never_cancelled`] where nobody
    /// can. Here rather than beside the options, as [`RunOptions`]'s is, so
    /// a run and a search are each given one options value.
    ///
    /// [`RunOptions`]: crate::runner::RunOptions
    pub cancel: &'a AtomicBool,
}

/// The cancel flag of a search nobody interrupts: never set.
pub fn never_cancelled() -> &'static AtomicBool {
    &crate::runner::NEVER
}

/// One new failing input, shrunk and confirmed by replaying its written case.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SearchFinding {
    /// Stable id derived from the target and the shrunk input; also the
    /// written case's id.
    pub id: String,
    /// The catalogue case the mutant grew from.
    pub seed_case: String,
    /// Its category.
    pub category: Category,
    /// Operators applied, in order, since the catalogue case (a corpus
    /// entry's lineage included).
    pub operators: Vec<String>,
    /// Tricks the `stacked-delimiter` operators applied, in order.
    #[serde(default)]
    pub tricks: Vec<String>,
    /// The request of the written case, as it was replayed.
    pub request: WrapRequest,
    /// The canary planted in the request, if any.
    pub canary: Option<String>,
    /// Fields that carry the canary in [`SearchFinding::request`].
    pub canary_fields: Vec<Field>,
    /// What the oracle found when the written case was replayed.
    pub finding: Finding,
}

/// What a search did.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SearchReport {
    /// Target name.
    pub target: String,
    /// Seed used.
    pub seed: u64,
    /// Level a failure had to reach.
    pub level: ReaderLevel,
    /// Mutants tried.
    pub mutants_tried: u64,
    /// Mutants that failed a security check (new or not).
    pub mutants_failing: u64,
    /// Target errors (crash, timeout) met while searching.
    pub target_errors: u64,
    /// Mutants on which the target crashed, hung or broke the protocol
    /// twice, the second time on a fresh target (`target.fault`).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub mutants_faulting: u64,
    /// Catalogue cases that already fail a security check unmutated, as
    /// `case id: check`; mutants of these failing the same check are not new.
    pub known_failures: Vec<String>,
    /// New failures, shrunk and replayed.
    pub findings: Vec<SearchFinding>,
    /// New failures whose written case did not fail when replayed (or could
    /// not be replayed within the budget); not reported.
    #[serde(default)]
    pub unconfirmed: u64,
    /// Why the search could not do its job, when it could not. A search with
    /// a harness error proves nothing about the target, findings or not.
    #[serde(default)]
    pub harness_error: Option<String>,
    /// Stacks of two or more tricks that made a mutant fail where its
    /// catalogue case passes, with how often and the confirmed findings
    /// that carry them (see `--propose`).
    #[serde(default)]
    pub trick_stacks: Vec<TrickStack>,
    /// Mutants kept in the corpus because their output was new (see
    /// `corpus`), when the search ended.
    #[serde(default)]
    pub corpus_size: usize,
    /// Distinct output features seen.
    #[serde(default)]
    pub features_seen: usize,
    /// The corpus when the search ended, to be saved for the next run
    /// (module `campaign`); not part of the report's JSON.
    #[serde(skip)]
    pub corpus: Vec<CorpusEntry>,
    /// Wall time in milliseconds.
    pub duration_ms: u64,
}

fn is_zero(n: &u64) -> bool {
    *n == 0
}

/// The target, the profile and the level, with the bookkeeping of every call
/// made: whether the target ever answered, and its first failure.
struct Probe<'a> {
    profile: &'a TargetProfile,
    /// The target, seen through the benign parts when it answers parts
    /// (`runner::parts`): every stage reads the content's part as the
    /// framed text.
    framing: Box<dyn Framing + 'a>,
    level: ReaderLevel,
    /// The nonce of an earlier benign wrap, for the replaying nonce
    /// operators (`nonce_ops`).
    harvested: Option<String>,
    /// The structure a benign frame reads back as, for a reader answering
    /// with segments (`runner::segments`).
    structure: Option<Result<oracle::Structure, segments::NoStructure>>,
    /// The layouts calibration learned, as a run learns them: every
    /// mutant is judged as `framecheck run` judges its case, so a
    /// framing's constant text around the frame is not a failure.
    layouts: Layouts,
    /// The parts a benign wrap answers, for a framing answering parts:
    /// each mutant's parts are judged by `parts.structure`.
    parts: Option<PartsStructure>,
    /// The profile's tokens as an attacker writes them (a nonce part as a
    /// sample value), built once: the single-edit operators look for them
    /// in every mutant.
    tokens: Vec<String>,
    /// The marker lines the grammar lets content forge (`section_ops`),
    /// built once.
    lines: ForgedLines,
    answered: u64,
    errors: u64,
    first_error: Option<String>,
    /// Why the target was given up (module `faults`), if it was.
    given_up: Option<String>,
}

/// A target's answer to one mutant, judged.
struct Judged {
    /// The framed text (the content's part, for a framing answering parts).
    framed: String,
    /// Every finding the oracle made on it, security or fidelity, at any
    /// level.
    findings: Vec<Finding>,
    /// The live delimiters each reader level counted on the way.
    live: oracle::LiveCounts,
}

/// What a search learns of the framing from benign wraps before its first
/// mutant. Every job shares it: it describes the framing, not one process
/// of it.
#[derive(Clone)]
struct Benign {
    /// The structure a segment reader answers (`runner::segments`).
    structure: Option<Result<oracle::Structure, segments::NoStructure>>,
    /// The layouts calibration learned.
    layouts: Layouts,
    /// The parts a framing answering parts answers (`runner::parts`).
    parts: Option<PartsStructure>,
}

impl<'a> Probe<'a> {
    /// A probe of `framing` (seen through `benign`'s parts: [`parts::view`])
    /// that has answered nothing yet. `earlier` is an earlier benign frame,
    /// whose nonce the replaying operators reuse.
    fn new(
        profile: &'a TargetProfile,
        framing: Box<dyn Framing + 'a>,
        level: ReaderLevel,
        earlier: Option<String>,
        benign: Benign,
    ) -> Self {
        Probe {
            profile,
            framing,
            level,
            harvested: earlier.and_then(|f| oracle::frame_nonce(profile, &f)),
            structure: benign.structure,
            layouts: benign.layouts,
            parts: benign.parts,
            tokens: attacker_tokens(profile),
            lines: section_ops::lines(&*profile.grammar()),
            answered: 0,
            errors: 0,
            first_error: None,
            given_up: None,
        }
    }

    /// Wraps `request` as a mutant of `case` and returns the framed output
    /// with every finding the oracle made on it, security or fidelity, at
    /// any level; `None` for a refusal (an answer with no finding).
    fn judge(
        &mut self,
        case: &ConcreteCase,
        request: &WrapRequest,
    ) -> Result<Option<Judged>, TargetError> {
        let mut evidence = Default::default();
        // A framing answering parts: `parts.structure` judges the parts,
        // and the frame checks the content's part, as in a run.
        let wrapped = match &self.parts {
            Some(structure) => {
                let framing = &mut *self.framing;
                parts::wrap_case(framing, Some(structure), request, &mut evidence)
            }
            None => self
                .framing
                .wrap(request)
                .map(|framed| (framed, Vec::new())),
        };
        let (framed, parts_findings) = match wrapped {
            Ok(wrapped) => wrapped,
            Err(TargetError::Refused(_)) => {
                self.answered += 1;
                return Ok(None);
            }
            // The store refused the mutant: nothing to judge, no error.
            Err(TargetError::Unplanted(_)) => return Ok(None),
            Err(error) => {
                self.errors += 1;
                self.first_error.get_or_insert_with(|| error.diagnosis());
                // A target that faulted is retired: the next request goes
                // to a fresh one (module `faults`).
                if error.as_fault().is_some() {
                    self.framing.restart();
                }
                return Err(error);
            }
        };
        self.answered += 1;
        let mutant = mutant_case(case, request);
        let layout = self.layouts.fitting(&mutant);
        // A reader answering with segments reads every frame back, as a run
        // does (`runner::segments`); a read-back that went wrong shows the
        // parser nothing, so nothing is its.
        let answer = self.structure.as_ref().map(|structure| {
            let framing = &mut *self.framing;
            match segments::read_back(&mutant, structure, framing, request, &framed, &mut evidence)
            {
                segments::ReadBack::Judged(more) => more,
                segments::ReadBack::Error(_) => Vec::new(),
            }
        });
        // Each finding for the consumer it fools, as a run judges it: the
        // parts for those they concern, the wrap for each consumer.
        let mut findings = oracle::as_written(self.profile, parts_findings);
        let mut live = None;
        let judge = |p: &ResolvedProfile| {
            let (judged, counted) =
                oracle::judge_wrap_counted(&mutant, p, layout, request, &framed);
            // The live delimiters the first consumer (the model, where
            // there is one) reads guide the search.
            live.get_or_insert(counted);
            judged
        };
        findings.extend(segments::wrap_findings(
            self.profile,
            judge,
            answer.as_deref(),
        ));
        let live = live.unwrap_or_default();
        Ok(Some(Judged {
            framed,
            findings,
            live,
        }))
    }

    /// What the probe learned of the framing, for another job's probe.
    fn benign(&self) -> Benign {
        Benign {
            structure: self.structure.clone(),
            layouts: self.layouts.clone(),
            parts: self.parts.clone(),
        }
    }

    /// Whether `finding` is a failure at the probe's level: a security
    /// finding, or a reproduced fault.
    fn counts(&self, finding: &Finding) -> bool {
        matches!(finding.class, CheckClass::Security | CheckClass::Fault)
            && finding.levels.contains(&self.level)
    }

    /// The security findings at the probe's level for `request`.
    fn security_findings(
        &mut self,
        case: &ConcreteCase,
        request: &WrapRequest,
    ) -> Result<Vec<Finding>, TargetError> {
        let judged = self.judge(case, request)?;
        Ok(judged
            .into_iter()
            .flat_map(|judged| judged.findings)
            .filter(|f| self.counts(f))
            .collect())
    }
}

/// The profile's tokens as an attacker writes them (a nonce part as a
/// sample value).
fn attacker_tokens(profile: &TargetProfile) -> Vec<String> {
    let grammar = profile.grammar();
    (0..profile.delimiters.all_tokens().len())
        .map(|i| grammar.anchor(i))
        .collect()
}

/// The fields of `request` that carry `canary`, in the order instantiation
/// lists them. Recomputed for every mutant: an operator may move the canary
/// to another field, and the oracle judges it where it now is.
pub fn canary_fields(canary: &str, request: &WrapRequest) -> Vec<Field> {
    if canary.is_empty() {
        return Vec::new();
    }
    let in_attributes = request
        .attributes
        .iter()
        .any(|(k, v)| k.contains(canary) || v.contains(canary));
    [
        (Field::Content, request.content.contains(canary)),
        (Field::Kind, request.kind.contains(canary)),
        (Field::Attributes, in_attributes),
        (Field::Provenance, request.provenance.contains(canary)),
    ]
    .into_iter()
    .filter(|(_, carries)| *carries)
    .map(|(field, _)| field)
    .collect()
}

/// `case` with `request` as its input and the canary bookkeeping redone.
fn mutant_case(case: &ConcreteCase, request: &WrapRequest) -> ConcreteCase {
    let mut mutant = case.clone();
    mutant.canary_fields = canary_fields(&case.canary, request);
    mutant.input = Input::Wrap(request.clone());
    mutant
}

/// When the search must stop: the budget's deadline or a cancel request.
struct Clock<'a> {
    deadline: Option<Instant>,
    cancel: &'a AtomicBool,
}

impl Clock<'_> {
    fn out_of_time(&self) -> bool {
        self.deadline.is_some_and(|d| Instant::now() >= d) || self.cancel.load(Ordering::SeqCst)
    }
}

/// Runs the search with one job. `cases` are the catalogue's cases
/// instantiated for `profile`; the security cases among them that wrap
/// content are the seeds.
pub fn search(
    cases: &[ConcreteCase],
    profile: &TargetProfile,
    framing: &mut dyn Framing,
    options: &SearchOptions,
) -> SearchReport {
    search_on(cases, profile, framing, options, (None, &[]))
}

/// Opens one more target: a new in-process framing, or a new target
/// process for a subprocess profile. Each job of [`search_jobs`] calls it
/// once, on its own thread; `Err` says why the target cannot be started.
pub type Connect<'a> =
    dyn Fn() -> Result<Box<dyn Framing>, crate::adapter::ConnectError> + Sync + 'a;

/// Runs the search with `jobs` mutation streams: the first on this thread
/// with `framing`, each other on its own thread with its own target from
/// `connect` (module `parallel` says how they share the corpus and
/// findings, and what is deterministic). One job is exactly [`search`].
pub fn search_jobs(
    cases: &[ConcreteCase],
    profile: &TargetProfile,
    framing: &mut dyn Framing,
    (connect, jobs): (&Connect, usize),
    options: &SearchOptions,
) -> SearchReport {
    search_campaign(cases, profile, framing, (connect, jobs), &[], options)
}

/// [`search_jobs`] starting from a saved corpus (module `campaign`):
/// `start`'s entries are judged first and kept when new, and the report's
/// [`SearchReport::corpus`] is the corpus at the end.
pub fn search_campaign(
    cases: &[ConcreteCase],
    profile: &TargetProfile,
    framing: &mut dyn Framing,
    (connect, jobs): (&Connect, usize),
    start: &[CorpusEntry],
    options: &SearchOptions,
) -> SearchReport {
    let more = (jobs > 1).then_some(parallel::Jobs { connect, jobs });
    search_on(cases, profile, framing, options, (more, start))
}

fn search_on(
    cases: &[ConcreteCase],
    profile: &TargetProfile,
    framing: &mut dyn Framing,
    options: &SearchOptions,
    (more, start): (Option<parallel::Jobs>, &[CorpusEntry]),
) -> SearchReport {
    let started = Instant::now();
    let clock = Clock {
        deadline: match options.budget {
            Budget::Time(limit) => Some(started + limit),
            Budget::Cases(_) => None,
        },
        cancel: options.cancel,
    };
    let (seeds, mut probe) = match prepare(cases, profile, framing, options.level) {
        Ok(prepared) => prepared,
        Err(Refusal { reason, errors }) => {
            return refused(profile, options, reason, errors, started)
        }
    };
    let seeds: Vec<&ConcreteCase> = seeds.iter().collect();
    let (known, known_complete) = known_failures(&seeds, &mut probe, &clock);
    let mut report = SearchReport {
        known_failures: known
            .iter()
            .map(|(id, check, consumer)| format!("{id}: {check}{}", consumer.note()))
            .collect(),
        ..nothing_yet(profile, options)
    };
    match (known_complete, more) {
        (false, _) => {}
        (true, None) => explore(
            &seeds,
            &known,
            start,
            &mut probe,
            &clock,
            options,
            &mut report,
        ),
        (true, Some(jobs)) => {
            let shared = parallel::Shared {
                seeds: &seeds,
                known: &known,
                clock: &clock,
                options,
            };
            parallel::explore(&shared, &jobs, start, &mut probe, &mut report);
        }
    }
    report.target_errors = probe.errors;
    report.harness_error = harness_error(&report, &probe, seeds.len(), known_complete);
    report.duration_ms = started.elapsed().as_millis() as u64;
    report
}

/// Why a search stopped before its first mutant, with the failed calls.
struct Refusal {
    reason: String,
    errors: u64,
}

/// What a search learns before its first mutant: the target answers a
/// benign request, the profile fits it (its layouts), an earlier frame
/// for the nonce operators, the structure a segment reader answers; and
/// the seed cases. Shared by [`search`] and [`OneInput`].
fn prepare<'a>(
    cases: &[ConcreteCase],
    profile: &'a TargetProfile,
    framing: &'a mut dyn Framing,
    level: ReaderLevel,
) -> Result<(Vec<ConcreteCase>, Probe<'a>), Refusal> {
    // A document framing is judged by its document (the runner's
    // `document` path), which no search operator or mutant judge asks yet:
    // refused, rather than judged as markers it does not write.
    if profile.grammar().document().is_some() {
        return Err(Refusal {
            reason: format!(
                "search does not judge {} framings yet; `framecheck run` does",
                profile.delimiters.grammar
            ),
            errors: 0,
        });
    }
    // A target that fails a benign request twice (a stray print on stdout,
    // an adapter that cannot import) would fail every mutant too: said at
    // once, instead of restarting it for every call of the budget.
    let mut watch = crate::runner::faults::FaultWatch::default();
    watch.first_contact(profile, framing, None);
    if let Some(abandoned) = watch.abandoned() {
        let mut reason = format!("the target never answered: {abandoned}");
        if let Some(fault) = abandoned.fault() {
            reason.push('\n');
            reason.push_str(fault.describe("  ", 12).trim_end());
        }
        return Err(Refusal { reason, errors: 2 });
    }
    // A profile its framing contradicts would make every mutant a finding
    // about the profile: the search proves nothing, as a run does. Parts
    // first: every later stage sees the content's part.
    // What is learned here is learned through replays: a request that
    // timed out on a slow machine is tried again under the replay budget
    // before its failure changes a layout (issue 57).
    let parts = parts::learn(profile, &mut Replaying::new(&mut *framing))
        .transpose()
        .map_err(|failure| parts_refusal(failure, profile))?;
    let mut framing = parts::view(Box::new(framing), parts.as_ref());
    let mut learning = Replaying::new(framing.as_mut());
    let layouts =
        Layouts::learn_fitting(profile, &mut learning, level).map_err(|misfit| Refusal {
            reason: misfit.explained(&profile.adapter),
            errors: 0,
        })?;
    let earlier = nonce_ops::earlier_frame(profile, &mut learning);
    let structure = segments::learn_structure(profile, &mut learning);
    let seeds = seed_cases(cases, profile, earlier.as_deref());
    let benign = Benign {
        structure,
        layouts,
        parts,
    };
    let probe = Probe::new(profile, framing, level, earlier, benign);
    Ok((seeds, probe))
}

/// Why no mutant is judged when the benign parts were not learned: the
/// profile's misfit, as a run refuses it, or the failed benign wrap.
fn parts_refusal(failure: parts::PartsFailure, profile: &TargetProfile) -> Refusal {
    match failure {
        parts::PartsFailure::Misfit(misfit) => Refusal {
            reason: crate::runner::Misfit::Parts(misfit).explained(&profile.adapter),
            errors: 0,
        },
        parts::PartsFailure::Wrap(error) => Refusal {
            reason: format!("calibration wrap failed: {}", error.diagnosis()),
            errors: 1,
        },
    }
}

/// The security cases that wrap content and that the target supports, with
/// the value of `earlier` written in for the cases that replay an earlier
/// frame's nonce (left out when there is no such frame).
fn seed_cases(
    cases: &[ConcreteCase],
    profile: &TargetProfile,
    earlier: Option<&str>,
) -> Vec<ConcreteCase> {
    cases
        .iter()
        .filter(|c| {
            c.expect == Expectation::Hold
                && matches!(c.operation, Operation::Wrap | Operation::Roundtrip)
                && matches!(c.input, Input::Wrap(_))
                && c.requires.iter().all(|cap| profile.can(*cap))
        })
        .filter_map(|c| match (&c.harvest, earlier) {
            (None, _) => Some(c.clone()),
            (Some(_), Some(framed)) => {
                framecheck_core::nonce::harvest::resolve_from(c, profile, framed).ok()
            }
            (Some(_), None) => None,
        })
        .collect()
}

/// A seed case's failure unmutated: its id, the check and the consumer it
/// fools. A mutant failing the same check for another consumer is new.
pub(super) type Known = (String, Check, Consumer);

/// `finding`, of a mutant of `case`, as a known failure would be keyed.
pub(super) fn known_key(case: &ConcreteCase, finding: &Finding) -> Known {
    (case.id.clone(), finding.check, finding.consumer)
}

/// Runs every seed unmutated and records the security checks it already
/// fails. The second value is false when the budget ran out first: without
/// the whole list, no failure can be told new from known.
fn known_failures(
    seeds: &[&ConcreteCase],
    probe: &mut Probe,
    clock: &Clock,
) -> (BTreeSet<Known>, bool) {
    let mut known = BTreeSet::new();
    for case in seeds {
        if clock.out_of_time() {
            return (known, false);
        }
        let Input::Wrap(request) = &case.input else {
            continue;
        };
        let findings = match probe.judge(case, request) {
            Ok(judged) => judged.map(|j| j.findings).unwrap_or_default(),
            // A seed the target faults on unmutated: its mutants' faults
            // are not new.
            Err(error) => match faults::retry(probe, case, request, &error) {
                faults::Retried::Reproduced(finding) => vec![finding],
                faults::Retried::Answered(judged) => judged.map(|j| j.findings).unwrap_or_default(),
                faults::Retried::NotAFault => Vec::new(),
                faults::Retried::GivenUp => return (known, true),
            },
        };
        for finding in findings.into_iter().filter(|f| probe.counts(f)) {
            known.insert((case.id.clone(), finding.check, finding.consumer));
        }
    }
    (known, true)
}

/// A search that stopped before its first mutant, for `reason`, after
/// `target_errors` failed calls.
fn refused(
    profile: &TargetProfile,
    options: &SearchOptions,
    reason: String,
    target_errors: u64,
    started: Instant,
) -> SearchReport {
    SearchReport {
        target_errors,
        harness_error: Some(reason),
        duration_ms: started.elapsed().as_millis() as u64,
        ..nothing_yet(profile, options)
    }
}

/// A report of `profile`'s search before anything is tried: every count
/// zero, no finding, no error.
fn nothing_yet(profile: &TargetProfile, options: &SearchOptions) -> SearchReport {
    SearchReport {
        target: profile.name.clone(),
        seed: options.seed,
        level: options.level,
        mutants_tried: 0,
        mutants_failing: 0,
        target_errors: 0,
        mutants_faulting: 0,
        known_failures: Vec::new(),
        findings: Vec::new(),
        unconfirmed: 0,
        harness_error: None,
        trick_stacks: Vec::new(),
        corpus_size: 0,
        features_seen: 0,
        corpus: Vec::new(),
        duration_ms: 0,
    }
}

/// Why the search proves nothing, if it does not.
fn harness_error(
    report: &SearchReport,
    probe: &Probe,
    seeds: usize,
    known_complete: bool,
) -> Option<String> {
    if let Some(given_up) = &probe.given_up {
        return Some(given_up.clone());
    }
    if probe.answered == 0 && probe.errors > 0 {
        return Some(format!(
            "the target never answered: all {} calls failed (first: {})",
            probe.errors,
            probe.first_error.as_deref().unwrap_or("unknown")
        ));
    }
    if !known_complete {
        return Some(format!(
            "the budget ran out while running the {seeds} catalogue seed cases unmutated \
             (needed to tell new failures from known ones); no mutant was tried; \
             raise --budget"
        ));
    }
    if report.mutants_tried == 0 {
        return Some(if seeds == 0 {
            "no mutant was tried: no catalogue case is a hold case wrapping content \
             that this target supports (check --only and the profile's capabilities)"
                .to_string()
        } else {
            "no mutant was tried within the budget; raise --budget".to_string()
        });
    }
    None
}

/// Findings tried per failure signature before it is given up when none
/// replays.
const SIGNATURE_ATTEMPTS: u8 = 3;

/// Largest content a mutant may carry; padding and duplication stop there.
const MAX_CONTENT: usize = 256 * 1024;

/// The mutation loop of a search with one job: grow a mutant from a
/// corpus entry or a seed case, judge it, keep it in the corpus when its
/// output is new, and for each new failure signature shrink, replay and
/// record.
fn explore(
    seeds: &[&ConcreteCase],
    known: &BTreeSet<Known>,
    start: &[CorpusEntry],
    probe: &mut Probe,
    clock: &Clock,
    options: &SearchOptions,
    report: &mut SearchReport,
) {
    let mut worker = Worker::new(options.seed);
    worker.prime(seeds, start, probe);
    worker.run(seeds, known, probe, clock, options, report, None);
    report.corpus = worker.export(seeds);
    report.trick_stacks = propose::tally(worker.stacks, &report.findings);
    report.corpus_size = worker.corpus.len();
    report.features_seen = worker.corpus.features();
}

/// One mutation stream: its generator and its corpus, with the failure
/// signatures and trick stacks it has met. A search with one job has one;
/// with several, each job has its own (module `parallel`).
struct Worker {
    rng: SplitMix64,
    corpus: Corpus,
    /// Signature -> attempts: a signature is done once a finding with it is
    /// confirmed, or after a few that did not replay (each shrunk to the
    /// edge of what fails, which a replay with its own canary may miss).
    signatures: BTreeMap<String, u8>,
    /// Trick stacks (in-span tricks, sorted) -> new failing mutants.
    stacks: BTreeMap<Vec<Trick>, u64>,
    /// The signatures of the findings this stream confirmed, in order.
    confirmed: Vec<String>,
    /// Live spans of the field texts the stacked-trick operator has seen.
    spans: stack::LiveSpans,
    /// How long a mutant may grow (module `length`).
    length: length::LengthControl,
}

impl Worker {
    fn new(seed: u64) -> Worker {
        Worker {
            rng: SplitMix64(seed),
            corpus: Corpus::default(),
            signatures: BTreeMap::new(),
            stacks: BTreeMap::new(),
            confirmed: Vec::new(),
            spans: stack::LiveSpans::default(),
            length: length::LengthControl::default(),
        }
    }

    /// Judges each saved entry whose case is among `seeds`, keeping it
    /// when its output is new; not counted as mutants, and a failure of
    /// one is not a finding (the mutants grown from it are judged anew).
    fn prime(&mut self, seeds: &[&ConcreteCase], start: &[CorpusEntry], probe: &mut Probe) {
        for entry in start.iter().filter_map(|e| e.to_entry(seeds)) {
            if probe.given_up.is_some() {
                return;
            }
            let case = seeds[entry.seed];
            // Its failure is dropped: no failure is known or new here.
            let none = BTreeSet::new();
            let _ = failure((case, &none), &entry, &[], probe, &mut self.corpus);
        }
    }

    /// The corpus as saved files hold it.
    fn export(&self, seeds: &[&ConcreteCase]) -> Vec<CorpusEntry> {
        self.corpus
            .entries()
            .iter()
            .map(|e| CorpusEntry::of(e, seeds[e.seed]))
            .collect()
    }

    /// Tries mutants until the search must stop or, with `limit`, that many
    /// more were tried.
    #[allow(clippy::too_many_arguments)]
    fn run(
        &mut self,
        seeds: &[&ConcreteCase],
        known: &BTreeSet<Known>,
        probe: &mut Probe,
        clock: &Clock,
        options: &SearchOptions,
        report: &mut SearchReport,
        limit: Option<u64>,
    ) {
        let stop_at = limit.map(|l| report.mutants_tried + l);
        while !seeds.is_empty()
            && !clock.out_of_time()
            && report.findings.len() < options.max_findings
            && !cases_spent(options, report)
            && stop_at.is_none_or(|end| report.mutants_tried < end)
        {
            let grown = grow(
                seeds,
                (&mut self.corpus, &mut self.spans, &self.length),
                probe,
                &mut self.rng,
            );
            let Some((mutant, stacked)) = grown else {
                continue;
            };
            let case = seeds[mutant.seed];
            report.mutants_tried += 1;
            let changes = self.corpus.changes();
            let step = failure((case, known), &mutant, &stacked, probe, &mut self.corpus);
            self.length.judged(self.corpus.changes() != changes);
            let finding = match step {
                Step::Failed(finding) => *finding,
                Step::Passed => continue,
                Step::GivenUp => break,
            };
            self.record(case, mutant, finding, known, probe, clock, options, report);
        }
    }

    /// Counts a failing mutant and, for a new failure signature, shrinks,
    /// replays and records it.
    #[allow(clippy::too_many_arguments)]
    fn record(
        &mut self,
        case: &ConcreteCase,
        mutant: Entry,
        finding: Finding,
        known: &BTreeSet<Known>,
        probe: &mut Probe,
        clock: &Clock,
        options: &SearchOptions,
        report: &mut SearchReport,
    ) {
        let is_fault = finding.class == CheckClass::Fault;
        if is_fault {
            report.mutants_faulting += 1;
        } else {
            report.mutants_failing += 1;
        }
        let known_failure = known.contains(&known_key(case, &finding));
        if !known_failure && !is_fault {
            if let Some(key) = propose::stack_key(&mutant.tricks) {
                *self.stacks.entry(key).or_default() += 1;
            }
        }
        let sig = match &finding.fault {
            // One fault finding per kind: what the target chokes on is its
            // weakness, whichever operator put it there.
            Some(fault) => format!("{}[{}]", finding.check.name(), fault.kind.name()),
            None => signature(&finding, &mutant.operators, &mutant.tricks),
        };
        // New means the mutation caused the failure: the seed case passes
        // this check unmutated. One finding per signature keeps it readable.
        let attempts = self.signatures.entry(sig.clone()).or_default();
        if known_failure || *attempts >= SIGNATURE_ATTEMPTS {
            return;
        }
        *attempts += 1;
        if shrink_and_confirm(case, mutant, finding, probe, clock, options, report) {
            self.signatures.insert(sig.clone(), SIGNATURE_ATTEMPTS);
            self.confirmed.push(sig);
        }
    }
}

/// What came of one mutant.
enum Step {
    /// It failed at the probe's level: a security finding, or a fault the
    /// retry reproduced (boxed: a finding is large beside the other arms).
    Failed(Box<Finding>),
    /// It was answered (or refused) with no such failure, or never sent.
    Passed,
    /// The target was given up (module `faults`).
    GivenUp,
}

/// Sends `mutant`, retrying it once when the target faults, and keeps it in
/// the corpus when its output is new.
fn failure(
    (case, known): (&ConcreteCase, &BTreeSet<Known>),
    mutant: &Entry,
    stacked: &[stack::Stacked],
    probe: &mut Probe,
    corpus: &mut Corpus,
) -> Step {
    let judged = match answer(case, &mutant.request, probe) {
        Ok(judged) => judged,
        Err(step) => return step,
    };
    let outcome = match &judged {
        Some(j) => corpus::Outcome::Framed(&j.framed, &j.findings, &j.live),
        None => corpus::Outcome::Refused,
    };
    corpus.observe(probe.profile, mutant, stacked, outcome);
    first_failure(judged, probe, case, known)
}

/// The target's answer to `request` as a mutant of `case`, judged; a
/// fault is retried once on a fresh target, and what that shows is the
/// step (`Err`).
fn answer(
    case: &ConcreteCase,
    request: &WrapRequest,
    probe: &mut Probe,
) -> Result<Option<Judged>, Step> {
    match probe.judge(case, request) {
        Ok(judged) => Ok(judged),
        Err(error) => match faults::retry(probe, case, request, &error) {
            faults::Retried::Answered(judged) => Ok(judged),
            faults::Retried::Reproduced(finding) => Err(Step::Failed(Box::new(finding))),
            faults::Retried::NotAFault => Err(Step::Passed),
            faults::Retried::GivenUp => Err(Step::GivenUp),
        },
    }
}

/// The finding of a judged answer that counts at the probe's level: the
/// first, unless it is a known failure of `case` and another consumer's is
/// not. A consumer fooled anew is a new failure, whatever another
/// consumer's known one (a mutant that forges a record the parser reads
/// while the model's forged tag was known already); with one consumer the
/// first is kept.
fn first_failure(
    judged: Option<Judged>,
    probe: &Probe,
    case: &ConcreteCase,
    known: &BTreeSet<Known>,
) -> Step {
    let counting: Vec<Finding> = judged
        .into_iter()
        .flat_map(|judged| judged.findings)
        .filter(|f| probe.counts(f))
        .collect();
    let Some(first) = counting.first() else {
        return Step::Passed;
    };
    let is_known = |f: &Finding| known.contains(&known_key(case, f));
    let chosen = if is_known(first) {
        counting
            .iter()
            .find(|f| f.consumer != first.consumer && !is_known(f))
            .unwrap_or(first)
    } else {
        first
    };
    Step::Failed(Box::new(chosen.clone()))
}

/// Whether a budget in mutants is used up.
fn cases_spent(options: &SearchOptions, report: &SearchReport) -> bool {
    match options.budget {
        Budget::Cases(limit) => report.mutants_tried >= limit,
        Budget::Time(_) => false,
    }
}

/// Shrinks a new failing mutant and replays it; a confirmed finding is added
/// to `report` (true), one that does not replay is counted as unconfirmed.
/// A mutant that shrinks to an input already found is dropped (false).
fn shrink_and_confirm(
    case: &ConcreteCase,
    mut mutant: Entry,
    finding: Finding,
    probe: &mut Probe,
    clock: &Clock,
    options: &SearchOptions,
    report: &mut SearchReport,
) -> bool {
    let request = std::mem::take(&mut mutant.request);
    let (request, finding) = match finding.fault.as_ref().map(|f| f.kind) {
        // Each try of a hang waits out the timeout: a hang is kept as found.
        Some(FaultKind::Hang) => (request, finding),
        Some(kind) => {
            let mut again = |probe: &mut Probe, trial: &WrapRequest| {
                faults::faults_again(probe, case, trial, kind)
            };
            let calls = options.shrink_calls;
            shrink(case, probe, (request, finding), calls, clock, &mut again)
        }
        None => {
            // The same failure: the same check, fooling the same consumer.
            let (check, consumer) = (finding.check, finding.consumer);
            let mut again = |probe: &mut Probe, trial: &WrapRequest| {
                let found = probe.security_findings(case, trial).ok()?;
                found
                    .into_iter()
                    .find(|f| f.check == check && f.consumer == consumer)
            };
            let calls = options.shrink_calls;
            shrink(case, probe, (request, finding), calls, clock, &mut again)
        }
    };
    let id = emit::finding_id(&probe.profile.name, &request);
    // Different mutants often shrink to the same input.
    if report.findings.iter().any(|f| f.id == id) {
        return false;
    }
    let candidate = SearchFinding {
        id,
        seed_case: case.id.clone(),
        category: case.category,
        operators: mutant
            .operators
            .iter()
            .map(|o| o.name().to_string())
            .collect(),
        tricks: mutant.tricks.iter().map(|t| t.name().to_string()).collect(),
        canary_fields: canary_fields(&case.canary, &request),
        canary: Some(case.canary.clone()).filter(|c| request_mentions(&request, c)),
        request,
        finding,
    };
    match confirm(candidate, probe, clock, report) {
        Some(confirmed) => {
            report.findings.push(confirmed);
            true
        }
        None => {
            report.unconfirmed += 1;
            false
        }
    }
}

/// The next mutant: one to three mutations of a corpus entry or of a seed
/// case's input. One mutation in sixteen pads a field (module `length`); of
/// the rest, a third stack tricks on one delimiter span and the others are
/// single edits. `None` when nothing applied, the content grew past
/// [`MAX_CONTENT`], or the mutant is longer than the length control admits.
fn grow(
    seeds: &[&ConcreteCase],
    (corpus, spans, length): (&mut Corpus, &mut stack::LiveSpans, &length::LengthControl),
    probe: &Probe,
    rng: &mut SplitMix64,
) -> Option<(Entry, Vec<stack::Stacked>)> {
    let mut mutant = match corpus.pick(rng) {
        Some(entry) => entry,
        None => {
            let seed = length.draw_seed(seeds, rng);
            let Input::Wrap(request) = &seeds[seed].input else {
                return None;
            };
            Entry::from_seed(seed, request.clone())
        }
    };
    let mut stacked = Vec::new();
    let mut applied = false;
    for _ in 0..1 + rng.below(3) {
        // Padding (the operator, or the trick in a stack) is granted past
        // the allowance only as a seed case's first step: one long jump
        // per lineage, never padding on padding.
        let first = mutant.operators.is_empty() && mutant.granted == 0;
        let before = mutant.request.input_len();
        let padded = if rng.below(16) == 0 {
            length::pad(&mut mutant.request, rng);
            mutant.operators.push(Operator::Pad);
            true
        } else if let Some(s) = mutate_once(&mut mutant, probe, spans, rng) {
            let padded = s
                .as_ref()
                .is_some_and(|s| s.tricks.contains(&Trick::Padding));
            stacked.extend(s);
            padded
        } else {
            continue;
        };
        applied = true;
        if first && padded {
            mutant.granted = mutant.request.input_len().saturating_sub(before);
        }
    }
    let seed_len = input_len(seeds[mutant.seed]);
    let len = mutant.request.input_len();
    (applied
        && mutant.request.content.len() <= MAX_CONTENT
        && length.admits(len, seed_len, mutant.granted))
    .then_some((mutant, stacked))
}

/// One mutation of `mutant` other than padding: `None` when nothing
/// applied, else the stacked span it respelled, if it stacked tricks.
fn mutate_once(
    mutant: &mut Entry,
    probe: &Probe,
    spans: &mut stack::LiveSpans,
    rng: &mut SplitMix64,
) -> Option<Option<stack::Stacked>> {
    let profile = probe.profile;
    // Only a nonce profile draws for the nonce operators, so the stream of
    // every other search is unchanged by them.
    let nonce = profile.delimiters.nonce.is_some();
    let lines = !probe.lines.is_empty();
    // Likewise the record operators, for a reader answering with segments
    // or a framing answering parts (each splits text into messages).
    let records = profile.reader.returns == ReaderReturns::Segments
        || profile.wrap.returns == WrapReturns::Parts;
    let request = &mut mutant.request;
    let operator = if lines && rng.below(4) == 0 {
        section_ops::mutate(request, &probe.lines, rng)
    } else if records && rng.below(3) == 0 {
        record_ops::mutate(request, rng)
    } else if nonce && rng.below(4) == 0 {
        let harvested = probe.harvested.as_deref();
        nonce_ops::mutate(request, profile, harvested, rng)
    } else if rng.below(3) == 0 {
        let s = stack::stack(request, profile, spans, rng)?;
        mutant.operators.push(Operator::StackedDelimiter);
        mutant.tricks.extend(&s.tricks);
        return Some(Some(s));
    } else {
        mutate::mutate(request, &probe.tokens, profile, rng)
    };
    mutant.operators.push(operator?);
    Some(None)
}

/// The fields of `request` an attacker writes, in the order every operator
/// draws from: the content, the provenance, the kind, then the attribute
/// values by name.
fn fields_mut(request: &mut WrapRequest) -> Vec<&mut String> {
    let mut fields = vec![
        &mut request.content,
        &mut request.provenance,
        &mut request.kind,
    ];
    fields.extend(request.attributes.values_mut());
    fields
}

/// The length of a seed case's input (zero for a case that is not a wrap).
fn input_len(case: &ConcreteCase) -> usize {
    match &case.input {
        Input::Wrap(request) => request.input_len(),
        _ => 0,
    }
}

fn request_mentions(request: &WrapRequest, text: &str) -> bool {
    !text.is_empty() && !canary_fields(text, request).is_empty()
}

/// Replays `candidate`'s written case; returns the finding as replayed, or
/// `None` when it does not fail (or time ran out before it could be run).
fn confirm(
    candidate: SearchFinding,
    probe: &mut Probe,
    clock: &Clock,
    report: &SearchReport,
) -> Option<SearchFinding> {
    if clock.out_of_time() {
        return None;
    }
    let confirmed = replay::replay(
        &candidate,
        report.seed,
        probe.profile,
        probe.framing.as_mut(),
        probe.level,
    )
    .ok()?;
    let Input::Wrap(request) = confirmed.case.input else {
        return None;
    };
    Some(SearchFinding {
        canary: Some(confirmed.case.canary.clone()).filter(|c| request_mentions(&request, c)),
        canary_fields: confirmed.case.canary_fields,
        request,
        finding: confirmed.finding,
        ..candidate
    })
}

/// The check plus the operator families and stacked tricks that produced
/// a failure: one finding is kept per signature.
fn signature(finding: &Finding, operators: &[Operator], tricks: &[Trick]) -> String {
    let families: BTreeSet<&str> = operators.iter().map(|o| o.family()).collect();
    let families: Vec<&str> = families.into_iter().collect();
    let tricks: BTreeSet<&str> = tricks.iter().map(|t| t.name()).collect();
    let tricks: Vec<&str> = tricks.into_iter().collect();
    // A failure of another consumer is another weakness: its own signature.
    format!(
        "{}{}[{}]({})",
        finding.check.name(),
        finding.consumer.note(),
        families.join("+"),
        tricks.join("+")
    )
}

/// Delta debugging over each field's characters: drop chunks while
/// `again` still finds the failure (the same check at the probe's level,
/// or the same kind of fault).
fn shrink(
    case: &ConcreteCase,
    probe: &mut Probe,
    (mut request, mut finding): (WrapRequest, Finding),
    mut calls: usize,
    clock: &Clock,
    again: &mut dyn FnMut(&mut Probe, &WrapRequest) -> Option<Finding>,
) -> (WrapRequest, Finding) {
    let canary = case.canary.clone();
    let field_count = 3 + request.attributes.len();
    for field in 0..field_count {
        let mut chunk = field_text(&mut request, field)
            .chars()
            .count()
            .div_ceil(2)
            .max(1);
        while chunk >= 1 && calls > 0 && !clock.out_of_time() {
            let mut changed = false;
            let mut at = 0;
            loop {
                let chars: Vec<char> = field_text(&mut request, field).chars().collect();
                if at >= chars.len() || calls == 0 {
                    break;
                }
                let end = (at + chunk).min(chars.len());
                let candidate: String = chars[..at].iter().chain(&chars[end..]).collect();
                // The canary marks where the attacker's text lands; keep it whole.
                if !canary.is_empty()
                    && field_text(&mut request, field).contains(&canary)
                    && !candidate.contains(&canary)
                {
                    at = end;
                    continue;
                }
                let mut trial = request.clone();
                *field_text(&mut trial, field) = candidate;
                calls -= 1;
                match again(probe, &trial) {
                    Some(f) => {
                        request = trial;
                        finding = f;
                        changed = true;
                    }
                    None => at = end,
                }
            }
            if !changed {
                if chunk == 1 {
                    break;
                }
                chunk = chunk.div_ceil(2);
            }
        }
    }
    (request, finding)
}

fn field_text(request: &mut WrapRequest, field: usize) -> &mut String {
    match field {
        0 => &mut request.content,
        1 => &mut request.provenance,
        2 => &mut request.kind,
        n => request
            .attributes
            .values_mut()
            .nth(n - 3)
            .expect("field index in range"),
    }
}

/// A wrap request of `content` with a plain kind and provenance, for the
/// search modules' tests.
#[cfg(test)]
fn test_request(content: &str) -> WrapRequest {
    WrapRequest {
        content: content.into(),
        kind: "tool-result".into(),
        attributes: Default::default(),
        provenance: "Fetched.".into(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A budget is a count of mutants or a time in seconds or minutes;
    /// anything else is refused, naming the text and what was expected.
    #[test]
    fn budgets_parse_and_a_bad_one_says_why() {
        assert_eq!("500".parse(), Ok(Budget::Cases(500)));
        assert_eq!(" 60s".parse(), Ok(Budget::Time(Duration::from_secs(60))));
        assert_eq!("2m".parse(), Ok(Budget::Time(Duration::from_secs(120))));
        let error = |text: &str| text.parse::<Budget>().unwrap_err().to_string();
        assert_eq!(
            error("soon"),
            "budget \"soon\": expected a number of cases, or seconds like 60s"
        );
        assert_eq!(error("5h"), "budget \"5h\": unit must be s or m");
    }
    use std::collections::BTreeMap;

    fn request(content: &str, title: &str) -> WrapRequest {
        WrapRequest {
            content: content.into(),
            kind: "tool-result".into(),
            attributes: BTreeMap::from([("title".to_string(), title.to_string())]),
            provenance: "Fetched.".into(),
        }
    }

    /// Padding jumps past the length allowance once per lineage, as its
    /// first step from a seed case, and never again on what grew from it.
    #[test]
    fn a_lineage_gets_one_granted_padding_jump() {
        let profile = framecheck_envelope::reference_profile();
        let cases = framecheck_core::catalogue::instantiate(
            &framecheck_core::catalogue::builtin(),
            &profile,
        );
        let mut framing = crate::adapter::reference::Reference;
        let Ok((seeds, probe)) = prepare(&cases, &profile, &mut framing, ReaderLevel::Unicode)
        else {
            panic!("the reference fits its profile");
        };
        let seeds: Vec<&ConcreteCase> = seeds.iter().collect();
        let (mut rng, length) = (SplitMix64(3), length::LengthControl::default());
        let mut spans = stack::LiveSpans::default();
        let mut grow_one = |corpus: &mut Corpus, rng: &mut SplitMix64| {
            grow(&seeds, (corpus, &mut spans, &length), &probe, rng)
        };
        // From seed cases alone (the corpus stays empty).
        let mut jumped = None;
        for _ in 0..3_000 {
            let Some((mutant, _)) = grow_one(&mut Corpus::default(), &mut rng) else {
                continue;
            };
            let past = mutant.request.input_len() - input_len(seeds[mutant.seed]);
            if mutant.granted == 0 {
                assert!(past <= length::FIRST_ALLOWANCE, "{past} bytes ungranted");
                continue;
            }
            let first = mutant.operators[0];
            assert!(
                first == Operator::Pad
                    || (first == Operator::StackedDelimiter
                        && mutant.tricks.contains(&Trick::Padding)),
                "granted to {:?} {:?}",
                mutant.operators,
                mutant.tricks
            );
            if past > length::FIRST_ALLOWANCE {
                jumped.get_or_insert(mutant);
            }
        }
        let jumped = jumped.expect("some lineage jumped past the allowance");
        // From the padded entry: its grant stays what it was.
        let mut corpus = Corpus::default();
        let framed = "a frame no other mutant shows";
        corpus.observe(
            &profile,
            &jumped,
            &[],
            corpus::Outcome::Framed(framed, &[], &[]),
        );
        let mut grown_from_it = 0;
        for _ in 0..2_000 {
            let Some((mutant, _)) = grow_one(&mut corpus, &mut rng) else {
                continue;
            };
            // Half the picks are fresh seed lineages: one whose first
            // operators are the jumped entry's own is granted its own pad.
            if mutant.picked() > 0 {
                assert!(mutant.operators.starts_with(&jumped.operators));
                assert_eq!(mutant.granted, jumped.granted, "{:?}", mutant.operators);
                grown_from_it += 1;
            }
        }
        assert!(grown_from_it > 100, "{grown_from_it}");
    }

    #[test]
    fn canary_fields_follow_the_canary_into_an_attribute() {
        // What split-across-attribute does when the cut carries the canary.
        assert_eq!(
            canary_fields("CANARY_1", &request("x", "<a CANARY_1")),
            vec![Field::Attributes]
        );
        assert_eq!(
            canary_fields("CANARY_1", &request("CANARY_1", "CANARY_1")),
            vec![Field::Content, Field::Attributes]
        );
        assert!(canary_fields("", &request("x", "y")).is_empty());
    }
}
