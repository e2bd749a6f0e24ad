//! Grammar `inline-pair`: two distinct marks around the content, inside
//! running text: `Document: «…»`, `“…”`, `【…】`, `<<…>>`, or an attribute
//! value `<doc text="…"/>` (the opener `text="`, the closer `"`).
//!
//! The marks are declared as literal text (`open`, `close`; a brace is
//! written `{{` or `}}`) and name no token: the profile's token only names
//! the frame in reports. Unlike a marker line, a mark is live **wherever**
//! a reader sees it, in the middle of a line too, folded by the reader's
//! level (case, NFKC, lookalikes): a `»` anywhere in the content ends a
//! `«…»` quote early. An opener that starts with a letter is not read
//! after a name character (`context="` holds no `text="`).
//!
//! Where a reader's level folds both marks to the same text (a fullwidth
//! `＂` opener before a `"` closer, for the `unicode` level), it cannot
//! tell them apart: it pairs them by order, the first opening and the next closing,
//! as a same-line marker is paired.

use super::begin_end::escape_literal;
use super::{
    Around, DelimiterKind, Delimiters, Extras, Fields, Form, Grammar, GrammarError, GrammarKind,
    Guess, LiveDelimiter, Piece, Shape, Spelling, Vocabulary, MASK,
};
use crate::reader::Folded;

/// The token an inferred inline pair is declared with: it names the frame
/// in reports, and no mark spells it.
pub(super) const INLINE_TOKEN: &str = "QUOTE";

/// The `inline-pair` grammar: its vocabulary (for the frame's name) and its
/// two marks, as literal text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct InlinePair {
    vocabulary: Vocabulary,
    open: String,
    close: String,
}

/// The `inline-pair` shape.
pub(super) struct InlinePairShape;

impl Shape for InlinePairShape {
    fn fields(&self) -> Fields {
        Fields {
            templates: true,
            ..Fields::default()
        }
    }

    fn build(
        &self,
        vocabulary: Vocabulary,
        extras: Extras<'_>,
    ) -> Result<Box<dyn Grammar>, GrammarError> {
        let (Some(open), Some(close)) = (extras.open, extras.close) else {
            return Err(GrammarError::MissingMarks);
        };
        let (open, close) = (literal(open)?, literal(close)?);
        if open == close {
            return Err(GrammarError::SameMarks(open));
        }
        Ok(Box::new(InlinePair {
            vocabulary,
            open,
            close,
        }))
    }

    /// Tried after every other shape: a mark before and after the content
    /// is the loosest reading there is, so any shape that reads more
    /// (an element, a marker line, a label) goes first.
    fn guesses(&self) -> &'static [Guess] {
        &[Guess {
            rank: 90,
            read: guess,
        }]
    }

    fn evidence(&self) -> &'static str {
        "a mark right before the content, inside its line, and its mirror image right after it \
         (the open and close marks)"
    }

    fn example(&self) -> Delimiters {
        Delimiters {
            open: Some("«".into()),
            close: Some("»".into()),
            ..Delimiters::simple(GrammarKind::InlinePair, INLINE_TOKEN)
        }
    }
}

/// A declared mark as the text it stands for: `{{` and `}}` are a brace;
/// a lone brace would be a placeholder, which a mark has none of.
pub(super) fn literal(mark: &str) -> Result<String, GrammarError> {
    let bad = |reason: &str| GrammarError::BadTemplate {
        template: mark.into(),
        reason: reason.into(),
    };
    let mut out = String::with_capacity(mark.len());
    let mut rest = mark;
    while let Some(c) = rest.chars().next() {
        if let Some(after) = rest.strip_prefix("{{").or_else(|| rest.strip_prefix("}}")) {
            out.push(c);
            rest = after;
        } else if matches!(c, '{' | '}') {
            return Err(bad(
                "an inline mark is literal text with no placeholder; write a brace as {{ or }}",
            ));
        } else {
            out.push(c);
            rest = &rest[c.len_utf8()..];
        }
    }
    if out.trim().is_empty() {
        return Err(bad("an inline mark needs a character that is not a space"));
    }
    Ok(out)
}

impl InlinePair {
    /// Where `mark` ends when a reader sees it at folded index `i`.
    pub(super) fn mark_at(folded: &Folded<'_>, i: usize, mark: &str) -> Option<usize> {
        let starts_name = mark.chars().next().is_some_and(char::is_alphanumeric);
        let after_name = i
            .checked_sub(1)
            .and_then(|p| folded.ch(p))
            .is_some_and(|c| folded.reader.is_name_char(c));
        if starts_name && after_name {
            return None;
        }
        folded.match_literal(i, mark)
    }
}

/// The marks as typed pieces: words a variant respells by case,
/// punctuation it respells as fullwidth or lookalike characters.
pub(super) fn pieces(mark: &str) -> Spelling {
    let mut s = Spelling::default();
    let mut word = String::new();
    for c in mark.chars() {
        if c.is_alphanumeric() {
            word.push(c);
            continue;
        }
        if !word.is_empty() {
            s.push(Piece::Word(std::mem::take(&mut word)));
        }
        s.push(if c.is_whitespace() {
            Piece::Space(c.to_string())
        } else {
            Piece::Punct(c)
        });
    }
    if !word.is_empty() {
        s.push(Piece::Word(word));
    }
    s
}

