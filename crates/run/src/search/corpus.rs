//! The search's memory: mutants whose framed output was new in some way,
//! kept to be mutated further, in the manner of libFuzzer's corpus but with
//! a black-box signal read from the output instead of code coverage.
//!
//! A mutant's [`Feature`]s are what the framing did with it, as seen from
//! outside:
//!
//! - which checks came close: every finding the oracle made, security or
//!   fidelity, at every level, even one that does not count as a failure
//!   (a finding only at `exact` on a `unicode` search, a fidelity change);
//! - which delimiter spellings the framing rewrote and which it left: for a
//!   stacked mutant, whether the respelled span survives in the output,
//!   per trick in the stack;
//! - how many live delimiters each reader level sees in the output, the
//!   framing's own constant text not counted, as the oracle's readers
//!   counted them (bucketed);
//! - output-length anomalies: the output's length minus the input's, in
//!   power-of-two buckets (a framing that drops, expands or truncates);
//! - the header's shape: the output's lines before the first blank line,
//!   each reduced to the class of its first character, so a line break or
//!   a field moved to a line of its own shows as a new shape and the text
//!   within a line does not.
//!
//! A mutant with a feature never seen before joins the corpus (capped;
//! when full, the entry picked most often is replaced), and one with
//! exactly a kept entry's features and a smaller input takes that entry's
//! place (libFuzzer's corpus reduction: the same signal, less to judge).
//! The scheduler is a coin from the seeded stream: half of the mutants
//! grow from a corpus entry, half from a catalogue seed case, so the search
//! neither forgets the catalogue nor stops following what was new. The
//! entry is the smaller of two drawn at random, as AFL favours its small
//! entries: the time a mutant takes to judge grows with its input, so
//! each mutant of an entry many times as long as another costs many times
//! as much; the longest entry is still drawn now and then (when both draws
//! fall on it). Every choice comes from the one SplitMix64 stream,
//! so a seed replays the same search.

use std::collections::{HashMap, HashSet};

use sha2::{Digest, Sha256};

use super::mutate::{Operator, SplitMix64};
use super::stack::{Stacked, Trick};
use crate::adapter::WrapRequest;
use framecheck_core::grammar::{Grammar, NonceAlphabet};
use framecheck_core::level::ReaderLevel;
use framecheck_core::oracle::{Check, CheckClass, Finding};
use framecheck_core::reader::Reader;
use framecheck_launch::profile::TargetProfile;

/// Most entries the corpus keeps.
const CAPACITY: usize = 512;

/// One observation about a framed output. See the module documentation.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub(super) enum Feature {
    /// A check that found something, its class and the levels it did at.
    Check(Check, CheckClass, Vec<ReaderLevel>),
    /// A stacked spelling with this trick survived (true) or not.
    Spelling(Trick, bool),
    /// Live delimiters a level sees in the output, log2-bucketed.
    Live(ReaderLevel, u32),
    /// Output length minus input length, sign and log2 bucket.
    LengthDelta(bool, u32),
    /// The header's shape, as the first 8 bytes of its SHA-256 (a stable
    /// hash, so a seed replays the same search on any toolchain).
    HeaderShape(u64),
    /// The target refused the mutant.
    Refused,
}

/// What came back for one mutant.
pub(super) enum Outcome<'a> {
    /// The framed output, every finding the oracle made on it, and the
    /// live delimiters each reader level counted (empty when none looked).
    Framed(&'a str, &'a [Finding], &'a [(ReaderLevel, usize)]),
    /// A refusal.
    Refused,
}

/// A kept mutant: the seed case it grew from and its lineage.
#[derive(Debug, Clone)]
pub(super) struct Entry {
    /// Index of the seed case in the search's seed list.
    pub seed: usize,
    /// The mutated request.
    pub request: WrapRequest,
    /// Every operator applied since the seed case, in order.
    pub operators: Vec<Operator>,
    /// Every trick stacked since the seed case, in order.
    pub tricks: Vec<Trick>,
    /// Bytes of padding the lineage was granted past the length allowance
    /// (module `length`).
    pub granted: usize,
    picked: u32,
}

