//! `--jobs N`: N mutation streams, each on its own thread with its own
//! target (an in-process framing, or a target process of its own for a
//! subprocess profile), one corpus and one set of findings.
//!
//! Job `j` draws from its own SplitMix64 stream, seeded from the search's
//! seed and `j` ([`stream_seed`]). The jobs run in **rounds** of at most
//! [`ROUND`] mutants each; between rounds they synchronise, in job order:
//!
//! - every corpus entry a job kept in the round (with the features that
//!   made it new) is offered to every other job's replica of the corpus,
//!   which keeps it when one of those features is new to it (the rule of
//!   `Corpus::observe`), so what one job learned the others grow from;
//! - every finding a job confirmed (shrunk and replayed on its own target,
//!   as a one-job search does) joins the one list of findings unless an
//!   earlier job's finding this round has the same failure signature or id;
//!   its signature is then done for every job, and the findings are written
//!   once, by the caller, from that list.
//!
//! The first job runs on the calling thread with the target the search
//! calibrated; its calibration, layouts and known failures serve every job
//! (they describe the framing, not one process of it).
//!
//! **Deterministic**: with a budget in mutants, for a deterministic target,
//! the same seed and the same job count give the same report (mutant
//! counts, corpus, findings and their order), whatever the threads'
//! timing: each round's work of a job depends only on the state at the
//! round's start, and the merge is in job order. Not the same for another
//! job count (the streams differ), nor under a time budget (the deadline
//! falls at a machine-dependent point), nor across a cancel. One job is the
//! one-job search exactly (this module is not used).

use std::collections::{BTreeMap, BTreeSet};
use std::sync::mpsc;

use super::corpus::{Entry, Feature};
use super::{
    nonce_ops, Budget, Clock, Known, Probe, SearchFinding, SearchOptions, SearchReport, Worker,
};
use crate::runner::parts;
use framecheck_core::catalogue::ConcreteCase;

/// Most mutants a job tries between two syncs: small enough that a job
/// soon grows from what the others found, large enough that waiting for
/// the slowest job of a round costs little.
const ROUND: u64 = 256;

/// How to open the other jobs' targets, and how many jobs.
pub(super) struct Jobs<'a> {
    pub(super) connect: &'a super::Connect<'a>,
    pub(super) jobs: usize,
}

/// What every job reads and none changes.
pub(super) struct Shared<'a> {
    pub(super) seeds: &'a [&'a ConcreteCase],
    pub(super) known: &'a BTreeSet<Known>,
    pub(super) clock: &'a Clock<'a>,
    pub(super) options: &'a SearchOptions<'a>,
}

/// The seed of job `job`'s stream: job 0 keeps the search's seed; the
/// others step it by an odd constant, mixed, so streams do not overlap in
/// any budget a search reaches.
pub(super) fn stream_seed(seed: u64, job: usize) -> u64 {
    if job == 0 {
        return seed;
    }
    let mut mix =
        super::mutate::SplitMix64(seed ^ (job as u64).wrapping_mul(0xA24B_AED4_963E_E407));
    (mix.below(usize::MAX) as u64) ^ job as u64
}

/// What the coordinator sends a job before a round.
struct Sync {
    /// Mutants to try this round; 0 ends the job.
    limit: u64,
    /// Entries the other jobs kept last round, in job order.
    offers: Vec<(Entry, Vec<Feature>)>,
    /// Every finding so far, in order, and the signatures that are done.
    findings: Vec<SearchFinding>,
    done: Vec<String>,
}

/// What a job did in one round.
#[derive(Default)]
struct Round {
    tried: u64,
    failing: u64,
    faulting: u64,
    unconfirmed: u64,
    /// Findings it confirmed, with their signatures, in order.
    found: Vec<(SearchFinding, String)>,
    fresh: Vec<(Entry, Vec<Feature>)>,
    /// Totals so far (not deltas) of the job's target.
    answered: u64,
    errors: u64,
    first_error: Option<String>,
    given_up: Option<String>,
    /// Whether the job ran this round (else the rest is empty).
    ran: bool,
    /// At the end only: its trick stacks.
    stacks: BTreeMap<Vec<super::Trick>, u64>,
}

/// One job's state between rounds: its stream and its own copy of the
/// report's counters and findings.
struct Job {
    worker: Worker,
    report: SearchReport,
}

impl Job {
    fn new(job: usize, template: &SearchReport, seed: u64) -> Job {
        let mut worker = Worker::new(stream_seed(seed, job));
        worker.corpus.sharing = true;
        Job {
            worker,
            report: template.clone(),
        }
    }

