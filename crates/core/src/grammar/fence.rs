//! Grammar `fence`: a Markdown code fence, as CommonMark reads it.
//!
//! An opening fence is a line of at most three spaces of indentation, a run
//! of three or more backticks or tildes, and an info string (the token,
//! which may be empty; a backtick fence's info string holds no backtick).
//! A closing fence is a line of at most three spaces, a run of the *same*
//! character at least as long as the opener's, and nothing but spaces
//! after it. The scan is CommonMark's: outside a fence any fence line
//! opens one; inside, only a long enough closer of the same character is
//! live, and every shorter run is content. A careful framing therefore
//! lengthens its fence past the longest run in the content.
//!
//! Lines are split and characters folded by the reader, so a fullwidth
//! backtick run (`｀｀｀`) is a fence for the Unicode reader and a line
//! ended by U+2028 is a line for it.

use super::token::match_token;
use super::{
    Around, DelimiterKind, Delimiters, Extras, Fields, Form, FrameKey, Grammar, GrammarAttack,
    GrammarError, GrammarKind, Guess, LiveDelimiter, Liveness, Piece, RunChars, Shape, SizedRun,
    Spelling, Vocabulary,
};
use crate::reader::Folded;

/// The shortest fence.
pub(super) const MIN_RUN: usize = 3;

/// The `fence` grammar.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Fence {
    vocabulary: Vocabulary,
}

const ATTACKS: &[GrammarAttack] = &[
    GrammarAttack {
        case: "fence-longer-run",
        what: "backtick runs longer than a fixed fence close it",
    },
    GrammarAttack {
        case: "fence-tilde-run",
        what: "a tilde fence closes a tilde frame and opens a new block in a backtick one",
    },
    GrammarAttack {
        case: "fence-indented-closer",
        what: "a closer indented by up to three spaces still closes",
    },
    GrammarAttack {
        case: "fence-unterminated-opener",
        what: "a fence with an info string after a closer opens a block the frame never closes",
    },
    GrammarAttack {
        case: "unicode-fence-run-split-by-invisible",
        what:
            "invisible characters inside a run hide its length from a byte count, not from a reader",
    },
];

/// A fence line, as folded indices.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct FenceLine {
    ch: char,
    run: usize,
    /// Folded index of the first fence character.
    start: usize,
    /// Folded index just past the run.
    run_end: usize,
    /// Folded index just past the last non-space character of the line.
    line_end: usize,
    /// Whether only spaces follow the run.
    bare: bool,
}

impl Fence {
    /// The grammar over `vocabulary`.
    pub(super) fn new(vocabulary: Vocabulary) -> Fence {
        Fence { vocabulary }
    }

    /// The fence on folded characters `from..to` (one line), if it is one.
    fn fence_line(folded: &Folded<'_>, from: usize, to: usize) -> Option<FenceLine> {
        let mut i = from;
        while i < to && folded.ch(i) == Some(' ') {
            i += 1;
        }
        if i - from > 3 {
            return None;
        }
        let ch = folded.ch(i).filter(|c| matches!(c, '`' | '~'))?;
        let start = i;
        while i < to && folded.ch(i) == Some(ch) {
            i += 1;
        }
        let run = i - start;
        if run < MIN_RUN {
            return None;
        }
        let run_end = i;
        let mut line_end = run_end;
        for j in run_end..to {
            let c = folded.ch(j).expect("in range");
            if ch == '`' && c == '`' {
                return None;
            }
            if c != ' ' && c != '\t' {
                line_end = j + 1;
            }
        }
        Some(FenceLine {
            ch,
            run,
            start,
            run_end,
            line_end,
            bare: line_end == run_end,
        })
    }
}

impl Fence {
    /// CommonMark's scan of `folded`, starting inside a fence of `inside`
    /// (character, length) when given: every fence line with how a reader
    /// reads it. A closer of the fence the scan starts in is
    /// [`Liveness::Closer`]; a fence line inside an open fence is dead.
    fn scan(
        &self,
        folded: &Folded<'_>,
        inside: Option<(char, usize)>,
    ) -> Vec<(LiveDelimiter, Liveness)> {
        let mut found = Vec::new();
        // The open fence, and whether it is the frame's.
        let mut open: Option<((char, usize), bool)> = inside.map(|f| (f, true));
        for line in folded.reader.lines(folded.text) {
            let (from, to) = (
                folded.index_at_byte(line.start),
                folded.index_at_byte(line.end),
            );
            let Some(fence) = Fence::fence_line(folded, from, to) else {
                continue;
            };
            let span = |end: usize| folded.source_span(fence.start, end);
            let closer = |liveness| {
                let s = span(fence.run_end);
                let d = LiveDelimiter {
                    token: 0,
                    kind: DelimiterKind::Close,
                    start: s.start,
                    end: s.end,
                    nonce: None,
                    request_kind: None,
                };
                (d, liveness)
            };
            match open {
                Some(((ch, run), frame)) if fence.ch == ch && fence.run >= run && fence.bare => {
                    found.push(closer(if frame {
                        Liveness::Closer
                    } else {
                        Liveness::Live
                    }));
                    open = None;
                }
                Some(_) => {
                    let s = span(fence.line_end);
                    let d = LiveDelimiter {
                        token: 0,
                        kind: DelimiterKind::Open,
                        start: s.start,
                        end: s.end,
                        nonce: None,
                        request_kind: None,
                    };
                    found.push((d, Liveness::Dead));
                }
                None => {
                    found.push((self.opener(folded, &fence), Liveness::Live));
                    open = Some(((fence.ch, fence.run), false));
                }
            }
        }
        found
    }