/// The corpus and the features seen so far.
#[derive(Debug, Default)]
pub(super) struct Corpus {
    entries: Vec<Entry>,
    /// The features each entry showed, by entry, and the entry that shows
    /// each feature set: a smaller input with the same features takes its
    /// place.
    shown: Vec<Vec<Feature>>,
    by_features: HashMap<Vec<Feature>, usize>,
    /// Entries kept or replaced so far.
    changes: u64,
    seen: HashSet<Feature>,
    /// Set by a search with several jobs: entries this replica keeps from
    /// its own mutants are also recorded in `fresh`, to be offered to the
    /// other jobs' replicas at the next sync (module `parallel`).
    pub(super) sharing: bool,
    fresh: Vec<(Entry, Vec<Feature>)>,
    /// The profile's grammar, built on the first observation instead of
    /// for every mutant.
    grammar: Option<std::sync::Arc<dyn Grammar>>,
}

impl Corpus {
    /// Entries kept.
    pub(super) fn len(&self) -> usize {
        self.entries.len()
    }

    /// The entries kept, in the order they were kept.
    pub(super) fn entries(&self) -> &[Entry] {
        &self.entries
    }

    /// Distinct features seen.
    pub(super) fn features(&self) -> usize {
        self.seen.len()
    }

    /// The entry to grow the next mutant from, or `None` to start from a
    /// catalogue seed case (half the time, and always while empty).
    pub(super) fn pick(&mut self, rng: &mut SplitMix64) -> Option<Entry> {
        if self.entries.is_empty() || rng.below(2) == 0 {
            return None;
        }
        let a = rng.below(self.entries.len());
        let b = rng.below(self.entries.len());
        let len = |at: usize| self.entries[at].request.input_len();
        let at = if len(b) < len(a) { b } else { a };
        self.entries[at].picked += 1;
        Some(self.entries[at].clone())
    }

    /// Records the features of a mutant's outcome; keeps the mutant when
    /// one of them is new, or when it shows exactly a kept entry's
    /// features with a smaller input (it replaces that entry, as
    /// libFuzzer's corpus reduction does). Returns whether it was kept.
    pub(super) fn observe(
        &mut self,
        profile: &TargetProfile,
        entry: &Entry,
        stacked: &[Stacked],
        outcome: Outcome<'_>,
    ) -> bool {
        let grammar = self.grammar.get_or_insert_with(|| profile.grammar());
        let nonce = profile.delimiters.nonce.as_ref().map(|n| n.alphabet);
        let features = features(&**grammar, nonce, &entry.request, stacked, outcome);
        if !self.take(entry, &features) {
            return false;
        }
        if self.sharing {
            self.fresh.push((entry.clone(), features));
        }
        true
    }

    /// Entries kept or replaced so far: a change means the last mutant
    /// added something.
    pub(super) fn changes(&self) -> u64 {
        self.changes
    }

    /// Keeps `entry` for a new feature, or in place of a larger entry with
    /// exactly its features; whether it did.
    fn take(&mut self, entry: &Entry, features: &[Feature]) -> bool {
        if self.learn(features) {
            self.keep(entry.clone(), features.to_vec());
            return true;
        }
        let Some(&at) = self.by_features.get(features) else {
            return false;
        };
        if entry.request.input_len() >= self.entries[at].request.input_len() {
            return false;
        }
        let picked = self.entries[at].picked;
        self.entries[at] = Entry {
            picked,
            ..entry.clone()
        };
        self.changes += 1;
        true
    }

    /// Records `features`; whether one of them was new. Only a new feature
    /// is cloned, so the common case (nothing new) allocates nothing.
    fn learn(&mut self, features: &[Feature]) -> bool {
        let mut new = false;
        for feature in features {
            if !self.seen.contains(feature) {
                self.seen.insert(feature.clone());
                new = true;
            }
        }
        new
    }

