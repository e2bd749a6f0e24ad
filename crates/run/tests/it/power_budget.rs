//! The seeds and mutant budgets `search_power` states its claims at, in a
//! file of their own so that the root crate's `readme_numbers` (which checks
//! what README says about them) includes the same constants instead of
//! repeating them.

/// The seeds every search claim here is made at.
pub(crate) const SEEDS: [u64; 5] = [1, 2, 3, 4, 5];
/// Mutants a search over a correct framing tries, finding nothing.
pub(crate) const BUDGET: u64 = 500;

/// The mutant budget to find each blind defect. The bound is 60 s
/// at each seed; 5,000 mutants take a few seconds in release (the search
/// stops at its first confirmed finding, so easy defects cost far less).
pub(crate) const FIND_BUDGET: u64 = 5_000;
