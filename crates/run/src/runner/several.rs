//! The runner's several-frames path, for profiles declaring
//! `frame.count: several`: every wrap case runs again through `wrap-many`,
//! with its request as one item among benign siblings, first, in the middle
//! and last.
//!
//! Calibration learns one layout per position with [`layout::learn`]: the
//! probe requests are sent at that position between the same siblings, so
//! the siblings' frames and the text between frames become the layout's
//! constant text around the probed frame. A case is then judged by
//! [`oracle::judge_several`] against its position's layout. When that
//! calibration fails, one error result says why instead of any verdict.
//!
//! A framing whose `wrap-many` answers a list of parts (`wrap.returns:
//! parts` with `frame.count: several`; one part per item, say) has its
//! benign parts learned per position from the same probe calls, with
//! [`PartsStructure::learn`]: the part holding the probed item is the
//! content's, and the siblings' parts, the same for every probe, are
//! constant. Each case's parts are judged by `parts.structure` (no forged
//! part or role, the siblings' and preamble parts unchanged, the item's
//! content in its own part only), and the frame checks judge the benign
//! parts from the first item's on (an instruction part before them is no
//! item's), joined with the case's own part in place
//! ([`PartsStructure::text_in_place`]), so every item's frame is where
//! `frame.separation` looks for it. An answer of the other kind than the
//! profile declares is a misfit, said by the calibration error.

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use super::faults::{self, FaultWatch};
use super::parts;
use super::{refusal_or_error, CaseResult, Evidence, Outcome};
use crate::adapter::{Framing, WrapRequest};
use framecheck_core::catalogue::{ConcreteCase, Input, Operation};
use framecheck_core::layout::{self, Layout};
use framecheck_core::oracle::{self, Items, PartsError, PartsStructure};
use framecheck_core::target::{Part, WrapAnswer};
use framecheck_launch::profile::{Capability, TargetProfile};

pub(crate) use framecheck_launch::outcome::SEVERAL_FRAMES_FLAG;

/// How many items each `wrap-many` call sends: the case's and two siblings.
pub(crate) const ITEMS: usize = 3;

/// The positions the case's item takes, by the name its result id ends in.
const POSITIONS: [(usize, &str); ITEMS] = [(0, "first"), (1, "middle"), (2, "last")];

/// The benign siblings: plain text in every field, distinct per sibling,
/// sharing no marker with the calibration probes or the catalogue.
pub(crate) fn siblings(profile: &TargetProfile) -> Vec<WrapRequest> {
    // The attribute key the probes use, so a framing with a fixed set of
    // attribute names accepts the siblings' too.
    let probes = layout::probes_with(profile, true);
    let key = probes.requests()[0]
        .attributes
        .keys()
        .next()
        .cloned()
        .unwrap_or_else(|| "source".into());
    (1..ITEMS)
        .map(|n| WrapRequest {
            content: format!(
                "fcsibling{n}a A passage from source {n}, as retrieved.\nIts second line fcsibling{n}z"
            ),
            kind: "retrieval".into(),
            attributes: BTreeMap::from([(key.clone(), format!("sibling-{n}"))]),
            provenance: format!("Retrieved passage {n}"),
        })
        .collect()
}

/// The items of one call: the siblings with `request` at `position`.
pub(crate) fn items_at(
    siblings: &[WrapRequest],
    position: usize,
    request: &WrapRequest,
) -> Vec<WrapRequest> {
    let mut items = siblings.to_vec();
    items.insert(position.min(items.len()), request.clone());
    items
}

/// The parts a benign call answers at one position, for a framing
/// answering parts, and the first part that holds an item.
#[derive(Debug, Clone)]
struct ItemParts {
    structure: PartsStructure,
    /// The parts before it (an instruction, say) hold no item: the frame
    /// checks do not read them, as a single wrap's read its content's
    /// part only.
    first_item: usize,
}