    /// An entry another job kept, with the features it showed: kept here
    /// too by the same rule as [`Corpus::observe`].
    pub(super) fn offer(&mut self, entry: &Entry, features: &[Feature]) {
        self.take(entry, features);
    }

    /// The entries kept from this replica's own mutants since the last call.
    pub(super) fn take_fresh(&mut self) -> Vec<(Entry, Vec<Feature>)> {
        std::mem::take(&mut self.fresh)
    }

    fn keep(&mut self, entry: Entry, features: Vec<Feature>) {
        let entry = Entry { picked: 0, ..entry };
        self.changes += 1;
        let at = if self.entries.len() < CAPACITY {
            self.entries.push(entry);
            self.shown.push(Vec::new());
            self.entries.len() - 1
        } else {
            let Some(worn) = (0..self.entries.len()).max_by_key(|&i| self.entries[i].picked) else {
                return;
            };
            self.entries[worn] = entry;
            worn
        };
        let old = std::mem::replace(&mut self.shown[at], features.clone());
        if self.by_features.get(&old) == Some(&at) {
            self.by_features.remove(&old);
        }
        self.by_features.insert(features, at);
    }
}

impl Entry {
    /// A fresh lineage from seed case `seed`.
    pub(super) fn from_seed(seed: usize, request: WrapRequest) -> Entry {
        Entry {
            seed,
            request,
            operators: Vec::new(),
            tricks: Vec::new(),
            granted: 0,
            picked: 0,
        }
    }

    /// Times the corpus handed this entry out: 0 for a fresh lineage from
    /// a seed case, so a test can tell a corpus entry's descendant from a
    /// seed's mutant that happens to apply the same first operators.
    #[cfg(test)]
    pub(super) fn picked(&self) -> u32 {
        self.picked
    }
}

fn log2_bucket(n: usize) -> u32 {
    usize::BITS - n.leading_zeros()
}

/// The features of one outcome. See the module documentation.
fn features(
    grammar: &dyn Grammar,
    nonce: Option<NonceAlphabet>,
    request: &WrapRequest,
    stacked: &[Stacked],
    outcome: Outcome<'_>,
) -> Vec<Feature> {
    let (framed, findings, live) = match outcome {
        Outcome::Refused => return vec![Feature::Refused],
        Outcome::Framed(framed, findings, live) => (framed, findings, live),
    };
    let mut out: Vec<Feature> = findings
        .iter()
        .map(|f| Feature::Check(f.check, f.class, f.levels.clone()))
        .collect();
    for s in stacked {
        let kept = framed.contains(&s.spelling);
        out.extend(s.tricks.iter().map(|t| Feature::Spelling(*t, kept)));
    }
    // The oracle's own count when its readers looked (folding the text
    // again was a tenth of a mutant's cost, issue 37); otherwise counted
    // here.
    if live.is_empty() {
        for reader in Reader::all() {
            let live = grammar.live(&reader.fold(framed)).len();
            out.push(Feature::Live(reader.level(), log2_bucket(live)));
        }
    }
    out.extend(
        live.iter()
            .map(|&(level, n)| Feature::Live(level, log2_bucket(n))),
    );
    let input = request.input_len();
    out.push(Feature::LengthDelta(
        framed.len() >= input,
        log2_bucket(framed.len().abs_diff(input)),
    ));
    out.push(header_shape(framed, nonce));
    out
}