    /// Applies `sync`, runs the round, and says what it did.
    fn round(&mut self, sync: Sync, shared: &Shared, probe: &mut Probe) -> Round {
        for (entry, features) in &sync.offers {
            self.worker.corpus.offer(entry, features);
        }
        for sig in sync.done {
            self.worker
                .signatures
                .insert(sig, super::SIGNATURE_ATTEMPTS);
        }
        self.report.findings = sync.findings;
        let before = self.report.clone();
        let found_from = self.report.findings.len();
        self.worker.run(
            shared.seeds,
            shared.known,
            probe,
            shared.clock,
            shared.options,
            &mut self.report,
            Some(sync.limit),
        );
        let confirmed = std::mem::take(&mut self.worker.confirmed);
        Round {
            tried: self.report.mutants_tried - before.mutants_tried,
            failing: self.report.mutants_failing - before.mutants_failing,
            faulting: self.report.mutants_faulting - before.mutants_faulting,
            unconfirmed: self.report.unconfirmed - before.unconfirmed,
            found: self.report.findings[found_from..]
                .iter()
                .cloned()
                .zip(confirmed)
                .collect(),
            fresh: self.worker.corpus.take_fresh(),
            answered: probe.answered,
            errors: probe.errors,
            first_error: probe.first_error.clone(),
            given_up: probe.given_up.clone(),
            ran: true,
            stacks: BTreeMap::new(),
        }
    }
}

/// Runs the jobs as the module says; `probe` is job 0's (the calling
/// thread's) target, and `report` receives the merged result.
pub(super) fn explore(
    shared: &Shared,
    jobs: &Jobs,
    start: &[super::CorpusEntry],
    probe: &mut Probe,
    report: &mut SearchReport,
) {
    let template = report.clone();
    std::thread::scope(|scope| {
        let mut links = Vec::new();
        for job in 1..jobs.jobs {
            let (to_job, from_main) = mpsc::channel::<Sync>();
            let (to_main, from_job) = mpsc::channel::<Round>();
            let template = &template;
            // The benign structure, layouts and parts are the framing's,
            // learned once by job 0.
            let benign = probe.benign();
            let (profile, level) = (probe.profile, probe.level);
            scope.spawn(move || {
                let mut framing = match (jobs.connect)() {
                    Ok(framing) => parts::view(framing, benign.parts.as_ref()),
                    // Said in answer to the first sync, as a round, so the
                    // coordinator reads it whatever the threads' timing.
                    Err(reason) => {
                        if from_main.recv().is_ok() {
                            let _ = to_main.send(Round {
                                given_up: Some(format!("job {job}: {reason}")),
                                ..Round::default()
                            });
                        }
                        return;
                    }
                };
                let earlier = nonce_ops::earlier_frame(profile, framing.as_mut());
                let mut probe = Probe::new(profile, framing, level, earlier, benign);
                let mut state = Job::new(job, template, shared.options.seed);
                while let Ok(sync) = from_main.recv() {
                    if sync.limit == 0 {
                        break;
                    }
                    if to_main.send(state.round(sync, shared, &mut probe)).is_err() {
                        return;
                    }
                }
                let _ = to_main.send(Round {
                    stacks: state.worker.stacks,
                    ..Round::default()
                });
            });
            links.push((to_job, from_job));
        }
        // Job 0 judges the saved corpus; what it keeps reaches the other
        // jobs at the first sync, as its own finds do.
        let mut first = Job::new(0, &template, shared.options.seed);
        first.worker.prime(shared.seeds, start, probe);
        coordinate(shared, jobs.jobs, &mut first, probe, &links, report);
        for (to_job, _) in &links {
            let _ = to_job.send(Sync::end());
        }
        let mut stacks = std::mem::take(&mut first.worker.stacks);
        for (_, from_job) in &links {
            for (key, n) in from_job.recv().map(|r| r.stacks).unwrap_or_default() {
                *stacks.entry(key).or_default() += n;
            }
        }
        report.trick_stacks = super::propose::tally(stacks, &report.findings);
        report.corpus = first.worker.export(shared.seeds);
        report.corpus_size = first.worker.corpus.len();
        report.features_seen = first.worker.corpus.features();
    });
}

impl Sync {
    fn end() -> Sync {
        Sync {
            limit: 0,
            offers: Vec::new(),
            findings: Vec::new(),
            done: Vec::new(),
        }
    }
}

type Link = (mpsc::Sender<Sync>, mpsc::Receiver<Round>);

