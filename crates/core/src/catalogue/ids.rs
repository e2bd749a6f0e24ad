//! The id lock: every published concrete case id and variant name, so a
//! rename cannot silently break the baselines that match cases by id.
//!
//! `attacks/ids.lock` is plain text, one entry a line, `#` comments:
//!
//! ```text
//! variant zero-width              # a published variant name
//! case breakout-close-mid-content # a published concrete case id
//! retired forgery-old-thing       # a published id that was removed on purpose
//! alias variant zw zero-width     # a variant renamed: old name, new name
//! alias case old-id new-id        # a written case renamed: old id, new id
//! ```
//!
//! [`check`] fails when a locked id or variant is gone without a `retired`
//! entry or an alias; new ids never fail it. `framecheck ids --write`
//! regenerates the lock ([`render`]), keeping the `retired` and `alias`
//! lines, and refuses while something disappeared without one. Baseline
//! comparison maps old ids through the aliases
//! (`framecheck-report`'s `baseline::diff_with_aliases`).

use std::collections::BTreeSet;
use std::fmt::Write as _;

use crate::catalogue::{self, Catalogue, Variant};
use crate::profile::{FrameProfile, ResolvedProfile};

/// The lock as committed, compiled in so baselines map through its aliases
/// without files on disk.
pub const BUILTIN_LOCK: &str = include_str!("../../../../attacks/ids.lock");

/// A rename recorded in the lock.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub enum Alias {
    /// A variant name changed: concrete ids `<base>~<old>` become `<base>~<new>`.
    Variant {
        /// The published name.
        old: String,
        /// The name now.
        new: String,
    },
    /// A written case's id changed: `<old>` and `<old>~<v>` become `<new>…`.
    Case {
        /// The published id.
        old: String,
        /// The id now.
        new: String,
    },
}

impl Alias {
    /// The id `id` has now, if this alias renames it.
    pub fn apply(&self, id: &str) -> Option<String> {
        let (base, variant) = match id.split_once('~') {
            Some((base, variant)) => (base, Some(variant)),
            None => (id, None),
        };
        match (self, variant) {
            (Alias::Variant { old, new }, Some(v)) if v == old => Some(format!("{base}~{new}")),
            (Alias::Case { old, new }, _) if base == old => Some(match variant {
                Some(v) => format!("{new}~{v}"),
                None => new.clone(),
            }),
            _ => None,
        }
    }
}

/// A parsed lock file.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct IdLock {
    /// Published variant names.
    pub variants: BTreeSet<String>,
    /// Published concrete case ids.
    pub cases: BTreeSet<String>,
    /// Ids removed on purpose.
    pub retired: BTreeSet<String>,
    /// Renames.
    pub aliases: Vec<Alias>,
}

/// A line of a lock file that does not parse.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("ids.lock line {line}: {message}")]
pub struct LockError {
    /// 1-based line number.
    pub line: usize,
    /// What is wrong.
    pub message: String,
}

/// Parses a lock file.
pub fn parse(text: &str) -> Result<IdLock, LockError> {
    let mut lock = IdLock::default();
    for (index, raw) in text.lines().enumerate() {
        let line = raw.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        let words: Vec<&str> = line.split_whitespace().collect();
        let error = |message: &str| LockError {
            line: index + 1,
            message: format!("{message}: {line:?}"),
        };
        match words.as_slice() {
            ["variant", name] => {
                lock.variants.insert(name.to_string());
            }
            ["case", id] => {
                lock.cases.insert(id.to_string());
            }
            ["retired", id] => {
                lock.retired.insert(id.to_string());
            }
            ["alias", "variant", old, new] => lock.aliases.push(Alias::Variant {
                old: old.to_string(),
                new: new.to_string(),
            }),
            ["alias", "case", old, new] => lock.aliases.push(Alias::Case {
                old: old.to_string(),
                new: new.to_string(),
            }),
            _ => {
                return Err(error(
                    "expected `variant N`, `case ID`, `retired ID` or `alias variant|case OLD NEW`",
                ))
            }
        }
    }
    Ok(lock)
}

/// The aliases of the committed lock. A lock that does not parse is caught
/// by the id-lock test; at run time it contributes no aliases.
pub fn builtin_aliases() -> Vec<Alias> {
    parse(BUILTIN_LOCK).map(|l| l.aliases).unwrap_or_default()
}

/// Every concrete case id `catalogue` publishes, over `profiles` and the
/// [`nonce_twins`] of `reference` (the reference envelope's profile), so the
/// cases only nonce framings get are locked whether or not a committed
/// target declares a nonce.
pub fn published_ids(
    catalogue: &Catalogue,
    profiles: &[ResolvedProfile],
    reference: &ResolvedProfile,
) -> BTreeSet<String> {
    profiles
        .iter()
        .cloned()
        .chain(nonce_twins(reference))
        .chain(shape_twins(reference))
        .chain(encoding_twins(reference))
        .chain([kind_twin(reference)])
        .flat_map(|p| catalogue::instantiate(catalogue, &p))
        .map(|c| c.id)
        .collect()
}