/// The shape of the text before the first blank line: one class character
/// per line, the class of the line's first character (a letter, a digit, a
/// character of the profile's nonce alphabet, or the character itself).
///
/// Only the start of a line: a framing that writes an attacker's field into
/// its header (the reference's provenance line, rewritten) made every new
/// field value a new shape when the whole text was classed, so the corpus
/// kept 45 % of all mutants for their header alone and became a queue of
/// the latest ones (BENCHMARKS.md, issue 37). Attacker text changes this
/// shape only by breaking a line, which is what the shape is for. A line
/// that starts with a fresh nonce is one class whatever its first
/// character.
fn header_shape(framed: &str, nonce: Option<NonceAlphabet>) -> Feature {
    let header = framed.split("\n\n").next().unwrap_or(framed);
    let mut shape = String::new();
    for line in header.split('\n') {
        shape.push(match line.chars().next() {
            Some(c) if nonce.is_some_and(|n| n.contains(c)) => 'n',
            Some(c) if c.is_alphabetic() => 'a',
            Some(c) if c.is_numeric() => '0',
            Some(c) => c,
            None => ' ',
        });
    }
    let digest = Sha256::digest(shape.as_bytes());
    let mut first = [0u8; 8];
    first.copy_from_slice(&digest[..8]);
    Feature::HeaderShape(u64::from_le_bytes(first))
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::search::test_request as request;

    #[test]
    fn only_new_features_keep_a_mutant() {
        let profile = framecheck_envelope::reference_profile();
        let mut corpus = Corpus::default();
        let entry = |c: &str| Entry::from_seed(0, request(c));
        let framed =
            "<framecheck-untrusted kind=\"k\">\nProvenance: p\n\nhello\n</framecheck-untrusted>";
        assert!(corpus.observe(
            &profile,
            &entry("hello"),
            &[],
            Outcome::Framed(framed, &[], &[])
        ));
        // The same output again is nothing new.
        assert!(!corpus.observe(
            &profile,
            &entry("hello"),
            &[],
            Outcome::Framed(framed, &[], &[])
        ));
        // A header with another line is a new shape.
        let two_lines = framed.replace("Provenance: p\n", "Provenance: p\nx: y\n");
        assert!(corpus.observe(
            &profile,
            &entry("hello"),
            &[],
            Outcome::Framed(&two_lines, &[], &[])
        ));
        // A stacked spelling the framing left alone is new; rewritten, too.
        let stacked = [Stacked {
            tricks: vec![Trick::Fullwidth, Trick::ZeroWidth],
            spelling: "hello".into(),
        }];
        assert!(corpus.observe(
            &profile,
            &entry("hello"),
            &stacked,
            Outcome::Framed(framed, &[], &[])
        ));
        let rewritten = framed.replace("hello", "HELLO");
        assert!(corpus.observe(
            &profile,
            &entry("hello"),
            &stacked,
            Outcome::Framed(&rewritten, &[], &[])
        ));
        assert_eq!(corpus.len(), 4);
    }

    #[test]
    fn a_fresh_nonce_is_the_same_header_shape() {
        // A header line that starts with the frame's nonce.
        let frame = |nonce: &str| format!("<tag kind=\"k\">\n{nonce}: p\n\nbody\n</tag>");
        let (a, b) = (frame("3f0a9c1e77d2b4a8"), frame("c3e1990ab7f4d2e8"));
        for alphabet in [
            NonceAlphabet::Hex,
            NonceAlphabet::Alnum,
            NonceAlphabet::Base64url,
        ] {
            assert_eq!(
                header_shape(&a, Some(alphabet)),
                header_shape(&b, Some(alphabet))
            );
        }
        // Without it, a digit and a letter are two classes.
        assert_ne!(header_shape(&a, None), header_shape(&b, None));
        // A line more in the header is still a new shape.
        let more = a.replace("\n\n", "\nx: y\n\n");
        assert_ne!(
            header_shape(&a, Some(NonceAlphabet::Hex)),
            header_shape(&more, Some(NonceAlphabet::Hex))
        );
    }

    #[test]
    fn a_header_changes_shape_only_where_a_line_breaks_or_starts() {
        let frame =
            |provenance: &str| format!("<tag kind=\"k\">\nSource: {provenance}\n\nbody\n</tag>");
        let shape = |provenance: &str| header_shape(&frame(provenance), None);
        // What an attacker writes within the provenance line, rewritten or
        // not, is the same shape.
        for text in ["p", "a-b-c 123", "<\u{FF0F}tag>", "x\u{200B}y ;; \"z\""] {
            assert_eq!(shape(text), shape("p"), "{text:?}");
        }
        // A line break in it is a new shape, and so is a line that starts
        // with something else.
        assert_ne!(shape("p\nmore"), shape("p"));
        assert_ne!(shape("p\n<tag>"), shape("p\nmore"));
        assert_ne!(shape("p\n9 lives"), shape("p\nmore"));
        // The body is not the header.
        assert_eq!(
            header_shape(&frame("p").replace("body", "body\nmore"), None),
            shape("p")
        );
    }

    #[test]
    fn a_smaller_input_with_the_same_features_replaces_an_entry() {
        let profile = framecheck_envelope::reference_profile();
        let mut corpus = Corpus::default();
        let framed = |c: &str| {
            format!(
                "<framecheck-untrusted kind=\"k\">\nProvenance: p\n\n{c}\n</framecheck-untrusted>"
            )
        };
        let seen = |corpus: &mut Corpus, content: &str, output: &str| {
            let entry = Entry::from_seed(0, request(content));
            corpus.observe(&profile, &entry, &[], Outcome::Framed(output, &[], &[]))
        };
        // Same output and so the same features (the length delta is
        // bucketed: 3 and 2 bytes more fall in one bucket).
        assert!(seen(&mut corpus, "long", &framed("long")));
        let changes = corpus.changes();
        assert!(
            !seen(&mut corpus, "longer", &framed("longer")),
            "larger: kept out"
        );
        assert!(
            seen(&mut corpus, "lo", &framed("long")),
            "smaller: replaces"
        );
        assert_eq!(corpus.len(), 1);
        assert_eq!(corpus.entries()[0].request.content, "lo");
        assert_eq!(corpus.changes(), changes + 1);
        // The same size again changes nothing.
        assert!(!seen(&mut corpus, "ab", &framed("long")));
        assert_eq!(corpus.entries()[0].request.content, "lo");
    }

    #[test]
    fn the_scheduler_is_deterministic_and_uses_both_sources() {
        let profile = framecheck_envelope::reference_profile();
        let mut corpus = Corpus::default();
        for (i, framed) in ["a", "ab\n\nx", "a1\n\nx"].iter().enumerate() {
            corpus.observe(
                &profile,
                &Entry::from_seed(i, request("x")),
                &[],
                Outcome::Framed(framed, &[], &[]),
            );
        }
        let picks = |seed| {
            let mut rng = SplitMix64(seed);
            (0..50)
                .map(|_| corpus_clone(&corpus).pick(&mut rng).map(|e| e.seed))
                .collect::<Vec<_>>()
        };
        assert_eq!(picks(5), picks(5));
        let p = picks(5);
        assert!(p.contains(&None) && p.iter().any(Option::is_some));
    }

    #[test]
    fn the_smaller_of_two_entries_is_picked_more_often_and_the_larger_still_is() {
        let profile = framecheck_envelope::reference_profile();
        let mut corpus = Corpus::default();
        for (content, framed) in [("x".repeat(4000), "a"), ("y".into(), "b\n\nx")] {
            let entry = Entry::from_seed(0, request(&content));
            assert!(corpus.observe(&profile, &entry, &[], Outcome::Framed(framed, &[], &[])));
        }
        let mut rng = SplitMix64(11);
        let (mut small, mut large) = (0, 0);
        for _ in 0..4_000 {
            match corpus.pick(&mut rng).map(|e| e.request.content.len()) {
                Some(1) => small += 1,
                Some(_) => large += 1,
                None => {}
            }
        }
        // Three draws in four hold the small one, one in four is two large.
        assert!(small > 2 * large, "{small} against {large}");
        assert!(large > small / 5, "{small} against {large}");
    }

    fn corpus_clone(c: &Corpus) -> Corpus {
        Corpus {
            entries: c.entries.clone(),
            seen: c.seen.clone(),
            ..Corpus::default()
        }
    }
}
