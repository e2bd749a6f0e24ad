//! Grammar `long-bracket`: the content inside a Lua long string,
//! `[==[ … ]==]`, as Lua's lexer reads it.
//!
//! An opening long bracket is `[`, a run of `n` equals signs (its level,
//! possibly none) and `[`; the string ends at the first closing long
//! bracket of the *same* level, `]`, `n` equals signs, `]`. Every other
//! bracket inside is text: `]]` does not end a `[=[` string, and `]=]`
//! does not end a `[[` one. No escape exists inside a long string, so a
//! careful framing picks a level one more than the longest `]=*` run that
//! ends in `]` in the content; its level varies with the content, and each
//! output is judged by the level its own opener shows (the frame key), as a
//! fence is judged by its own run. A framing that writes a fixed level is
//! ended by content holding that level's closer.
//!
//! The declaration's `open` and `close` are the long brackets the framing
//! was seen to write (`[==[`, `]==]`; `[[` and `]]` when not declared): the
//! level the catalogue renders its closers at. Liveness does not depend on
//! them: any level opens a string. Brackets and equals signs are read as
//! the reader's level folds them, so a fullwidth `］` or `＝` is a bracket
//! for the `unicode` reader alone.

use super::{
    Around, DelimiterKind, Delimiters, Extras, Fields, Form, FrameKey, Grammar, GrammarAttack,
    GrammarError, GrammarKind, Guess, LiveDelimiter, Liveness, Piece, RunChars, Shape, SizedRun,
    Spelling, Vocabulary, MASK,
};
use crate::reader::Folded;

/// The token an inferred long string is declared with: it names the frame
/// in reports, and no bracket spells it.
const LONG_TOKEN: &str = "STRING";

/// The equals sign a level is counted in; the frame key's run character.
const LEVEL_CHAR: char = '=';

const ATTACKS: &[GrammarAttack] = &[GrammarAttack {
    case: "long-bracket-other-levels",
    what: "closing long brackets of every low level: a framing that sizes its level by some \
           runs and not others, or writes a fixed one, is ended by one of them",
}];

/// The `long-bracket` grammar: the frame's name and the level the framing
/// was seen to write.
#[derive(Debug, Clone, PartialEq, Eq)]
struct LongBracket {
    vocabulary: Vocabulary,
    level: usize,
}

/// The `long-bracket` shape.
pub(super) struct LongBracketShape;

impl Shape for LongBracketShape {
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
        let level = match (extras.open, extras.close) {
            (None, None) => 0,
            (Some(open), Some(close)) => {
                let open_level = bracket_level(open, '[')?;
                if bracket_level(close, ']')? != open_level {
                    return Err(bad(close, "a closing long bracket of the opener's level"));
                }
                open_level
            }
            (Some(t), None) | (None, Some(t)) => {
                return Err(bad(t, "`open` and `close` are declared together"))
            }
        };
        Ok(Box::new(LongBracket { vocabulary, level }))
    }

    /// With the documents and string literals: an opening long bracket at
    /// the end of the text before the content is no marker line.
    fn guesses(&self) -> &'static [Guess] {
        &[Guess {
            rank: 0,
            read: guess,
        }]
    }

    fn evidence(&self) -> &'static str {
        "an opening long bracket (`[[`, `[==[`) right before the content and the closing one of \
         its level right after it (a Lua long string)"
    }

    /// The equals signs between a long bracket's two brackets: the level
    /// a careful framing raises per content.
    fn content_sized_run(&self, delimiter_text: &str) -> Option<SizedRun> {
        let edge = delimiter_text.chars().next()?;
        if !matches!(edge, '[' | ']') {
            return None;
        }
        let level = bracket_level(delimiter_text, edge).ok()?;
        Some(SizedRun {
            at: 1..1 + level,
            min: 0,
            chars: RunChars::Level,
        })
    }

    fn example(&self) -> Delimiters {
        Delimiters {
            open: Some("[==[".into()),
            close: Some("]==]".into()),
            ..Delimiters::simple(GrammarKind::LongBracket, LONG_TOKEN)
        }
    }
}

/// A template that is no long bracket.
fn bad(template: &str, reason: &str) -> GrammarError {
    GrammarError::BadTemplate {
        template: template.into(),
        reason: format!("grammar long-bracket needs {reason}"),
    }
}

/// The level of `text`, a long bracket of `edge` (`[` or `]`) written
/// alone: `edge`, equals signs, `edge`.
fn bracket_level(text: &str, edge: char) -> Result<usize, GrammarError> {
    text.strip_prefix(edge)
        .and_then(|t| t.strip_suffix(edge))
        .filter(|run| run.chars().all(|c| c == LEVEL_CHAR))
        .map(str::len)
        .ok_or_else(|| {
            bad(
                text,
                &format!("a long bracket: {edge}, equals signs, {edge}"),
            )
        })
}