/// `reference` with a nonce in its tag name, and as an `id` attribute of
/// begin/end markers: the two places nonce framings put it.
pub fn nonce_twins(reference: &ResolvedProfile) -> Vec<ResolvedProfile> {
    use crate::grammar::{GrammarKind, NonceAlphabet, NonceSpec};
    let nonce = Some(NonceSpec {
        alphabet: NonceAlphabet::Hex,
        min_length: Some(32),
    });
    let in_name = twin(reference, |p| {
        p.delimiters.token = format!("{}-{{nonce}}", p.delimiters.token);
        p.delimiters.nonce = nonce;
    });
    let in_attribute = twin(reference, |p| {
        p.delimiters.grammar = GrammarKind::BeginEnd;
        p.delimiters.open = Some("<<<{token} id=\"{nonce}\">>>".into());
        p.delimiters.close = Some("<<<END_{token} id=\"{nonce}\">>>".into());
        p.delimiters.nonce = nonce;
    });
    vec![in_name, in_attribute]
}

/// `reference` with the request's kind in its tag name
/// (`{kind}_TOKEN`): the cases only such framings get are locked whether
/// or not a committed target names its frame after the kind.
pub fn kind_twin(reference: &ResolvedProfile) -> ResolvedProfile {
    twin(reference, |p| {
        p.delimiters.token = format!("{}_{}", crate::grammar::token::KIND, p.delimiters.token);
    })
}

/// `reference` as a framing of each shape's example declaration
/// ([`crate::grammar::Shape::example`]): the cases only one shape invites
/// are locked whether or not a committed target uses it.
pub fn shape_twins(reference: &ResolvedProfile) -> Vec<ResolvedProfile> {
    crate::grammar::GrammarKind::ALL
        .iter()
        .map(|kind| twin(reference, |p| p.delimiters = kind.shape().example()))
        .collect()
}

/// `reference` with its body in each encoding that invites cases of its
/// own ([`crate::encoding::Codec::catalogue_twin`]: a body quoted line by
/// line): those cases are locked whether or not a committed target writes
/// its body so.
pub fn encoding_twins(reference: &ResolvedProfile) -> Vec<ResolvedProfile> {
    crate::profile::BodyEncoding::ALL
        .iter()
        .filter_map(|&e| Some((e, e.codec().catalogue_twin()?)))
        .map(|(encoding, sample)| {
            // The reference's padding and the rest are kept: only the
            // encoding and the marker it reads change.
            twin(reference, |p| {
                p.body.encoding = Some(encoding.into());
                let field = encoding.codec().marker();
                if let (Some(field), Some(marker)) = (field, sample.marker) {
                    field.set(&mut p.body, marker.into(), Default::default());
                }
            })
        })
        .collect()
}

/// `reference` with `change` made to its frame description. Every twin is
/// a declaration the reference's own tokens make valid (a shape's example,
/// a nonce added, an encoding with its sample marker); one that is not is
/// a defect of this file, so it panics here rather than lock no ids.
fn twin(reference: &ResolvedProfile, change: impl FnOnce(&mut FrameProfile)) -> ResolvedProfile {
    reference
        .edit(change)
        .unwrap_or_else(|e| panic!("a catalogue twin of {} is invalid: {e}", reference.name))
}

/// What disappeared from `lock` without a `retired` entry or an alias.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Missing {
    /// Locked case ids no longer published.
    pub cases: Vec<String>,
    /// Locked variant names no longer known.
    pub variants: Vec<String>,
}

impl Missing {
    /// True when nothing is missing.
    pub fn is_empty(&self) -> bool {
        self.cases.is_empty() && self.variants.is_empty()
    }
}

/// Checks `current` ids against `lock`. Only removals count; additions are
/// fine.
pub fn check(lock: &IdLock, current: &BTreeSet<String>) -> Missing {
    let renamed = |id: &str| {
        lock.aliases
            .iter()
            .filter_map(|a| a.apply(id))
            .any(|new| current.contains(&new))
    };
    let cases = lock
        .cases
        .iter()
        .filter(|id| !current.contains(*id) && !lock.retired.contains(*id) && !renamed(id))
        .cloned()
        .collect();
    let variants = lock
        .variants
        .iter()
        .filter(|name| {
            Variant::from_name(name).is_none()
                && !lock
                    .aliases
                    .iter()
                    .any(|a| matches!(a, Alias::Variant { old, .. } if old == *name))
        })
        .cloned()
        .collect();
    Missing { cases, variants }
}

/// The lock text for `current`, keeping `previous`'s `retired` and `alias`
/// lines.
pub fn render(previous: &IdLock, current: &BTreeSet<String>) -> String {
    let mut out = String::from(
        "# framecheck id lock: every published concrete case id and variant name.\n\
         # A test fails when one disappears without a `retired` line or an alias.\n\
         # Regenerate after adding cases: `cargo run -- ids --write`.\n\
         # Rename a variant: `alias variant OLD NEW`; a case: `alias case OLD NEW`.\n",
    );
    for alias in &previous.aliases {
        let _ = match alias {
            Alias::Variant { old, new } => writeln!(out, "alias variant {old} {new}"),
            Alias::Case { old, new } => writeln!(out, "alias case {old} {new}"),
        };
    }
    for id in &previous.retired {
        let _ = writeln!(out, "retired {id}");
    }
    for variant in Variant::ALL {
        let _ = writeln!(out, "variant {}", variant.name());
    }
    for id in current {
        let _ = writeln!(out, "case {id}");
    }
    out
}
