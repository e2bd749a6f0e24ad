//! How long a mutant may grow (issue 37), in the manner of libFuzzer's
//! length control, with one way past it.
//!
//! Judging costs time in proportion to the framed text, and a lineage that
//! grows by accident (a delimiter duplicated, a field nested, a stacked
//! `padding` trick, then again on the grown entry) makes every later mutant
//! slower without making it better. So a mutant may carry at most an
//! *allowance* of bytes more than the seed case it grew from; the
//! allowance starts at 1 KiB and doubles whenever 256 mutants in a row
//! added nothing to the corpus, so a search that has exhausted short
//! inputs tries longer ones, up to 16 KiB (the largest padding), as
//! libFuzzer's grows up to its `-max_len`. Without that bound a corpus
//! that stays quiet, as a good framing's does, doubled it every 256
//! mutants without end, and long searches spent most of their grow
//! attempts on mutants refused as too long (BENCHMARKS.md, issue 37).
//!
//! Seed cases are drawn with the same care: the built-in catalogue's cases
//! range from a few dozen bytes to one of 164 KB, and each mutant of that
//! one cost as much to judge and fold as two hundred others. A seed case no
//! longer than the average is drawn as often as any; a longer one is kept
//! with odds of the average over its length, so it still gets mutants but
//! costs in all about as much as an average one (AFL's score likewise
//! gives an entry energy inversely to its execution time; measured in
//! BENCHMARKS.md, issue 37).
//!
//! Some defects need long input (a framing that checks only its first few
//! kilobytes, a check that gives up past a size). Length is therefore a
//! mutation of its own: [`pad`] inserts 2^k bytes (k from 5 to 14) of
//! ordinary lines at a line start. On a seed
//! case's first step the padding is *granted*: it does not count against
//! the allowance, so one step reaches a long input, and a lineage gets one
//! such jump (padding on a grown entry counts like any other growth).

use std::cell::OnceCell;

use super::mutate::{floor_boundary, SplitMix64};
use crate::adapter::WrapRequest;
use framecheck_core::catalogue::ConcreteCase;

/// The allowance a search starts with, in bytes past the seed case.
pub(super) const FIRST_ALLOWANCE: usize = 1024;

/// The most the allowance grows to: the largest padding. Longer input is
/// the padding's job (one granted jump per lineage).
const MAX_ALLOWANCE: usize = 1 << PAD_BITS.1;

/// Mutants in a row that keep nothing before the allowance doubles.
const DRY_SPELL: u32 = 256;

/// Smallest and largest padding, as powers of two.
const PAD_BITS: (usize, usize) = (5, 14);

/// The ordinary text padding repeats.
const FILLER_LINE: &str = "An ordinary line of text that the framing should carry as it is.\n";

/// One stream's length control. See the module documentation.
#[derive(Debug, Clone)]
pub(super) struct LengthControl {
    allowance: usize,
    dry: u32,
    /// The seed cases' average input length, taken on the first draw.
    mean_seed: OnceCell<usize>,
}

impl Default for LengthControl {
    fn default() -> Self {
        LengthControl {
            allowance: FIRST_ALLOWANCE,
            dry: 0,
            mean_seed: OnceCell::new(),
        }
    }
}

impl LengthControl {
    /// The index of the seed case a fresh lineage starts from (see the
    /// module documentation). `seeds` is the same list on every call.
    pub(super) fn draw_seed(&self, seeds: &[&ConcreteCase], rng: &mut SplitMix64) -> usize {
        let mean = *self.mean_seed.get_or_init(|| {
            let total: usize = seeds.iter().map(|s| super::input_len(s)).sum();
            total / seeds.len().max(1)
        });
        draw(seeds.len(), |at| super::input_len(seeds[at]), mean, rng)
    }

    /// Whether a mutant of `len` bytes may be tried: at most the seed
    /// case's `seed_len`, the lineage's `granted` padding and the
    /// allowance.
    pub(super) fn admits(&self, len: usize, seed_len: usize, granted: usize) -> bool {
        len <= seed_len + granted + self.allowance
    }

    /// Counts a judged mutant; `kept` is whether the corpus took it.
    pub(super) fn judged(&mut self, kept: bool) {
        if kept {
            self.dry = 0;
            return;
        }
        self.dry += 1;
        if self.dry >= DRY_SPELL {
            self.dry = 0;
            self.allowance = (self.allowance * 2).min(MAX_ALLOWANCE);
        }
    }

    /// The current allowance, in bytes.
    #[cfg(test)]
    pub(super) fn allowance(&self) -> usize {
        self.allowance
    }
}

/// An index below `count`, each alike except that one whose `len` exceeds
/// `mean` is kept with odds `mean / len` (else another is drawn).
fn draw(count: usize, len: impl Fn(usize) -> usize, mean: usize, rng: &mut SplitMix64) -> usize {
    let mean = mean.max(1);
    loop {
        let at = rng.below(count);
        let len = len(at);
        if len <= mean || rng.below(len) < mean {
            return at;
        }
    }
}