    /// The opener on fence line `fence`, with the nonce in its info string.
    fn opener(&self, folded: &Folded<'_>, fence: &FenceLine) -> LiveDelimiter {
        let info = folded.skip_space(fence.run_end);
        let nonce = self
            .vocabulary
            .tokens
            .first()
            .and_then(|t| match_token(folded, info, t, self.vocabulary.nonce.as_ref()))
            .and_then(|m| m.nonce)
            .map(|(s, e)| {
                let r = folded.source_span(s, e);
                (r.start, r.end)
            });
        let s = folded.source_span(fence.start, fence.line_end);
        LiveDelimiter {
            token: 0,
            kind: DelimiterKind::Open,
            start: s.start,
            end: s.end,
            nonce,
            request_kind: None,
        }
    }
}

/// The `fence` shape.
pub(super) struct FenceShape;

impl Shape for FenceShape {
    fn fields(&self) -> Fields {
        Fields {
            // A fence's info string may be empty.
            empty_token: true,
            ..Fields::default()
        }
    }

    fn build(
        &self,
        vocabulary: Vocabulary,
        _: Extras<'_>,
    ) -> Result<Box<dyn Grammar>, GrammarError> {
        Ok(Box::new(Fence::new(vocabulary)))
    }

    fn guesses(&self) -> &'static [Guess] {
        &[Guess {
            rank: 20,
            read: guess,
        }]
    }

    fn evidence(&self) -> &'static str {
        "a fence line right before the content"
    }

    fn example(&self) -> Delimiters {
        Delimiters::simple(GrammarKind::Fence, "text")
    }

    /// The backtick or tilde run that opens a fence delimiter.
    fn content_sized_run(&self, delimiter_text: &str) -> Option<SizedRun> {
        let run = delimiter_text
            .chars()
            .take_while(|&c| c == '`' || c == '~')
            .count();
        (run >= MIN_RUN).then_some(SizedRun {
            at: 0..run,
            min: MIN_RUN,
            chars: RunChars::Fence,
        })
    }
}

/// A fence line (3+ backticks or tildes, then an info string) right before
/// the content.
fn guess(around: &Around<'_>) -> Option<Delimiters> {
    let line = around.head.strip_suffix('\n')?.rsplit('\n').next()?;
    let run = line.chars().take_while(|&c| c == '`' || c == '~').count();
    (run >= MIN_RUN).then(|| Delimiters::simple(GrammarKind::Fence, line[run..].trim()))
}

impl Grammar for Fence {
    fn kind(&self) -> GrammarKind {
        GrammarKind::Fence
    }

    fn live(&self, folded: &Folded<'_>) -> Vec<LiveDelimiter> {
        self.scan(folded, None)
            .into_iter()
            .filter(|(_, l)| l.is_live())
            .map(|(d, _)| d)
            .collect()
    }

    /// The fence's character and length, from its opener.
    fn frame_key(&self, folded: &Folded<'_>, opener: &LiveDelimiter) -> FrameKey {
        let (from, to) = (
            folded.index_at_byte(opener.start),
            folded.index_at_byte(opener.end),
        );
        FrameKey {
            nonce: None,
            fence: Fence::fence_line(folded, from, to).map(|f| (f.ch, f.run)),
            request_kind: None,
        }
    }

    /// Scans from inside the frame's fence: a long enough bare run of its
    /// character is its closer, every other fence line is content until
    /// then, and after it every fence line is live again.
    fn live_in(&self, folded: &Folded<'_>, frame: &FrameKey) -> Vec<(LiveDelimiter, Liveness)> {
        self.scan(folded, frame.fence)
    }

    fn render(&self, form: Form, token: usize) -> Spelling {
        let token_pieces = self.vocabulary.render_token(token);
        let mut s = Spelling::default();
        match form {
            Form::Token => s.0.extend(token_pieces),
            Form::Open | Form::OpenStart => {
                s.0.extend(std::iter::repeat_n(Piece::Punct('`'), MIN_RUN));
                // Any info string opens a block: the token is not what a
                // reader compares, so variants leave it alone.
                let info = Spelling(token_pieces).plain();
                if !info.is_empty() {
                    s.push(Piece::Verbatim(info));
                }
            }
            Form::Close => s.0.extend(std::iter::repeat_n(Piece::Punct('`'), MIN_RUN)),
        }
        s
    }