/// The long bracket of `edge` starting at folded index `i`: its level and
/// the folded index just past it.
fn bracket_at(folded: &Folded<'_>, i: usize, edge: char) -> Option<(usize, usize)> {
    if folded.ch(i) != Some(edge) {
        return None;
    }
    let mut j = i + 1;
    while folded.ch(j) == Some(LEVEL_CHAR) {
        j += 1;
    }
    (folded.ch(j) == Some(edge)).then_some((j - i - 1, j + 1))
}

impl LongBracket {
    /// Lua's scan of `folded`, starting inside a string of level `inside`
    /// when given: every long bracket a reader reads as one, with how it
    /// reads it. Inside a string only the closer of its level is live (the
    /// frame's own closer when the scan started in the frame); outside,
    /// an opener starts a string and a closer is a stray one.
    fn scan(&self, folded: &Folded<'_>, inside: Option<usize>) -> Vec<(LiveDelimiter, Liveness)> {
        let mut found = Vec::new();
        let mut push = |kind, from: usize, to: usize, liveness| {
            let span = folded.source_span(from, to);
            let d = LiveDelimiter {
                token: 0,
                kind,
                start: span.start,
                end: span.end,
                nonce: None,
                request_kind: None,
            };
            found.push((d, liveness));
        };
        // The open string's level, and whether it is the frame's.
        let mut open = inside.map(|level| (level, true));
        let mut i = 0;
        while i < folded.len() {
            let closer = bracket_at(folded, i, ']');
            match (open, closer) {
                (Some((level, frame)), Some((at, end))) if at == level => {
                    let liveness = if frame {
                        Liveness::Closer
                    } else {
                        Liveness::Live
                    };
                    push(DelimiterKind::Close, i, end, liveness);
                    open = None;
                    i = end;
                }
                (Some(_), _) => i += 1,
                (None, Some((_, end))) => {
                    push(DelimiterKind::Close, i, end, Liveness::Live);
                    i = end;
                }
                (None, None) => match bracket_at(folded, i, '[') {
                    Some((level, end)) => {
                        push(DelimiterKind::Open, i, end, Liveness::Live);
                        open = Some((level, false));
                        i = end;
                    }
                    None => i += 1,
                },
            }
        }
        found
    }

    /// A long bracket of this grammar's level as typed pieces.
    fn spell(&self, edge: char) -> Spelling {
        let mut s = Spelling::default();
        s.push(Piece::Punct(edge));
        s.0.extend(std::iter::repeat_n(Piece::Punct(LEVEL_CHAR), self.level));
        s.push(Piece::Punct(edge));
        s
    }
}

impl Grammar for LongBracket {
    fn kind(&self) -> GrammarKind {
        GrammarKind::LongBracket
    }

    fn live(&self, folded: &Folded<'_>) -> Vec<LiveDelimiter> {
        self.scan(folded, None)
            .into_iter()
            .filter(|(_, l)| l.is_live())
            .map(|(d, _)| d)
            .collect()
    }

    /// The string's level, from its opener: held as a run of equals signs
    /// in the key's `fence`, a frame sized by a run as a fence is.
    fn frame_key(&self, folded: &Folded<'_>, opener: &LiveDelimiter) -> FrameKey {
        let at = folded.index_at_byte(opener.start);
        FrameKey {
            fence: bracket_at(folded, at, '[').map(|(level, _)| (LEVEL_CHAR, level)),
            ..FrameKey::default()
        }
    }

    /// Scans from inside the frame's string: its level's closer ends it,
    /// every other bracket is text until then.
    fn live_in(&self, folded: &Folded<'_>, frame: &FrameKey) -> Vec<(LiveDelimiter, Liveness)> {
        self.scan(folded, frame.fence.map(|(_, level)| level))
    }

    fn render(&self, form: Form, token: usize) -> Spelling {
        match form {
            Form::Token => Spelling(self.vocabulary.render_token(token)),
            Form::Open | Form::OpenStart => self.spell('['),
            Form::Close => self.spell(']'),
        }
    }

    fn opener_has_attributes(&self) -> bool {
        false
    }

    /// A long bracket is a run, not a bracketed word.
    fn brackets(&self) -> Option<(char, char)> {
        None
    }

    /// What search edits to forge the end of the frame: the closer.
    fn anchor(&self, _: usize) -> String {
        self.spell(']').plain()
    }

    fn attacks(&self) -> &'static [GrammarAttack] {
        ATTACKS
    }
}