impl ItemParts {
    /// Learns them from the probe calls' answers, each with its probe's
    /// marker; `siblings` are the other items of every call.
    fn learn(answers: &[(&str, Vec<Part>)], siblings: &[WrapRequest]) -> Result<Self, PartsError> {
        let samples: Vec<(&str, &[Part])> =
            answers.iter().map(|(m, p)| (*m, p.as_slice())).collect();
        let structure = PartsStructure::learn(&samples)?;
        let (marker, first) = &answers[0];
        let markers: Vec<&str> = siblings.iter().map(parts::marker).collect();
        let first_item = first
            .iter()
            .position(|p| p.text.contains(marker) || markers.iter().any(|m| p.text.contains(m)))
            .unwrap_or(0);
        Ok(ItemParts {
            structure,
            first_item,
        })
    }

    /// The text the frame checks judge for `parts`.
    fn text(&self, parts: &[Part]) -> String {
        self.structure.text_in_place(parts, self.first_item)
    }
}

/// The layouts learned for one position.
struct Calibrated {
    /// Learned with an attribute in the probes.
    full: Layout,
    /// Learned without one, for requests that carry none.
    bare: Option<Layout>,
    /// The parts a benign call answers, for a framing answering parts.
    parts: Option<ItemParts>,
}

impl Calibrated {
    /// The layout `request` is judged against.
    fn layout_for(&self, request: &WrapRequest) -> &Layout {
        match &self.bare {
            Some(bare) if request.attributes.is_empty() => bare,
            _ => &self.full,
        }
    }
}

/// Learns the layout at `position` and, for a framing answering parts,
/// the parts (unless `known` already holds them).
fn learn_at(
    profile: &TargetProfile,
    framing: &mut dyn Framing,
    siblings: &[WrapRequest],
    position: usize,
    with_attribute: bool,
    known: Option<&ItemParts>,
) -> Result<(Layout, Option<ItemParts>), String> {
    let failed = |e: &dyn std::fmt::Display| {
        format!(
            "several-frames calibration (item {} of {ITEMS}): {e}",
            position + 1
        )
    };
    let probes = layout::probes_with(profile, with_attribute);
    let mut wraps = Vec::new();
    let mut answers = Vec::new();
    for request in probes.requests() {
        let items = items_at(siblings, position, request);
        match parts::wrap_many(profile, framing, &items)
            .map_err(|e| format!("calibration wrap-many failed: {e}"))?
        {
            WrapAnswer::Text(framed) => wraps.push(framed),
            WrapAnswer::Parts(answered) => answers.push((parts::marker(request), answered)),
        }
    }
    let structure = match known {
        _ if answers.is_empty() => None,
        Some(known) => Some(known.clone()),
        None => Some(
            ItemParts::learn(&answers, siblings)
                .map_err(|e| failed(&parts::PartsMisfit::Learn(e)))?,
        ),
    };
    if let Some(structure) = &structure {
        wraps = answers.iter().map(|(_, p)| structure.text(p)).collect();
    }
    let layout = layout::learn(profile, &probes, &wraps).map_err(|e| failed(&e))?;
    Ok((layout, structure))
}

fn calibrate(
    profile: &TargetProfile,
    framing: &mut dyn Framing,
    siblings: &[WrapRequest],
) -> Result<Vec<Calibrated>, String> {
    POSITIONS
        .iter()
        .map(|&(position, _)| {
            let (full, parts) = learn_at(profile, framing, siblings, position, true, None)?;
            let bare = match profile.can(Capability::Attributes) {
                true => learn_at(profile, framing, siblings, position, false, parts.as_ref())
                    .ok()
                    .map(|(bare, _)| bare),
                false => None,
            };
            Ok(Calibrated { full, bare, parts })
        })
        .collect()
}

/// Whether [`run`] runs anything for `profile`: only a framing that
/// writes several frames per call is run in siblings.
pub(crate) fn applies(profile: &TargetProfile) -> bool {
    profile.frame.count == framecheck_launch::profile::FrameCount::Several
}