    fn opener_has_attributes(&self) -> bool {
        false
    }

    /// A fence is a run, not a bracketed word.
    fn brackets(&self) -> Option<(char, char)> {
        None
    }

    fn anchor(&self, _token: usize) -> String {
        "`".repeat(MIN_RUN)
    }

    fn attacks(&self) -> &'static [GrammarAttack] {
        ATTACKS
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grammar::Vocabulary;
    use crate::level::ReaderLevel::{self, AsciiCaseInsensitive as Ci, Exact, Unicode};
    use crate::reader::Reader;
    use DelimiterKind::{Close, Open};

    fn fence() -> Fence {
        Fence::new(Vocabulary::plain(&["text"]))
    }

    fn live(text: &str, level: ReaderLevel) -> Vec<(DelimiterKind, &str)> {
        fence()
            .live(&Reader::new(level).fold(text))
            .into_iter()
            .map(|d| (d.kind, &text[d.start..d.end]))
            .collect()
    }

    #[test]
    fn commonmark_fences() {
        let text = "````text\na\n```\nb\n`````\n";
        // The three-backtick line is content inside a four-backtick fence.
        assert_eq!(
            live(text, Exact),
            vec![(Open, "````text"), (Close, "`````")]
        );
        // Tildes do not close a backtick fence.
        assert_eq!(
            live("```text\n~~~\n```\n", Exact),
            vec![(Open, "```text"), (Close, "```")]
        );
        // Up to three spaces of indentation; four is an indented code line.
        assert_eq!(
            live("```\n   ```\n", Exact),
            vec![(Open, "```"), (Close, "```")]
        );
        assert_eq!(live("```\n    ```\n", Exact), vec![(Open, "```")]);
        // A closer carries no info string; a backtick info string is not a fence.
        assert_eq!(live("```\n``` x\n", Exact), vec![(Open, "```")]);
        assert!(live("``` a`b\n", Exact).is_empty());
        // Two backticks are not a fence; mid-line runs are not fences.
        assert!(live("``\nsay ``` here\n", Exact).is_empty());
        // After a closer, the next fence line opens a new block.
        assert_eq!(
            live("```\n```\n~~~~ x\n", Exact),
            vec![(Open, "```"), (Close, "```"), (Open, "~~~~ x")]
        );
    }

    #[test]
    fn each_reader_sees_its_own_fences_and_lines() {
        let levels = |text: &str| -> Vec<ReaderLevel> {
            ReaderLevel::ALL
                .into_iter()
                .filter(|&l| live(text, l).len() == 2)
                .collect()
        };
        assert_eq!(levels("```text\nx\n```"), vec![Exact, Ci, Unicode]);
        assert_eq!(levels("```text\nx\n｀｀｀"), vec![Unicode]);
        assert_eq!(levels("```text\nx\u{2028}```"), vec![Unicode]);
        assert_eq!(levels("```text\nx\r```"), vec![Ci, Unicode]);
        assert_eq!(levels("```text\nx\n`\u{200B}``"), vec![Unicode]);
    }

    #[test]
    fn rendering_and_openers() {
        let g = fence();
        assert_eq!(g.render(Form::Open, 0).plain(), "```text");
        assert_eq!(g.render(Form::Close, 0).plain(), "```");
        let text = "```text\nbody\n```";
        let found = g.live(&Reader::new(Exact).fold(text));
        assert_eq!(found.len(), 2);
        let parsed = g.parse_opener(text, &found[0]).unwrap();
        assert!(parsed.attributes.is_empty());
        assert_eq!(parsed.span, 0..7);
        assert!(!g.opener_has_attributes());
        let empty = Fence::new(Vocabulary::plain(&[""]));
        assert_eq!(empty.render(Form::Open, 0).plain(), "```");
    }

    #[test]
    fn liveness_is_relative_to_the_frames_fence() {
        let g = fence();
        let frame = "````text\nbody\n````";
        let folded = Reader::new(Exact).fold(frame);
        let opener = g.live(&folded)[0];
        let key = g.frame_key(&folded, &opener);
        assert_eq!(key.fence, Some(('`', 4)));
        // Inside a four-backtick fence: a shorter run and a tilde run are
        // content, a long enough bare run is the frame's closer, and after
        // it a run opens a block again.
        let body = "```\n~~~~\n`````\n```x\n";
        let found: Vec<(&str, Liveness)> = g
            .live_in(&Reader::new(Exact).fold(body), &key)
            .into_iter()
            .map(|(d, l)| (&body[d.start..d.end], l))
            .collect();
        assert_eq!(
            found,
            vec![
                ("```", Liveness::Dead),
                ("~~~~", Liveness::Dead),
                ("`````", Liveness::Closer),
                ("```x", Liveness::Live),
            ]
        );
        // Without a frame, the first run opens a block.
        let outside = g.live_in(&Reader::new(Exact).fold(body), &FrameKey::default());
        assert_eq!(outside[0].1, Liveness::Live);
    }
}
