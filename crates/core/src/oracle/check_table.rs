//! One row per check: everything a report says about a check, apart from
//! the check's logic (its module under `checks/`): the stable name, the fix
//! hint, the SARIF rule text, the phrase a weakness statement uses, and the
//! rank that picks a failing case's primary check. Adding a check adds one
//! variant to [`Check`], one row here and its module; the tests below fail
//! until the row is there and in place.

use super::Check;

/// What reports say about one check.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CheckRow {
    /// The check this row is about.
    pub check: Check,
    /// The stable name, as serialized and as SARIF's rule id.
    pub name: &'static str,
    /// The place among a failing case's checks when its primary check is
    /// chosen (0 first): root causes before their consequences, security
    /// before fidelity, the classes reported apart last.
    pub primary_rank: u8,
    /// A one-line fix hint for reports.
    pub hint: &'static str,
    /// A one-sentence description of what the check verifies (SARIF's rule
    /// text).
    pub rule: &'static str,
    /// What text in a field does when it fails the check, completing "Text
    /// in the content …" in a weakness statement.
    pub effect: &'static str,
    /// The check whose finding, in the same case at the same level, is this
    /// finding's cause: the finding is linked to it and not counted again
    /// (`report::count`). Only where every such finding follows from the
    /// cause by construction.
    pub caused_by: Option<Check>,
    /// Whether the check judges the framed text as a reader level reads
    /// it (the oracle's model of a reader: a model, or a parser modelled at
    /// the exact level). A parser that answers with segments is observed,
    /// not modelled: where its answer was judged (`reader.structure`), these
    /// checks' findings are not the parser's ([`super::parser_answered`]).
    pub reads_text: bool,
    /// Whether the check judges what the framing's own reader answered (a
    /// read case's verdict, a read-back, the segments a parser returns)
    /// rather than the framed text. A parser that answers with segments is
    /// observed: its security findings are these checks' alone
    /// ([`super::observed_parser_owns`]).
    pub judges_answer: bool,
}