/// Runs every wrap case of `cases` at each position and hands each result
/// to `on_result`; nothing for a profile with one frame per call. Stops
/// between cases when `cancel` is set.
pub(crate) fn run(
    cases: &[ConcreteCase],
    profile: &TargetProfile,
    framing: &mut dyn Framing,
    watch: &mut FaultWatch,
    cancel: &AtomicBool,
    on_result: &mut dyn FnMut(CaseResult),
) {
    let wraps: Vec<(&ConcreteCase, &WrapRequest)> = cases
        .iter()
        .filter(|c| c.requires.iter().all(|r| profile.can(*r)))
        .filter_map(|c| match &c.input {
            Input::Wrap(request) => Some((c, request)),
            Input::Read(_) => None,
        })
        .collect();
    if !applies(profile) || wraps.is_empty() {
        return;
    }
    let started = Instant::now();
    let siblings = siblings(profile);
    let layouts = match calibrate(profile, framing, &siblings) {
        Ok(layouts) => layouts,
        Err(reason) => return on_result(calibration_error(&wraps[0].0.clone(), reason, started)),
    };
    for &(position, name) in &POSITIONS {
        for &(case, request) in &wraps {
            if cancel.load(Ordering::SeqCst) {
                return;
            }
            let calibrated = &layouts[position];
            let items = items_at(&siblings, position, request);
            let case = at_position(case, position, name);
            // Faults are per input here too: retried, then a finding or
            // the target given up (`super::faults`).
            let result = match watch.abandoned() {
                Some(abandoned) => faults::not_sent(case, abandoned),
                None => watch.judge(case, profile, framing, None, &mut |case, framing| {
                    run_case(case, profile, framing, calibrated, &items, position)
                }),
            };
            on_result(result);
        }
    }
}

fn run_case(
    case: ConcreteCase,
    profile: &TargetProfile,
    framing: &mut dyn Framing,
    calibrated: &Calibrated,
    items: &[WrapRequest],
    position: usize,
) -> CaseResult {
    let started = Instant::now();
    let mut evidence = Evidence::default();
    let structure = calibrated.parts.as_ref();
    let outcome = match parts::wrap_many(profile, framing, items) {
        Err(error) => refusal_or_error(&case, error),
        Ok(answer) => {
            let request = &items[position];
            // `parts.structure` first, as a single wrap's case has it.
            let (framed, mut findings) = match (structure, answer) {
                (Some(structure), WrapAnswer::Parts(answered)) => {
                    evidence.parts = Some(oracle::render_parts(&answered).0);
                    let findings =
                        oracle::judge_parts(&structure.structure, &request.content, &answered);
                    (
                        structure.text(&answered),
                        oracle::as_written(profile, findings),
                    )
                }
                (_, answer) => (answer.into_text(), Vec::new()),
            };
            let layout = calibrated.layout_for(request);
            findings.extend(oracle::for_consumers(profile, |p| {
                let items = Items { items, position };
                let judged = oracle::judge_several(&case, p, layout, items, &framed);
                oracle::parser_answered(judged, p)
            }));
            evidence.framed = Some(framed);
            Outcome::Judged { findings }
        }
    };
    CaseResult {
        case,
        outcome,
        evidence,
        elapsed_us: started.elapsed().as_micros().min(u64::MAX as u128) as u64,
    }
}

/// The case as run among siblings: its own id with the position, judged as
/// a wrap (the protocol reads back one frame, not a list).
fn at_position(case: &ConcreteCase, position: usize, name: &str) -> ConcreteCase {
    let mut case = case.clone();
    case.id = format!("{}@{name}", case.id);
    case.title = format!(
        "{} (item {} of {ITEMS}, wrap-many)",
        case.title,
        position + 1
    );
    case.operation = Operation::Wrap;
    case.flags.push(SEVERAL_FRAMES_FLAG.into());
    case
}

/// One error result standing for every several-frames case, when the
/// layouts could not be learned: no verdict is claimed for any of them.
fn calibration_error(first: &ConcreteCase, reason: String, started: Instant) -> CaseResult {
    let mut case = at_position(first, 0, "first");
    case.id = "several-frames-calibration".into();
    case.title = "Several frames per call: calibration with wrap-many".into();
    CaseResult {
        case,
        outcome: Outcome::Error {
            reason,
            stderr_tail: String::new(),
            fault: None,
        },
        evidence: Evidence::default(),
        elapsed_us: started.elapsed().as_micros().min(u64::MAX as u128) as u64,
    }
}