/// An opening long bracket ending the text before the content (a line
/// break after it is skipped by Lua, so may come between), and the closer
/// of its level right after the content's last word, or on the next line.
fn guess(around: &Around<'_>) -> Option<Delimiters> {
    let head = around.head.strip_suffix('\n').unwrap_or(around.head);
    let head = head.strip_suffix('[')?;
    let level = head.len() - head.trim_end_matches(LEVEL_CHAR).len();
    head.trim_end_matches(LEVEL_CHAR).strip_suffix('[')?;
    let close = format!("]{}]", "=".repeat(level));
    let rest = around
        .tail
        .trim_start_matches(|c: char| c.is_ascii_alphanumeric());
    let rest = rest.strip_prefix('\n').unwrap_or(rest);
    if !rest.starts_with(&close) || close.contains(MASK) {
        return None;
    }
    Some(Delimiters {
        open: Some(format!("[{}[", "=".repeat(level))),
        close: Some(close),
        ..Delimiters::simple(GrammarKind::LongBracket, LONG_TOKEN)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::level::ReaderLevel::{self, AsciiCaseInsensitive as Ci, Exact, Unicode};
    use crate::reader::Reader;

    fn grammar(open: &str, close: &str) -> Box<dyn Grammar> {
        let extras = Extras {
            open: Some(open),
            close: Some(close),
            ..Extras::default()
        };
        LongBracketShape
            .build(Vocabulary::plain(&[LONG_TOKEN]), extras)
            .unwrap()
    }

    fn live(text: &str, level: ReaderLevel) -> Vec<(DelimiterKind, &str)> {
        grammar("[[", "]]")
            .live(&Reader::new(level).fold(text))
            .into_iter()
            .map(|d| (d.kind, &text[d.start..d.end]))
            .collect()
    }

    #[test]
    fn only_the_closer_of_the_openers_level_ends_the_string() {
        use DelimiterKind::{Close, Open};
        let text = "x = [==[a ]] b ]=] c ]===] d]==] e";
        assert_eq!(live(text, Exact), vec![(Open, "[==["), (Close, "]==]")]);
        // Level zero: the first `]]` ends it; a `[` inside opens nothing.
        assert_eq!(
            live("[[a [=[ b]] c", Exact),
            vec![(Open, "[["), (Close, "]]")]
        );
        // Not a long bracket: `[ [`, `[=x[`.
        assert!(live("t[ [x]] [=x[", Exact).iter().all(|(k, _)| *k == Close));
    }

    #[test]
    fn each_reader_folds_its_own_brackets() {
        let levels = |text: &str| -> Vec<ReaderLevel> {
            ReaderLevel::ALL
                .into_iter()
                .filter(|&l| live(text, l).len() == 2)
                .collect()
        };
        assert_eq!(levels("[=[x]=]"), vec![Exact, Ci, Unicode]);
        assert_eq!(levels("[=[x\u{FF3D}=]"), vec![Unicode]);
        assert_eq!(levels("[=[x]\u{FF1D}]"), vec![Unicode]);
    }

    #[test]
    fn inside_a_frame_other_levels_are_text() {
        let g = grammar("[[", "]]");
        let frame = "[=[\nbody]=]";
        let folded = Reader::new(Exact).fold(frame);
        let opener = g.live(&folded)[0];
        let key = g.frame_key(&folded, &opener);
        assert_eq!(key.fence, Some(('=', 1)));
        let body = "a]] b]==] c]=] d[[";
        let found: Vec<(&str, Liveness)> = g
            .live_in(&Reader::new(Exact).fold(body), &key)
            .into_iter()
            .map(|(d, l)| (&body[d.start..d.end], l))
            .collect();
        assert_eq!(
            found,
            vec![("]=]", Liveness::Closer), ("[[", Liveness::Live)]
        );
    }

    #[test]
    fn the_declared_level_is_what_renders() {
        let g = grammar("[==[", "]==]");
        assert_eq!(g.render(Form::Open, 0).plain(), "[==[");
        assert_eq!(g.render(Form::Close, 0).plain(), "]==]");
        assert_eq!(g.anchor(0), "]==]");
        let bad = |o, c| {
            LongBracketShape
                .build(
                    Vocabulary::plain(&[LONG_TOKEN]),
                    Extras {
                        open: Some(o),
                        close: Some(c),
                        ..Extras::default()
                    },
                )
                .is_err()
        };
        assert!(bad("[==[", "]=]"));
        assert!(bad("[=x[", "]=x]"));
        assert!(bad("local s = [[", "]]"));
    }

    #[test]
    fn the_experiment_reads_the_level_around_the_content() {
        let around = |head, tail| Around {
            head,
            tail,
            field_marks: &[],
            quoted: false,
            output: "",
            content: "",
        };
        let d = guess(&around("local page = [==[\n", "z1]==]\nreturn page")).unwrap();
        assert_eq!(d.open.as_deref(), Some("[==["));
        assert_eq!(d.close.as_deref(), Some("]==]"));
        let d = guess(&around("text = [=[\n", "z1\n]=]\nreturn text")).unwrap();
        assert_eq!(d.close.as_deref(), Some("]=]"));
        let d = guess(&around("return [[", "z1]]")).unwrap();
        assert_eq!(d.close.as_deref(), Some("]]"));
        // The closer of another level, or none: no long string.
        assert!(guess(&around("return [=[", "z1]]")).is_none());
        assert!(guess(&around("items[", "z1]")).is_none());
    }
}
