//! `frame.separation`, for framings that write several frames per call
//! (`frame.count: several`, protocol op `wrap-many`): one output holds one
//! frame per item, and the case's request is one item among benign
//! siblings.
//!
//! The case's own item is judged like a single frame, against a layout
//! calibrated with the siblings around it: the siblings' frames are then the
//! framing's own constant text, so a changed sibling or changed text between
//! frames fails `frame.shape` or `frame.outer-text`, and a live delimiter
//! in the item fails `delimiter.census` as it would alone.
//!
//! What a single frame cannot show is which frame a reader puts each item
//! in. At every reader level, each item's place is counted the way a reader
//! walks the output: how many live openers of the frame's elements (the
//! outer token, and the inner one when the profile has one) come before
//! it, and whether it sits inside an open frame. Those counts must be what
//! they are in the benign calibration output (which also absorbs constant
//! text that names the delimiter), every sibling's content must be in the
//! output as written, and the output must hold as many openers as the
//! benign one. An item that closes its frame and opens another, a frame
//! dropped or merged, or a sibling's content lost fails here; a closer that
//! only ends the item's own frame early does not move any item (it is the
//! census's and the canary's), so it does not.

use std::ops::Range;

use super::findings::{framed_excerpt, Findings};
use super::{finish, levels, wrap_checks};
use crate::catalogue::ConcreteCase;
use crate::encoding;
use crate::grammar::{DelimiterKind, Grammar};
use crate::layout::Layout;
use crate::oracle::regions::{INNER, OUTER};
use crate::oracle::view::reader_for;
use crate::oracle::{Check, Finding};
use crate::profile::ResolvedProfile;
use crate::reader::Reader;
use crate::target::WrapRequest;

/// One several-frames output to judge: the items sent, in order, and which
/// of them is the case's request.
#[derive(Debug, Clone, Copy)]
pub struct Items<'a> {
    /// Every item, in the order sent.
    pub items: &'a [WrapRequest],
    /// The index of the case's own item.
    pub position: usize,
}

/// Judges a `wrap-many` output: the case's item as [`super::judge_wrap_in`]
/// judges a frame, against `layout` (calibrated with the same siblings at
/// the same position), then `frame.separation` for every item.
pub fn judge_several(
    case: &ConcreteCase,
    profile: &ResolvedProfile,
    layout: &Layout,
    items: Items<'_>,
    framed: &str,
) -> Vec<Finding> {
    let mut findings = Findings::default();
    let request = &items.items[items.position];
    // A framing declared to write nothing for empty content leaves that
    // item out: only the siblings are left to judge.
    let dropped = profile.frame.empty.yields_nothing(&request.content);
    let slot = if dropped {
        None
    } else {
        let matched = layout.matches(framed);
        wrap_checks(&mut findings, case, profile, Some(layout), request, framed);
        matched.mismatch.is_none().then_some(matched.content)
    };
    check_separation(&mut findings, profile, layout, items, framed, slot, dropped);
    finish(findings, profile)
}

/// Where one item sits for a reader.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Place {
    /// Live openers of the frame's elements before the item.
    openers: usize,
    /// Whether the item sits inside every element of the frame: the last
    /// live delimiter of each element's token before it is an opener.
    inside: bool,
    /// Whether a live delimiter of the frame's elements lies within the
    /// item's text.
    crossed: bool,
}

/// A live delimiter of one of the frame's elements: its token, role and
/// where it starts.
type Live = (usize, DelimiterKind, usize);

fn place(live: &[Live], tokens: &[usize], slot: &Range<usize>) -> Place {
    let before = || live.iter().filter(|(_, _, at)| *at < slot.start);
    Place {
        openers: before()
            .filter(|(_, k, _)| *k == DelimiterKind::Open)
            .count(),
        inside: tokens.iter().all(|&t| {
            before()
                .rfind(|(token, _, _)| *token == t)
                .is_some_and(|(_, k, _)| *k == DelimiterKind::Open)
        }),
        crossed: live
            .iter()
            .any(|(_, _, at)| slot.start <= *at && *at < slot.end),
    }
}

/// The tokens of the elements that frame an item: the outer one, and the
/// inner one when the profile has one (a list element around one inner
/// element per item).
fn frame_tokens(profile: &ResolvedProfile) -> Vec<usize> {
    match profile.delimiters.inner {
        Some(_) => vec![OUTER, INNER],
        None => vec![OUTER],
    }
}

/// The live delimiters of the frame's elements that a reader at `reader`
/// finds in `text`.
fn frame_delimiters(
    grammar: &dyn Grammar,
    tokens: &[usize],
    reader: Reader,
    text: &str,
) -> Vec<Live> {
    grammar
        .live(&reader.fold(text))
        .into_iter()
        .filter(|d| tokens.contains(&d.token))
        .map(|d| (d.token, d.kind, d.start))
        .collect()
}

fn openers(live: &[Live]) -> usize {
    live.iter()
        .filter(|(_, k, _)| *k == DelimiterKind::Open)
        .count()
}

