//! What a finding saw live: the delimiter the check that decided its
//! liveness found, kept on the finding as typed data, so a report renders
//! it (a weakness's delimiter role, a SARIF property) without running the
//! scanner again and perhaps judging differently from the check.

use serde::{Deserialize, Serialize};

use super::ExcerptSource;
use crate::catalogue::DelimiterRole;
use crate::grammar::{DelimiterKind, LiveDelimiter, Liveness};
use crate::level::ReaderLevel;

/// The live delimiter a finding is about, as the check read it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct LiveEvidence {
    /// Which of the frame's delimiters it is: the outer closer or opener,
    /// the inner element's, or a reserved token's.
    pub role: DelimiterRole,
    /// The grammar's reading: the token's index in the vocabulary (0 outer,
    /// then inner, then reserved), whether it opens or closes, and how a
    /// reader inside the frame reads it.
    pub reading: Reading,
    /// The text its span is in.
    pub text: ExcerptSource,
    /// Byte offset of its first byte in that text.
    pub start: usize,
    /// Byte offset just past what the grammar matched.
    pub end: usize,
    /// The reader level the check saw it live at: checks judge the levels
    /// lowest first and a finding keeps its first sighting, so the lowest
    /// level of the finding that reads it live.
    pub level: ReaderLevel,
}

/// The grammar's reading of a live delimiter.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Reading {
    /// Index into the vocabulary's tokens.
    pub token: usize,
    /// Opener or closer.
    pub kind: DelimiterKind,
    /// Relative to the frame it sits in: a closer of this very frame (one
    /// in the content ends the frame early), or another live delimiter.
    /// Confusable and dead spans are never recorded: they broke nothing.
    pub liveness: Liveness,
}

impl LiveEvidence {
    /// The evidence for `delimiter`, found in `text` at `level` and read as
    /// `liveness`; `inner` says whether the vocabulary has an inner token
    /// (then token 1 is it, and later tokens are reserved).
    pub fn of(
        delimiter: &LiveDelimiter,
        liveness: Liveness,
        text: ExcerptSource,
        level: ReaderLevel,
        inner: bool,
    ) -> LiveEvidence {
        let role = match (delimiter.token, delimiter.kind) {
            (0, DelimiterKind::Close) => DelimiterRole::Close,
            (0, DelimiterKind::Open) => DelimiterRole::Open,
            (index, _) if index <= usize::from(inner) => DelimiterRole::Inner,
            _ => DelimiterRole::Reserved,
        };
        LiveEvidence {
            role,
            reading: Reading {
                token: delimiter.token,
                kind: delimiter.kind,
                liveness,
            },
            text,
            start: delimiter.start,
            end: delimiter.end,
            level,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn delimiter(token: usize, kind: DelimiterKind) -> LiveDelimiter {
        LiveDelimiter {
            token,
            kind,
            start: 3,
            end: 9,
            nonce: None,
            request_kind: None,
        }
    }

    #[test]
    fn the_role_follows_the_token_and_its_kind() {
        let role = |token, kind, inner| {
            LiveEvidence::of(
                &delimiter(token, kind),
                Liveness::Live,
                ExcerptSource::Framed,
                ReaderLevel::Exact,
                inner,
            )
            .role
        };
        use DelimiterKind::{Close, Open};
        assert_eq!(role(0, Close, false), DelimiterRole::Close);
        assert_eq!(role(0, Open, true), DelimiterRole::Open);
        assert_eq!(role(1, Open, true), DelimiterRole::Inner);
        assert_eq!(role(1, Close, false), DelimiterRole::Reserved);
        assert_eq!(role(2, Close, true), DelimiterRole::Reserved);
    }
}