/// Every check's row, in [`Check::ALL`] order (the declaration order, so a
/// check's discriminant is its row's index).
pub(super) const TABLE: [CheckRow; 21] = [
    CheckRow {
        check: Check::FrameShape,
        name: "frame.shape",
        primary_rank: 11,
        hint: "Write every frame the same way: the same constant text, delimiters, header lines and separator around the content, whatever the content is.",
        rule: "The framed output fits the frame layout learned by calibration, part by part.",
        effect: "breaks the frame's shape",
        caused_by: None,
        reads_text: true,
        judges_answer: false,
    },
    CheckRow {
        check: Check::OuterText,
        name: "frame.outer-text",
        primary_rank: 9,
        hint: "Write nothing derived from the input before the opening delimiter or after the closing one; keep preambles and notices constant.",
        rule: "Text outside the frame is only the framing's own constant text; nothing there derives from the input.",
        effect: "is written outside the frame",
        caused_by: None,
        reads_text: true,
        judges_answer: false,
    },
    CheckRow {
        check: Check::FrameSeparation,
        name: "frame.separation",
        primary_rank: 10,
        hint: "Frame every item alone and the same way whatever the other items hold: defang the delimiters in each item so none can end its frame or open another, and never skip, merge or split items.",
        rule: "Several frames per call: every item is read in its own frame, in order; no item's content moves into, merges with or creates another frame.",
        effect: "moves into, merges with or creates another item's frame",
        caused_by: Some(Check::DelimiterCensus),
        reads_text: true,
        judges_answer: false,
    },
    CheckRow {
        check: Check::DelimiterCensus,
        name: "delimiter.census",
        primary_rank: 1,
        hint: "Defang every reading of every structural token in content and header fields, at the level you claim: case-fold, NFKC-normalise, drop ignorable characters and map lookalikes before matching.",
        rule: "The framed output holds exactly the framing's own live delimiters, in order; content adds none.",
        effect: "leaves a live delimiter in the framed output",
        caused_by: None,
        reads_text: true,
        judges_answer: false,
    },
    CheckRow {
        check: Check::CanaryContainment,
        name: "canary.containment",
        primary_rank: 8,
        hint: "Content must not be able to end the frame or the header: defang the closing delimiter and blank-line tricks before writing.",
        rule: "Text planted in a field stays inside the region it was put in: no breakout.",
        effect: "lets planted text escape its region",
        caused_by: None,
        reads_text: true,
        judges_answer: false,
    },
    CheckRow {
        check: Check::TagIntegrity,
        name: "tag.integrity",
        primary_rank: 5,
        hint: "Validate attribute keys against a name grammar and escape values (& \" < > and line breaks); never write caller keys raw.",
        rule: "The attribute-carrying tag parses to exactly the supplied attributes.",
        effect: "rewrites the tag's attributes",
        caused_by: None,
        reads_text: true,
        judges_answer: false,
    },
    CheckRow {
        check: Check::HeaderIntegrity,
        name: "header.integrity",
        primary_rank: 6,
        hint: "Replace or escape every line break (CR, LF, VT, FF, NEL, U+2028, U+2029) in provenance, kind and attribute values.",
        rule: "Header fields cannot move the header boundary or carry line breaks.",
        effect: "moves the header boundary or puts a line break in it",
        caused_by: None,
        reads_text: true,
        judges_answer: false,
    },
    CheckRow {
        check: Check::ReaderVerdict,
        name: "reader.verdict",
        primary_rank: 14,
        hint: "Read back exactly one frame: anchored opening tag, header ended by the first blank line, closing tag at the very end, and no live token inside (at the Unicode level).",
        rule: "The reader rejects what is not exactly one frame and accepts real frames.",
        effect: "is accepted by the reader when it must be rejected",
        caused_by: None,
        reads_text: false,
        judges_answer: true,
    },
    CheckRow {
        check: Check::Roundtrip,
        name: "roundtrip",
        primary_rank: 15,
        hint: "The reader must return the body the writer wrote, without trimming or re-escaping it.",
        rule: "Reading the framed text back returns the framed body.",
        effect: "does not read back as it was written",
        caused_by: None,
        reads_text: false,
        judges_answer: true,
    },
    CheckRow {
        check: Check::Fidelity,
        name: "fidelity",
        primary_rank: 17,
        hint: "Leave content that does not read as a delimiter byte for byte unchanged; do not rewrite ordinary words or whitespace.",
        rule: "Benign content, attributes and provenance pass through unchanged, and are not refused.",
        effect: "is changed or refused although it is ordinary",
        caused_by: None,
        reads_text: false,
        judges_answer: false,
    },
    CheckRow {
        check: Check::NonceUnpredictable,
        name: "nonce.unpredictable",
        primary_rank: 4,
        hint: "Draw the nonce per call from a CSPRNG (Python `secrets.token_hex(16)`, Node `crypto.randomBytes(16)`), never from a counter, the clock or the content.",
        rule: "The per-call nonce is distinct, not a counter, clock or content hash, and has at least 64 bits of estimated entropy.",
        effect: "meets a nonce an attacker can predict",
        caused_by: None,
        reads_text: false,
        judges_answer: false,
    },
    CheckRow {
        check: Check::NonceMatched,
        name: "nonce.matched",
        primary_rank: 2,
        hint: "Write the same nonce value in the opener and the closer, and have the reader reject a frame whose values differ or are missing.",
        rule: "Opener and closer carry the same nonce, and the reader rejects frames whose values differ or are missing.",
        effect: "is framed by markers whose nonces need not match",
        caused_by: None,
        reads_text: true,
        judges_answer: false,
    },
    CheckRow {
        check: Check::NonceReplay,
        name: "nonce.replay",
        primary_rank: 3,
        hint: "Draw a fresh nonce for every call: a value reused across calls lets content carry a closer copied from an earlier frame.",
        rule: "A delimiter copied from an earlier frame is not live in a later one.",
        effect: "replays an earlier frame's marker and it is live",
        caused_by: None,
        reads_text: true,
        judges_answer: false,
    },
    CheckRow {
        check: Check::NonceConfusable,
        name: "nonce.confusable",
        primary_rank: 18,
        hint: "Defence in depth: also neutralise markers spelled like yours without the nonce or with another value; a model may read them as boundaries.",
        rule: "No marker spelled like the frame's own without its nonce, or with another value, is left live (reported apart from security and fidelity).",
        effect: "leaves a marker live without the frame's nonce",
        caused_by: None,
        reads_text: true,
        judges_answer: false,
    },
    CheckRow {
        check: Check::TemplateControl,
        name: "template.control",
        primary_rank: 19,
        hint: "Neutralise chat-template control strings and turn markers (<|im_end|>, <|eot_id|>, [/INST], </s>, <end_of_turn>, \\n\\nHuman:, ### Instruction:) in every field at the Unicode level, and encode with special tokens disabled.",
        rule: "No chat-template control string or turn marker from the input is readable in the framed output (outer-layer class: reported apart from security and fidelity; failing under --strict or a declared context).",
        effect: "leaves a chat-template control string or turn marker readable in the framed output",
        caused_by: None,
        reads_text: true,
        judges_answer: false,
    },
    CheckRow {
        check: Check::TargetFault,
        name: "target.fault",
        primary_rank: 16,
        hint: "Handle every input without dying, hanging or writing to stdout: refuse what you cannot frame (raise the helper's Refusal, reply `error`), and send logs to stderr.",
        rule: "The target answers the input: it does not crash, hang or break the protocol on it, again on a retry with a fresh target, while it answers a benign input (fault class: no breakout is claimed; failing under every gate).",
        effect: "makes the target crash, hang or break the protocol (a fresh target did it again)",
        caused_by: None,
        reads_text: false,
        judges_answer: false,
    },
    CheckRow {
        check: Check::ReaderStructure,
        name: "reader.structure",
        primary_rank: 13,
        hint: "Parse only the framing's own records: escape or reject every line break your parser splits at (splitlines() splits at CR, VT, FF, FS, GS, RS, NEL, U+2028 and U+2029 too) and every record or role prefix in content, and never fall back to reading the whole text as one message.",
        rule: "A reader that parses frames into segments returns the structure a benign frame reads back as: as many segments, the same roles and fields, and the content only in its own segment.",
        effect: "makes the reader return another structure: a forged segment, role or field",
        caused_by: None,
        reads_text: false,
        judges_answer: true,
    },
    CheckRow {
        check: Check::FrameAbsent,
        name: "frame.absent",
        primary_rank: 20,
        hint: "Mark where untrusted content starts and ends: put it between delimiters the content cannot forge (a random per-call nonce in the tags, or a closer defanged in the content), and say in the frame where it came from.",
        rule: "The framing puts a marker around the content that tells it from the surrounding text (judged on benign plants for a profile declaring `delimiters: none`, which is audited by this check alone, and on every case whose output is its content with no frame around it).",
        effect: "reaches the reader with no marker around it, so nothing tells it from the surrounding text",
        caused_by: None,
        reads_text: false,
        judges_answer: false,
    },
    CheckRow {
        check: Check::PartsStructure,
        name: "parts.structure",
        primary_rank: 12,
        hint: "Answer the same parts whatever the content is: keep all of it in its own part, never split it into more parts or take a role or a part boundary from its text, and escape what your frame inside that part needs escaped.",
        rule: "A framing that answers a wrap with a list of parts returns the parts a benign wrap answers: as many, the same roles, constant parts unchanged, and the content only in its own part.",
        effect: "makes the framing answer other parts: a forged part or role, or content outside its own part",
        caused_by: None,
        reads_text: false,
        judges_answer: false,
    },
    CheckRow {
        check: Check::RecordsForged,
        name: "records.forged",
        primary_rank: 7,
        hint: "Keep content from starting a record line: escape every line break a reader splits at (LF, CR, VT, FF, NEL, U+2028, U+2029) or indent each continuation line, and do not rely on neutralising only your own role names or your own marker: a line `system: …` starts a turn for a model too.",
        rule: "In a frame holding role records, no line the content starts reads as a record marker with any role (system, user, assistant, tool, developer, human, ai, function or the framing's own), in the framing's marker spelling or, for a model, a chat transcript's (`system:`, `[system]`, `### System:`), at each reader level's line breaks and folding.",
        effect: "starts a line that reads as a role record of its own",
        caused_by: None,
        reads_text: true,
        judges_answer: false,
    },
    CheckRow {
        check: Check::QuoteEscape,
        name: "quote.escape",
        primary_rank: 0,
        hint: "Write the line prefix after every line break a reader splits at (LF, CR, CRLF, VT, FF, NEL, U+2028, U+2029), not only after LF, and never let a content line through without it.",
        rule: "In a body quoted with a line prefix, every line the content starts begins with the prefix, at each reader level's line breaks.",
        effect: "starts a line without the quote prefix, which a reader takes for the framing's own",
        caused_by: None,
        reads_text: true,
        judges_answer: false,
    },
];

impl Check {
    /// This check's row of `TABLE`.
    pub fn row(self) -> &'static CheckRow {
        &TABLE[self as usize]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_check_has_its_own_row_in_declaration_order() {
        for (i, check) in Check::ALL.into_iter().enumerate() {
            assert_eq!(TABLE[i].check, check);
            assert_eq!(check as usize, i);
            assert_eq!(check.row().check, check);
        }
    }

    #[test]
    fn names_are_the_serialized_ones_and_ranks_are_a_permutation() {
        let mut ranks: Vec<u8> = TABLE.iter().map(|r| r.primary_rank).collect();
        ranks.sort();
        assert_eq!(ranks, (0..TABLE.len() as u8).collect::<Vec<_>>());
        for row in TABLE {
            let serialized = serde_json::to_value(row.check).unwrap();
            assert_eq!(serialized, row.name);
            assert!(!row.hint.is_empty() && !row.rule.is_empty() && !row.effect.is_empty());
        }
    }
}