/// Where each item's content is written in `text`: the case's item at
/// `own`, every sibling where its encoded content occurs exactly once.
fn slots(
    layout: &Layout,
    items: Items<'_>,
    text: &str,
    own: Option<Range<usize>>,
) -> Vec<Option<Range<usize>>> {
    items
        .items
        .iter()
        .enumerate()
        .map(|(i, item)| match i == items.position {
            true => own.clone(),
            // Where the framing chooses per content, the item is wherever
            // one of its encodings writes it once.
            false => choices(layout).into_iter().find_map(|encoding| {
                written_once(
                    text,
                    &encoding::encode(encoding, &item.content, layout.marking()),
                )
            }),
        })
        .collect()
}

/// The encodings a sibling's content may be written in.
fn choices(layout: &Layout) -> Vec<crate::profile::Encoding> {
    match layout.per_content.is_empty() {
        true => vec![layout.encoding],
        false => layout.per_content.clone(),
    }
}

/// Where `encoded` sits in `text` when it occurs there exactly once; an
/// empty content sits nowhere, since it occurs everywhere.
fn written_once(text: &str, encoded: &str) -> Option<Range<usize>> {
    let mut hits = text.match_indices(encoded).map(|(at, _)| at);
    match (hits.next(), hits.next()) {
        (Some(at), None) if !encoded.is_empty() => Some(at..at + encoded.len()),
        _ => None,
    }
}

fn check_separation(
    findings: &mut Findings,
    profile: &ResolvedProfile,
    layout: &Layout,
    items: Items<'_>,
    framed: &str,
    own: Option<Range<usize>>,
    dropped: bool,
) {
    let sample = &layout.sample;
    let benign_slots = slots(layout, items, &sample.framed, Some(sample.slot.clone()));
    let case_slots = slots(layout, items, framed, own);
    for (i, slot) in case_slots.iter().enumerate() {
        if slot.is_none() && i != items.position {
            findings.security_everywhere(
                Check::FrameSeparation,
                format!(
                    "item {} of {}: its content is not in the output once, as written for benign siblings",
                    i + 1,
                    items.items.len()
                ),
                None,
            );
        }
    }
    let grammar = profile.grammar();
    let tokens = frame_tokens(profile);
    for level in levels(profile) {
        let reader = reader_for(profile, level);
        let benign = frame_delimiters(&*grammar, &tokens, reader, &sample.framed);
        let live = frame_delimiters(&*grammar, &tokens, reader, framed);
        // An empty item the framing framed after all is the single-frame
        // path's fidelity finding, not a moved item.
        let dropped = dropped && openers(&live) != openers(&benign);
        for (i, (slot, benign_slot)) in case_slots.iter().zip(&benign_slots).enumerate() {
            let (Some(slot), Some(benign_slot)) = (slot, benign_slot) else {
                continue;
            };
            let mut expected = place(&benign, &tokens, benign_slot);
            if dropped && i > items.position {
                expected.openers = expected.openers.saturating_sub(1);
            }
            let found = place(&live, &tokens, slot);
            let own_item = i == items.position;
            if let Some(problem) = moved(expected, found, own_item) {
                findings.security(
                    Check::FrameSeparation,
                    level,
                    format!("item {} of {}: {problem}", i + 1, items.items.len()),
                    framed_excerpt(framed, slot.clone()),
                );
            }
        }
        let expected = openers(&benign).saturating_sub(usize::from(dropped));
        let found = openers(&live);
        if found != expected {
            findings.security(
                Check::FrameSeparation,
                level,
                format!(
                    "the output opens {found} frames where the benign output opens {expected}: an item created or removed a frame"
                ),
                framed_excerpt(framed, 0..0),
            );
        }
    }
}

/// What moved an item out of its own frame, if anything. The case's own
/// item may hold live delimiters (the census judges those); a sibling may
/// not, since its content is the benign calibration content.
fn moved(expected: Place, found: Place, own_item: bool) -> Option<String> {
    if found.openers != expected.openers {
        return Some(format!(
            "read after {} opening delimiters where its own frame comes after {}: its content moved to another frame",
            found.openers, expected.openers
        ));
    }
    if found.inside != expected.inside {
        return Some("read outside any frame: an earlier item closed its frame".into());
    }
    if !own_item && found.crossed && !expected.crossed {
        return Some("a delimiter the framing wrote lies within its content: frames merged".into());
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use DelimiterKind::{Close, Open};

    #[test]
    fn a_sibling_sits_where_its_content_occurs_once() {
        assert_eq!(written_once("<a>\nxyz\n</a>", "xyz"), Some(4..7));
        assert_eq!(written_once("xyz xyz", "xyz"), None);
        assert_eq!(written_once("abc", "xyz"), None);
        assert_eq!(written_once("abc", ""), None);
    }

    /// An item is crossed by a live delimiter that starts inside its text,
    /// not by one that starts where it ends; it is inside the frame when
    /// the last delimiter before it opens.
    #[test]
    fn where_an_item_sits() {
        let live = [(0, Open, 0), (0, Close, 15)];
        let crossed = place(&live, &[0], &(10..20));
        assert_eq!(
            crossed,
            Place {
                openers: 1,
                inside: true,
                crossed: true
            }
        );
        assert!(!place(&live, &[0], &(5..15)).crossed);
        // A delimiter where the item starts is in it, not before it.
        let at_start = place(&live, &[0], &(15..20));
        assert!(at_start.inside && at_start.crossed && at_start.openers == 1);
        let after = place(&live, &[0], &(16..20));
        assert!(!after.inside && !after.crossed && after.openers == 1);
    }
}