impl Grammar for InlinePair {
    fn kind(&self) -> GrammarKind {
        GrammarKind::InlinePair
    }

    /// The opener is tried first at each place: it may end with the
    /// closer's text (`text="` before `"`), which is then part of it.
    fn live(&self, folded: &Folded<'_>) -> Vec<LiveDelimiter> {
        let mut found = Vec::new();
        let mut i = 0;
        while i < folded.len() {
            let hit = [
                (DelimiterKind::Open, &self.open),
                (DelimiterKind::Close, &self.close),
            ]
            .into_iter()
            .find_map(|(kind, mark)| Some((kind, Self::mark_at(folded, i, mark)?)));
            let Some((kind, end)) = hit else {
                i += 1;
                continue;
            };
            let span = folded.source_span(i, end);
            found.push(LiveDelimiter {
                token: 0,
                kind,
                start: span.start,
                end: span.end,
                nonce: None,
                request_kind: None,
            });
            i = end;
        }
        let reader = folded.reader;
        if reader.fold_str(&self.open) == reader.fold_str(&self.close) {
            // One mark to this reader: the first opens, the next closes.
            for (n, d) in found.iter_mut().enumerate() {
                d.kind = if n % 2 == 0 {
                    DelimiterKind::Open
                } else {
                    DelimiterKind::Close
                };
            }
        }
        found
    }

    fn render(&self, form: Form, token: usize) -> Spelling {
        match form {
            Form::Token => Spelling(self.vocabulary.render_token(token)),
            Form::Open | Form::OpenStart => pieces(&self.open),
            Form::Close => pieces(&self.close),
        }
    }

    fn opener_has_attributes(&self) -> bool {
        false
    }

    /// The marks are not brackets around a name.
    fn brackets(&self) -> Option<(char, char)> {
        None
    }

    /// What search edits to forge the end of the frame: the closer, since
    /// no mark spells the token.
    fn anchor(&self, _: usize) -> String {
        self.close.clone()
    }
}

/// Marks whose closing partner is another character; any other mark
/// closes with itself (`"`, `'`, `*`, `|`).
const MIRRORED: &[(char, char)] = &[
    ('«', '»'),
    ('»', '«'),
    ('‹', '›'),
    ('›', '‹'),
    ('“', '”'),
    ('‘', '’'),
    ('„', '“'),
    ('‚', '‘'),
    ('(', ')'),
    ('[', ']'),
    ('{', '}'),
    ('<', '>'),
    ('⟨', '⟩'),
    ('〈', '〉'),
    ('《', '》'),
    ('「', '」'),
    ('『', '』'),
    ('【', '】'),
    ('〔', '〕'),
    ('〖', '〗'),
    ('〘', '〙'),
    ('〚', '〛'),
    ('（', '）'),
    ('［', '］'),
    ('｛', '｝'),
    ('＜', '＞'),
];

fn mirror(c: char) -> char {
    MIRRORED
        .iter()
        .find(|(open, _)| *open == c)
        .map_or(c, |(_, close)| *close)
}