/// The rounds: send each job its sync, run job 0 here, merge in job order,
/// until the budget is spent, the clock runs out, enough findings are
/// confirmed or a target is given up.
fn coordinate(
    shared: &Shared,
    jobs: usize,
    first: &mut Job,
    probe: &mut Probe,
    links: &[Link],
    report: &mut SearchReport,
) {
    let quotas = quotas(shared.options.budget, jobs);
    let mut tried = vec![0u64; jobs];
    let mut done: BTreeSet<String> = BTreeSet::new();
    let mut offers: Vec<Vec<(Entry, Vec<Feature>)>> = vec![Vec::new(); jobs];
    let mut totals = vec![(0u64, 0u64); jobs];
    loop {
        let limits: Vec<u64> = (0..jobs)
            .map(|j| quotas[j].map_or(ROUND, |q| (q - tried[j]).min(ROUND)))
            .collect();
        if limits.iter().all(|&l| l == 0)
            || shared.clock.out_of_time()
            || report.findings.len() >= shared.options.max_findings
            || probe.given_up.is_some()
        {
            break;
        }
        let sync = |j: usize, offers: &mut Vec<Vec<(Entry, Vec<Feature>)>>| Sync {
            // Only a job with mutants left gets a sync (a limit of 0 ends it).
            limit: limits[j],
            offers: std::mem::take(&mut offers[j]),
            findings: report.findings.clone(),
            done: done.iter().cloned().collect(),
        };
        let mut sent = Vec::new();
        for (j, (to_job, _)) in links.iter().enumerate() {
            sent.push(limits[j + 1] > 0 && to_job.send(sync(j + 1, &mut offers)).is_ok());
        }
        let mut rounds = Vec::with_capacity(jobs);
        rounds.push(if limits[0] > 0 {
            first.round(sync(0, &mut offers), shared, probe)
        } else {
            Round::default()
        });
        for ((_, from_job), sent) in links.iter().zip(sent) {
            rounds.push(if sent {
                from_job.recv().unwrap_or_else(|_| Round {
                    given_up: Some("a search job stopped unexpectedly".into()),
                    ..Round::default()
                })
            } else {
                Round::default()
            });
        }
        let progressed = rounds.iter().any(|r| r.tried > 0);
        merge(
            rounds,
            &mut tried,
            &mut totals,
            &mut done,
            &mut offers,
            probe,
            report,
            shared,
        );
        if !progressed {
            break;
        }
    }
    // Job 0's calls are the probe's own; the others' are added once.
    for (answered, errors) in &totals[1..] {
        probe.answered += answered;
        probe.errors += errors;
    }
}

/// Mutants each job may try in all, for a budget in mutants.
fn quotas(budget: Budget, jobs: usize) -> Vec<Option<u64>> {
    (0..jobs as u64)
        .map(|j| match budget {
            Budget::Cases(total) => Some(total / jobs as u64 + u64::from(j < total % jobs as u64)),
            Budget::Time(_) => None,
        })
        .collect()
}

/// Merges one round's results in job order (see the module documentation);
/// `totals` keeps each job's target's answered and failed calls so far.
#[allow(clippy::too_many_arguments)]
fn merge(
    rounds: Vec<Round>,
    tried: &mut [u64],
    totals: &mut [(u64, u64)],
    done: &mut BTreeSet<String>,
    offers: &mut [Vec<(Entry, Vec<Feature>)>],
    probe: &mut Probe,
    report: &mut SearchReport,
    shared: &Shared,
) {
    for (j, round) in rounds.into_iter().enumerate() {
        tried[j] += round.tried;
        report.mutants_tried += round.tried;
        report.mutants_failing += round.failing;
        report.mutants_faulting += round.faulting;
        report.unconfirmed += round.unconfirmed;
        for (finding, sig) in round.found {
            let duplicate =
                done.contains(&sig) || report.findings.iter().any(|f| f.id == finding.id);
            if !duplicate && report.findings.len() < shared.options.max_findings {
                done.insert(sig);
                report.findings.push(finding);
            }
        }
        for (k, offer) in offers.iter_mut().enumerate() {
            if k != j {
                offer.extend(round.fresh.iter().cloned());
            }
        }
        if j > 0 && round.ran {
            totals[j] = (round.answered, round.errors);
            if probe.first_error.is_none() {
                probe.first_error = round.first_error;
            }
        }
        if probe.given_up.is_none() {
            probe.given_up = round.given_up;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quotas_split_a_budget_in_mutants_exactly() {
        let q = quotas(Budget::Cases(1001), 2);
        assert_eq!(q, vec![Some(501), Some(500)]);
        assert_eq!(quotas(Budget::Cases(3), 4).iter().flatten().sum::<u64>(), 3);
    }

    #[test]
    fn every_job_has_its_own_stream() {
        let seeds: BTreeSet<u64> = (0..8).map(|j| stream_seed(1, j)).collect();
        assert_eq!(seeds.len(), 8);
        assert_eq!(stream_seed(7, 0), 7);
        assert_eq!(stream_seed(7, 3), stream_seed(7, 3));
    }
}