/// Pads one field of `request` (the content three times in four) with
/// 2^k bytes of ordinary lines, k from 5 to 14, at a line start or at its
/// end. Returns the bytes added.
///
/// Ordinary lines, not the field's own text: repeating a field that holds
/// delimiters writes many of them, which is the duplicating operators'
/// job, and in a measurement it filled the corpus with entries new only in
/// their count of delimiters (BENCHMARKS.md, issue 37).
pub(super) fn pad(request: &mut WrapRequest, rng: &mut SplitMix64) -> usize {
    let mut fields = super::fields_mut(request);
    let field = if rng.below(4) == 0 {
        rng.below(fields.len())
    } else {
        0
    };
    let text = &mut *fields[field];
    let size = 1usize << (PAD_BITS.0 + rng.below(PAD_BITS.1 - PAD_BITS.0 + 1));
    let padding = repeated(FILLER_LINE, size);
    let starts: Vec<usize> = std::iter::once(0)
        .chain(text.match_indices('\n').map(|(i, _)| i + 1))
        .chain(std::iter::once(text.len()))
        .collect();
    let at = starts[rng.below(starts.len())];
    text.insert_str(at, &padding);
    padding.len()
}

/// `source` repeated to `size` bytes, cut at a character boundary.
fn repeated(source: &str, size: usize) -> String {
    let mut out = source.repeat(size / source.len() + 1);
    out.truncate(floor_boundary(&out, size));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::search::test_request as request;

    #[test]
    fn the_allowance_doubles_after_a_dry_spell_and_a_keep_resets_it() {
        let mut control = LengthControl::default();
        assert!(control.admits(100 + FIRST_ALLOWANCE, 100, 0));
        assert!(!control.admits(101 + FIRST_ALLOWANCE, 100, 0));
        // Granted padding is not counted.
        assert!(control.admits(100 + FIRST_ALLOWANCE + 4096, 100, 4096));
        assert!(!control.admits(101 + FIRST_ALLOWANCE + 4096, 100, 4096));
        for _ in 0..DRY_SPELL - 1 {
            control.judged(false);
        }
        control.judged(true);
        for _ in 0..DRY_SPELL - 1 {
            control.judged(false);
        }
        assert_eq!(
            control.allowance(),
            FIRST_ALLOWANCE,
            "a keep restarts the spell"
        );
        control.judged(false);
        assert_eq!(control.allowance(), 2 * FIRST_ALLOWANCE);
        assert!(control.admits(100 + 2 * FIRST_ALLOWANCE, 100, 0));
        // It stops at the largest padding.
        for _ in 0..64 * DRY_SPELL {
            control.judged(false);
        }
        assert_eq!(control.allowance(), MAX_ALLOWANCE);
    }

    #[test]
    fn a_seed_longer_than_the_average_is_drawn_in_inverse_proportion_to_its_length() {
        // Three short seeds and one of 12,000 bytes: the average is 3,030,
        // so the long one is kept about a quarter of the times it is drawn.
        let lens = [40, 40, 40, 12_000];
        let mean = lens.iter().sum::<usize>() / lens.len();
        let mut rng = SplitMix64(5);
        let mut drawn = [0u32; 4];
        for _ in 0..20_000 {
            drawn[draw(lens.len(), |at| lens[at], mean, &mut rng)] += 1;
        }
        // Expected: 1/4 against 1 for each short one, so 1/13 of draws.
        let share = f64::from(drawn[3]) / 20_000.0;
        assert!((0.06..0.095).contains(&share), "{drawn:?}");
        for short in &drawn[..3] {
            assert!((5_800..6_500).contains(short), "{drawn:?}");
        }
        // Seeds no longer than the average are drawn alike.
        let mut rng = SplitMix64(5);
        let mut alike = [0u32; 3];
        for _ in 0..9_000 {
            alike[draw(3, |_| 0, 0, &mut rng)] += 1;
        }
        assert!(
            alike.iter().all(|n| (2_800..3_200).contains(n)),
            "{alike:?}"
        );
    }

    #[test]
    fn padding_is_a_power_of_two_at_a_line_start_and_reaches_every_size() {
        let mut rng = SplitMix64(7);
        let mut sizes = std::collections::BTreeSet::new();
        for _ in 0..2_000 {
            let original = "first line\nsecond é line\n<tag>";
            let mut r = request(original);
            let added = pad(&mut r, &mut rng);
            let grown = r.input_len() - request(original).input_len();
            assert_eq!(grown, added);
            sizes.insert(added.next_power_of_two().trailing_zeros());
            // One field grew; the others are as they were.
            let plain = request(original);
            let changed = [
                r.content != plain.content,
                r.provenance != plain.provenance,
                r.kind != plain.kind,
            ];
            assert_eq!(changed.iter().filter(|c| **c).count(), 1, "{r:?}");
            if r.content != original {
                // Taking the `added` bytes out at some line start (or the
                // end) gives the original back.
                let starts = std::iter::once(0)
                    .chain(original.match_indices('\n').map(|(i, _)| i + 1))
                    .chain(std::iter::once(original.len()));
                let restores = |at: usize| {
                    r.content.is_char_boundary(at + added)
                        && format!("{}{}", &r.content[..at], &r.content[at + added..]) == original
                };
                assert!(starts.into_iter().any(restores), "{:?}", r.content);
            }
        }
        let expected: std::collections::BTreeSet<u32> =
            (PAD_BITS.0 as u32..=PAD_BITS.1 as u32).collect();
        assert_eq!(sizes, expected, "every power of two, nothing else");
    }
}