/// `init`'s experiment: the content starts inside a line right after a
/// run of marks (with the word they are attached to, `text="`), and right
/// after the content's last word comes the mirror image of those marks
/// (`«` … `»`, `<<` … `>>`), or of their inner part (`="` … `"`). A quote
/// that closes with itself and stands alone before the content
/// (`Observation: "…"`) is a string literal the body's encoding reads,
/// not a pair: it is left to the label reading.
fn guess(around: &Around<'_>) -> Option<Delimiters> {
    let line = around.head.rsplit(['\n', '\r']).next()?;
    let opener = line.rsplit(char::is_whitespace).next()?;
    let marks_at = opener
        .char_indices()
        .rev()
        .take_while(|&(_, c)| !c.is_alphanumeric() && c != MASK)
        .last()?
        .0;
    let marks = &opener[marks_at..];
    let rest = around
        .tail
        .trim_start_matches(|c: char| c.is_ascii_alphanumeric());
    let closer: String = marks
        .chars()
        .rev()
        .map(mirror)
        .zip(rest.chars())
        .take_while(|(want, got)| want == got)
        .map(|(c, _)| c)
        .collect();
    let unsafe_text =
        |t: &str| t.contains(MASK) || around.field_marks.iter().any(|m| t.contains(m));
    if closer.is_empty() || opener == closer || unsafe_text(opener) {
        return None;
    }
    Some(Delimiters {
        open: Some(escape_literal(opener)),
        close: Some(escape_literal(&closer)),
        ..Delimiters::simple(GrammarKind::InlinePair, INLINE_TOKEN)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::level::ReaderLevel::{self, Exact, Unicode};
    use crate::reader::Reader;
    use DelimiterKind::{Close, Open};

    fn pair(open: &str, close: &str) -> Box<dyn Grammar> {
        let extras = Extras {
            open: Some(open),
            close: Some(close),
            marker: None,
            escape: None,
        };
        InlinePairShape
            .build(Vocabulary::plain(&[INLINE_TOKEN]), extras)
            .unwrap()
    }

    /// The kind and text of every live mark in `text` at `level`.
    fn live(g: &dyn Grammar, text: &str, level: ReaderLevel) -> Vec<(DelimiterKind, String)> {
        g.live(&Reader::new(level).fold(text))
            .iter()
            .map(|d| (d.kind, text[d.start..d.end].to_string()))
            .collect()
    }

    #[test]
    fn a_closer_is_live_anywhere_in_a_line() {
        let g = pair("«", "»");
        let text = "Document: «a » b» and more";
        assert_eq!(
            live(&*g, text, Exact),
            vec![(Open, "«".into()), (Close, "»".into()), (Close, "»".into())]
        );
    }

    #[test]
    fn an_attribute_opener_holds_its_quote_and_needs_a_name_boundary() {
        let g = pair("text=\"", "\"");
        let text = "<doc context=\"x\" text=\"a\"/>";
        assert_eq!(
            live(&*g, text, Exact),
            vec![
                (Close, "\"".into()),
                (Close, "\"".into()),
                (Open, "text=\"".into()),
                (Close, "\"".into())
            ]
        );
    }

    #[test]
    fn a_fullwidth_closer_is_live_only_where_the_level_folds_it() {
        let g = pair("<<", ">>");
        let text = "<<a ＞＞ b>>";
        assert_eq!(live(&*g, text, Exact).len(), 2);
        assert_eq!(
            live(&*g, text, Unicode),
            vec![
                (Open, "<<".into()),
                (Close, "＞＞".into()),
                (Close, ">>".into())
            ]
        );
    }

    /// A reader that folds both marks to one text pairs them by order; one
    /// that tells them apart reads every `"` as a closer.
    #[test]
    fn marks_one_level_folds_alike_pair_by_order_there() {
        let g = pair("＂", "\"");
        let text = "＂a\"b\"";
        let kinds = |level| -> Vec<DelimiterKind> {
            live(&*g, text, level).into_iter().map(|(k, _)| k).collect()
        };
        assert_eq!(kinds(Exact), vec![Open, Close, Close]);
        assert_eq!(kinds(Unicode), vec![Open, Close, Open]);
    }

    #[test]
    fn equal_or_missing_marks_are_refused() {
        let vocabulary = || Vocabulary::plain(&[INLINE_TOKEN]);
        let build = |open, close| {
            InlinePairShape
                .build(
                    vocabulary(),
                    Extras {
                        open,
                        close,
                        marker: None,
                        escape: None,
                    },
                )
                .err()
        };
        assert_eq!(
            build(Some("\""), Some("\"")),
            Some(GrammarError::SameMarks("\"".into()))
        );
        assert_eq!(build(Some("«"), None), Some(GrammarError::MissingMarks));
        assert!(matches!(
            build(Some("{token}"), Some("»")),
            Some(GrammarError::BadTemplate { .. })
        ));
        assert_eq!(pair("{{", "}}").render(Form::Close, 0).plain(), "}");
    }

    fn guessed(head: &str, tail: &str) -> Option<(String, String)> {
        let d = guess(&Around {
            head,
            tail,
            field_marks: &["fcprov"],
            quoted: false,
            output: "",
            content: "",
        })?;
        Some((d.open?, d.close?))
    }

    #[test]
    fn the_experiment_reads_mirrored_marks_around_inline_content() {
        let read = |open: &str, close: &str| Some((open.to_string(), close.to_string()));
        assert_eq!(guessed("Document: «", "fcbodyz1» more"), read("«", "»"));
        assert_eq!(guessed("Text: <<", "fcbodyz>>"), read("<<", ">>"));
        assert_eq!(guessed("【", "fcbodyz】\n"), read("【", "】"));
        assert_eq!(
            guessed("<doc source=\"web\" text=\"", "fcbodyz\"/>"),
            read("text=\"", "\"")
        );
        assert_eq!(guessed("{", "fcbodyz}"), read("{{", "}}"));
        // A quote alone after a label is a string literal; a mark after a
        // line break starts no inline pair; no mirror image, no pair.
        assert_eq!(guessed("Observation: \"", "fcbodyz\"\nThought:"), None);
        assert_eq!(guessed("Document: «\n", "fcbodyz»"), None);
        assert_eq!(guessed("Document: «", "fcbodyz."), None);
        assert_eq!(
            guessed("<d a=\"fcprov\" text=\"", "fcbodyz\"/>"),
            read("text=\"", "\"")
        );
        assert_eq!(guessed("<d a=fcprov\"", "fcbodyz\"/>"), None);
        assert_eq!(guessed("Doc: «", "fcbodyz»"), read("«", "»"));
    }
}
