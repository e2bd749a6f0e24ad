//! One framed text as every reader sees it: folded once per reader, with
//! the live delimiters and regions each reader finds. The checks share it
//! instead of folding the text again.

use std::ops::Range;

use super::regions::Regions;
use crate::grammar::Grammar;
use crate::level::ReaderLevel;
use crate::profile::ResolvedProfile;
use crate::reader::{Folded, Reader};

/// The reader at `level` for the profile's consumer: a parser's declared
/// line breaks (`reader.lines`) are its own at every level, since the
/// program splits lines before anything is folded. A model's reader keeps
/// its level's breaks (a profile declares `lines` only for a parser).
pub(crate) fn reader_for(profile: &ResolvedProfile, level: ReaderLevel) -> Reader {
    Reader::new(level).with_lines(profile.reader.lines)
}

/// Every reader the profile's frame is read by, strictest first.
pub(crate) fn readers_for(profile: &ResolvedProfile) -> impl Iterator<Item = Reader> + '_ {
    ReaderLevel::ALL
        .into_iter()
        .map(|level| reader_for(profile, level))
}

/// A text as one reader sees it.
#[derive(Debug)]
pub(crate) struct View<'t> {
    /// The text, folded by the reader.
    pub folded: Folded<'t>,
    /// The regions and live delimiters the reader finds.
    pub regions: Regions,
}

impl View<'_> {
    /// The reader's level.
    pub(super) fn level(&self) -> ReaderLevel {
        self.folded.reader.level()
    }
}

/// A framed text as every reader sees it, with the profile's grammar.
#[derive(Debug)]
pub(crate) struct Views<'t> {
    /// The profile's grammar.
    pub grammar: std::sync::Arc<dyn Grammar>,
    /// One view per reader, strictest first.
    pub levels: Vec<View<'t>>,
}

impl<'t> Views<'t> {
    /// Folds `framed` once per reader and finds its regions, not counting
    /// the live delimiters inside `own`, the framing's own constant text
    /// (see [`Regions::at`]).
    pub(super) fn excluding(
        framed: &'t str,
        profile: &ResolvedProfile,
        own: &[Range<usize>],
    ) -> Views<'t> {
        let grammar = profile.grammar();
        let levels = readers_for(profile)
            .map(|reader| {
                let folded = reader.fold(framed);
                let regions = Regions::at(&folded, &*grammar, profile, own);
                View { folded, regions }
            })
            .collect();
        Views { grammar, levels }
    }

    /// The exact reader's view.
    pub(super) fn exact(&self) -> &View<'t> {
        self.levels
            .iter()
            .find(|v| v.level() == ReaderLevel::Exact)
            .expect("the exact reader is always judged")
    }
}
