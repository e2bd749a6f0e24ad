//! Grammar `string-literal`: the content written inside a quoted string
//! literal of some host syntax, the frame's opener ending with the quote
//! and its closer the quote itself: an S-expression `(content "…"))`, a
//! TOML line `content = "…"` or `content = """…"""`, an EDN map, a Lisp
//! form, a SQL statement's `'…'`, a CSV field, a JavaScript template
//! literal `` `…` ``. What keeps the content inside is the framing's escaping, so the
//! grammar reads the literal's own rules ([`LiteralEscape`]): a quote is
//! the string's end unless the literal's escape makes it part of the text.
//!
//! `open` is literal text ending with the quote (`(content "`, `content =
//! """`); `close` is that quote (`"`, `"""`). With `escape: backslash` a
//! quote after an odd run of backslashes is escaped (`\"`), and after an
//! even run it is live (`\\"`: an escaped backslash, then the string's
//! end), as a C, JSON, TOML basic or Lisp reader reads it; with `escape:
//! none` (a TOML literal `'…'`) every quote ends the string; with
//! `escape: doubled` (SQL `'it''s'`, Pascal, a YAML single-quoted scalar)
//! two quotes in a row are one quote of text (a CSV field's `""` too), a
//! backslash is an ordinary
//! character, and a run of quotes of odd length ends the string at its
//! last quote, as a SQL lexer pairs them from the left. A run of a
//! triple quote's character longer than the quote (`""""`) ends the string
//! at its last three, as TOML reads it, and a run of six or more holds a
//! whole closer before those. The reader's level folds the quote and the
//! backslash (a fullwidth `＂` or `＼` at `unicode`), so a framing that
//! escapes only the ASCII ones is found at that level alone.
//!
//! Liveness is read wherever a reader sees a mark, as for `inline-pair`
//! (whose literal-mark reading this reuses), so a scan of the body alone
//! reads the same quotes as a scan of the whole output.

use serde::{Deserialize, Serialize};

use super::begin_end::escape_literal;
use super::inline_pair::{literal, pieces};
use super::{
    Around, DelimiterKind, Delimiters, Extras, Fields, Form, FrameKey, Grammar, GrammarError,
    GrammarKind, Guess, LiveDelimiter, Liveness, Shape, Spelling, Vocabulary, MASK,
};
use crate::reader::Folded;

/// The token an inferred string literal is declared with: it names the
/// frame in reports, and no mark spells it.
pub(super) const LITERAL_TOKEN: &str = "STRING";

/// How the literal keeps a quote of its text from ending it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum LiteralEscape {
    /// A backslash escapes the character after it (`\"`, `\\`).
    Backslash,
    /// Nothing is escaped: every quote ends the string (a TOML literal
    /// string `'…'`, a shell single-quoted word).
    None,
    /// A doubled quote is one quote of text (SQL `'it''s'`); a backslash
    /// is an ordinary character.
    Doubled,
}

impl LiteralEscape {
    /// The name, as written in profiles.
    pub fn name(self) -> &'static str {
        match self {
            LiteralEscape::Backslash => "backslash",
            LiteralEscape::None => "none",
            LiteralEscape::Doubled => "doubled",
        }
    }
}

/// The `string-literal` grammar: the frame's name, the opener (ending with
/// the quote), the quote, and the literal's escape.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct StringLiteral {
    vocabulary: Vocabulary,
    open: String,
    quote: String,
    escape: LiteralEscape,
}

/// The `string-literal` shape.
pub(super) struct StringLiteralShape;

impl Shape for StringLiteralShape {
    fn fields(&self) -> Fields {
        Fields {
            templates: true,
            escape: true,
            ..Fields::default()
        }
    }

    fn build(
        &self,
        vocabulary: Vocabulary,
        extras: Extras<'_>,
    ) -> Result<Box<dyn Grammar>, GrammarError> {
        let (Some(open), Some(close)) = (extras.open, extras.close) else {
            return Err(GrammarError::LiteralMarks);
        };
        let (open, quote) = (literal(open)?, literal(close)?);
        let escape = extras.escape.unwrap_or(LiteralEscape::Backslash);
        // A doubled triple quote is no syntax any host writes.
        let doubled_triple = escape == LiteralEscape::Doubled && quote.chars().count() != 1;
        if !QUOTES.contains(&quote.as_str()) || !open.ends_with(&quote) || doubled_triple {
            return Err(GrammarError::LiteralMarks);
        }
        Ok(Box::new(StringLiteral {
            vocabulary,
            open,
            quote,
            escape,
        }))
    }

    /// Before every document and marker guess: an assignment or a form
    /// that opens a string (`content = "`, `(content "`) is no label and
    /// no document a lead text comes before; a JSON reader that reads one
    /// reads it by JSON's escapes, which are not the host syntax's.
    fn guesses(&self) -> &'static [Guess] {
        &[Guess {
            rank: 0,
            read: guess,
        }]
    }

    fn evidence(&self) -> &'static str {
        "the content right after a quote where a value starts (an assignment `content = \"`, a \
         form `(content \"`, a list's or row's element `VALUES ('web', '`, a keyword `SELECT '`), \
         and the same quote right after it (the string literal's open and close)"
    }

    fn example(&self) -> Delimiters {
        Delimiters {
            open: Some("(content \"".into()),
            close: Some("\"".into()),
            escape: Some(LiteralEscape::Backslash),
            ..Delimiters::simple(GrammarKind::StringLiteral, LITERAL_TOKEN)
        }
    }

    /// A single-quoted or double-quoted literal its writer escapes with a
    /// backslash may be read by a reader that knows no backslash and
    /// doubles the quote instead (standard SQL, CSV): the content written
    /// again with the quote doubled.
    fn reader_readings(&self, delimiters: &Delimiters, content: &str) -> Vec<(Delimiters, String)> {
        let Some(quote) = delimiters.close.as_deref() else {
            return Vec::new();
        };
        let single = quote == "'" || quote == "\"";
        if delimiters.escape != Some(LiteralEscape::Backslash) || !single {
            return Vec::new();
        }
        let doubled = Delimiters {
            escape: Some(LiteralEscape::Doubled),
            ..delimiters.clone()
        };
        vec![(doubled, content.replace(quote, &quote.repeat(2)))]
    }
}

impl StringLiteral {
    /// Whether the character at folded index `i` is escaped: an odd run of
    /// backslashes (as the reader folds them) right before it.
    fn escaped(&self, folded: &Folded<'_>, i: usize) -> bool {
        if self.escape != LiteralEscape::Backslash {
            return false;
        }
        let run = (0..i)
            .rev()
            .take_while(|&p| folded.ch(p) == Some('\\'))
            .count();
        run % 2 == 1
    }

    /// The marks of a doubled-quote literal, read left to right as a SQL
    /// lexer reads them, from inside a string when `inside` (a body read
    /// back, the content) or from outside it (the whole output). Outside,
    /// the opener starts the string and any other odd run of quotes starts
    /// one too; inside, a run's pairs are quotes of text and an odd one
    /// out ends the string. Both are reported: what a doubling leaves
    /// alone is text, whatever it spells.
    fn scan_doubled(&self, folded: &Folded<'_>, mut inside: bool) -> Vec<LiveDelimiter> {
        let q = self.quote.chars().next().unwrap_or('\'');
        let mut found = Vec::new();
        let mut push = |kind, from: usize, to: usize| {
            let span = folded.source_span(from, to);
            found.push(LiveDelimiter {
                token: 0,
                kind,
                start: span.start,
                end: span.end,
                nonce: None,
                request_kind: None,
            });
        };
        let mut i = 0;
        while i < folded.len() {
            if !inside {
                if let Some(end) = super::inline_pair::InlinePair::mark_at(folded, i, &self.open) {
                    push(DelimiterKind::Open, i, end);
                    (i, inside) = (end, true);
                    continue;
                }
            }
            if folded.ch(i) != Some(q) {
                i += 1;
                continue;
            }
            let run = (i..).take_while(|&p| folded.ch(p) == Some(q)).count();
            if run % 2 == 1 {
                // Inside, the last quote ends the string; outside, the
                // first starts one.
                let at = if inside { i + run - 1 } else { i };
                push(DelimiterKind::Close, at, at + 1);
                inside = !inside;
            }
            i += run;
        }
        found
    }

    /// The quotes a run of quote characters starting at `i` ends the
    /// string with, as folded index ranges, and where the run ends. A
    /// single quote: each of its characters. A triple quote: its last
    /// three, and the first three too when the run is six or more long.
    fn quotes_at(&self, folded: &Folded<'_>, i: usize) -> (Vec<(usize, usize)>, usize) {
        let q = self.quote.chars().next().unwrap_or('"');
        let mut end = i;
        while folded.ch(end) == Some(q) {
            end += 1;
        }
        let size = self.quote.chars().count();
        if size == 1 {
            return ((i..end).map(|p| (p, p + 1)).collect(), end);
        }
        let mut found = Vec::new();
        if end - i >= 2 * size {
            found.push((i, i + size));
        }
        if end - i >= size {
            found.push((end - size, end));
        }
        (found, end)
    }
}

impl Grammar for StringLiteral {
    fn kind(&self) -> GrammarKind {
        GrammarKind::StringLiteral
    }

    /// The opener is tried first at each place (it ends with the quote,
    /// which is then part of it); an unescaped quote anywhere else ends a
    /// string.
    fn live(&self, folded: &Folded<'_>) -> Vec<LiveDelimiter> {
        if self.escape == LiteralEscape::Doubled {
            return self.scan_doubled(folded, false);
        }
        let mut found = Vec::new();
        let mut push = |kind, from: usize, to: usize| {
            let span = folded.source_span(from, to);
            found.push(LiveDelimiter {
                token: 0,
                kind,
                start: span.start,
                end: span.end,
                nonce: None,
                request_kind: None,
            });
        };
        let q = self.quote.chars().next().unwrap_or('"');
        let mut i = 0;
        while i < folded.len() {
            if !self.escaped(folded, i) {
                if let Some(end) = super::inline_pair::InlinePair::mark_at(folded, i, &self.open) {
                    push(DelimiterKind::Open, i, end);
                    i = end;
                    continue;
                }
            }
            if folded.ch(i) != Some(q) || self.escaped(folded, i) {
                i += 1;
                continue;
            }
            let (quotes, end) = self.quotes_at(folded, i);
            for (from, to) in quotes {
                push(DelimiterKind::Close, from, to);
            }
            i = end;
        }
        found
    }

    /// A doubled-quote literal's content or body is read from inside the
    /// string: its pairs are text, whatever they spell around them.
    fn live_in(&self, folded: &Folded<'_>, frame: &FrameKey) -> Vec<(LiveDelimiter, Liveness)> {
        let found = if self.escape == LiteralEscape::Doubled {
            self.scan_doubled(folded, true)
        } else {
            self.live(folded)
        };
        found
            .into_iter()
            .map(|d| (d, frame.classify(&d, folded)))
            .collect()
    }

    fn render(&self, form: Form, token: usize) -> Spelling {
        match form {
            Form::Token => Spelling(self.vocabulary.render_token(token)),
            Form::Open | Form::OpenStart => pieces(&self.open),
            Form::Close => pieces(&self.quote),
        }
    }

    fn opener_has_attributes(&self) -> bool {
        false
    }

    /// The marks are not brackets around a name.
    fn brackets(&self) -> Option<(char, char)> {
        None
    }

    /// What search edits to forge the end of the frame: the quote.
    fn anchor(&self, _: usize) -> String {
        self.quote.clone()
    }
}

/// A string literal's marks as read around the content: the opener
/// (ending with the quote) and the quote.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct LiteralMarks<'a> {
    /// The opener: the assignment's line (`content = "`) or the innermost
    /// form (`(content "`), with the quote.
    pub(crate) open: &'a str,
    /// The quote: `"`, `'`, `"""` or `'''`.
    pub(crate) quote: &'static str,
}

/// The quotes a literal may end with: a triple quote before a single one,
/// so an opener ending `"""` holds the whole of it; the backtick is a
/// JavaScript template literal's.
pub(crate) const QUOTES: [&str; 5] = ["\"\"\"", "'''", "\"", "'", "`"];

/// The literal around the content: `head` (the text before it) ends with
/// a quote that opens a literal in some host syntax, and `tail` (from the
/// content's last word on) has the same quote right after that word. A
/// quote opens a literal where an expression starts ([`opens_value`]):
/// after an assignment (`content = "`, not `==`), as an argument of a form
/// (`(content "`), as an element of a list or a row (`VALUES ('web', '`,
/// CSV's `"web","`), or after a statement's keyword that begins its line
/// (`SELECT '`). A triple quote stands alone at the end of its line, the
/// content on the next, and closes on a line of its own. A line holding
/// `<` is markup (an attribute value), left to the inline pair.
pub(crate) fn literal_marks<'a>(head: &'a str, tail: &str) -> Option<LiteralMarks<'a>> {
    let (head, broken) = match head.strip_suffix('\n') {
        Some(h) => (h, true),
        None => (head, false),
    };
    let quote = QUOTES.into_iter().find(|q| head.ends_with(q))?;
    let triple = quote.len() == 3;
    if broken != triple {
        return None;
    }
    let line = head.rsplit('\n').next()?.trim_start();
    let before = line.strip_suffix(quote)?.trim_end();
    let open = opens_value(line, before)?;
    if line.contains('<') {
        return None;
    }
    let rest = tail.trim_start_matches(|c: char| c.is_ascii_alphanumeric());
    let rest = if triple {
        rest.strip_prefix('\n')?
    } else {
        rest
    };
    if !rest.starts_with(quote) {
        return None;
    }
    Some(LiteralMarks { open, quote })
}

/// The literal's opener when the quote ending `line` (`before` is the line
/// up to it) is where a value starts; `None` for a label (`Observation:
/// "`), a comparison (`==`) or prose. A form's opener is its innermost
/// parenthesis: what comes before it (an outer form's name) is no part of
/// the literal's mark; otherwise the whole line is, so the quotes of the
/// values before the content's (`'web', '`) are read inside the opener.
fn opens_value<'a>(line: &'a str, before: &str) -> Option<&'a str> {
    let word = |c: char| c.is_alphanumeric() || c == '-' || c == '_';
    let assignment = before.ends_with('=') && !before.ends_with("==");
    let form = before
        .rfind('(')
        .filter(|&at| before[at..].trim_end().ends_with(word));
    if let (false, Some(at)) = (assignment, form) {
        return Some(&line[at..]);
    }
    // A list's element: after `(` or `,` outside JSON's brackets (a JSON
    // array's strings are read by JSON's escapes, not a host literal's).
    let element = (before.ends_with('(') || before.ends_with(',')) && !line.contains(['[', '{']);
    // A statement's keyword and its argument: one word, the line's first.
    let keyword = !before.is_empty() && before.chars().all(word);
    (assignment || element || keyword).then_some(line)
}

/// Whether the literal reads backslashes, as `output` shows it: the
/// content's quote written after a backslash, or a triple quote (TOML's
/// multi-line basic string, Python's), or a double quote, which every
/// common host syntax escapes so, or a backtick (a JavaScript template
/// literal reads backslashes always). A single-quoted literal that leaves the
/// content's quotes raw escapes nothing (a TOML literal string).
pub(crate) fn reads_backslashes(marks: &LiteralMarks<'_>, output: &str) -> bool {
    let q = &marks.quote[..1];
    marks.quote.len() == 3 || q == "\"" || q == "`" || output.contains(&format!("\\{q}"))
}

/// Whether the literal doubles its quote, as `output` shows it: the
/// content holds the quote and came back whole with each one doubled
/// (SQL's `it''s`). Only a single quote is doubled so.
pub(crate) fn reads_doubled(marks: &LiteralMarks<'_>, output: &str, content: &str) -> bool {
    let q = marks.quote;
    q.len() == 1 && content.contains(q) && output.contains(&content.replace(q, &q.repeat(2)))
}

/// `init`'s experiment: a string literal around the content, as
/// [`literal_marks`] reads it (the quote that ends an assignment or a form,
/// and the same quote after the content). The escape is the one
/// [`reads_doubled`] or [`reads_backslashes`] reads off the output: the
/// quote doubled, a backslash, or none for a single-quoted literal that
/// leaves the content's quotes raw.
fn guess(around: &Around<'_>) -> Option<Delimiters> {
    let marks = literal_marks(around.head, around.tail)?;
    let unsafe_text =
        |t: &str| t.contains(MASK) || around.field_marks.iter().any(|m| t.contains(m));
    if unsafe_text(marks.open) {
        return None;
    }
    let escape = if reads_doubled(&marks, around.output, around.content) {
        LiteralEscape::Doubled
    } else if reads_backslashes(&marks, around.output) {
        LiteralEscape::Backslash
    } else {
        LiteralEscape::None
    };
    Some(Delimiters {
        open: Some(escape_literal(marks.open)),
        close: Some(marks.quote.to_string()),
        escape: Some(escape),
        ..Delimiters::simple(GrammarKind::StringLiteral, LITERAL_TOKEN)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::level::ReaderLevel::{self, Exact, Unicode};
    use crate::reader::Reader;
    use DelimiterKind::{Close, Open};

    fn grammar(open: &str, close: &str, escape: LiteralEscape) -> Box<dyn Grammar> {
        let extras = Extras {
            open: Some(open),
            close: Some(close),
            marker: None,
            escape: Some(escape),
        };
        StringLiteralShape
            .build(Vocabulary::plain(&[LITERAL_TOKEN]), extras)
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
    fn an_escaped_quote_is_text_and_an_escaped_backslash_before_one_ends_the_string() {
        let g = grammar("(content \"", "\"", LiteralEscape::Backslash);
        let own = vec![(Open, "(content \"".into()), (Close, "\"".into())];
        assert_eq!(live(&*g, r#"(x (content "a \"b\" c\\"))"#, Exact), own);
        // The content `\"` written with only its quote escaped: `\\"`.
        assert_eq!(
            live(&*g, r#"(x (content "a \\" b"))"#, Exact),
            vec![
                (Open, "(content \"".into()),
                (Close, "\"".into()),
                (Close, "\"".into())
            ]
        );
    }

    #[test]
    fn a_fullwidth_quote_or_backslash_counts_only_where_the_level_folds_it() {
        let g = grammar("content = \"", "\"", LiteralEscape::Backslash);
        let raw_quote = "content = \"a ＂ b\"";
        assert_eq!(live(&*g, raw_quote, Exact).len(), 2);
        assert_eq!(live(&*g, raw_quote, Unicode).len(), 3);
        // `＼` before the framing's `\"`: an escaped backslash, then a quote.
        let raw_backslash = "content = \"a ＼\\\" b\"";
        assert_eq!(live(&*g, raw_backslash, Exact).len(), 2);
        assert_eq!(live(&*g, raw_backslash, Unicode).len(), 3);
    }

    #[test]
    fn a_triple_quote_ends_at_the_last_three_of_a_run() {
        let g = grammar("content = \"\"\"", "\"\"\"", LiteralEscape::Backslash);
        // Two quotes of text right before the closer, then a forged closer.
        assert_eq!(
            live(&*g, "content = \"\"\"\na \"\" b\"\"\n\"\"\"", Exact).len(),
            2
        );
        assert_eq!(
            live(&*g, "content = \"\"\"\na \"\"\" b\n\"\"\"", Exact).len(),
            3
        );
        assert_eq!(
            live(&*g, "content = \"\"\"\na \\\"\"\" b\n\"\"\"", Exact).len(),
            2
        );
        // Six in a row: a whole closer, then the framing's.
        assert_eq!(
            live(&*g, "content = \"\"\"\na \"\"\"\"\"\"", Exact).len(),
            3
        );
    }

    #[test]
    fn a_literal_without_escapes_ends_at_any_quote() {
        let g = grammar("content = '", "'", LiteralEscape::None);
        assert_eq!(live(&*g, r"content = 'a \' b'", Exact).len(), 3);
    }

    #[test]
    fn a_doubled_quote_is_text_and_a_backslash_is_ordinary() {
        let g = grammar("body = '", "'", LiteralEscape::Doubled);
        // `it's` and a trailing quote, written doubled: only the closer.
        assert_eq!(
            live(&*g, "body = 'it''s x'''", Exact),
            vec![(Open, "body = '".into()), (Close, "'".into())]
        );
        // `\'` (the quote escaped by a backslash) ends the string.
        assert_eq!(live(&*g, r"body = 'a \' b'", Exact).len(), 3);
        assert_eq!(live(&*g, "body = 'a ＇＇ b'", Exact).len(), 2);
        // The opener written in the content, its quote doubled, is text,
        // also right before the closer; a content that starts with a quote
        // or is empty leaves the frame's own marks.
        assert_eq!(live(&*g, "body = 'x body = '' y'", Exact).len(), 2);
        assert_eq!(live(&*g, "body = 'x body = ''' w", Exact).len(), 2);
        assert_eq!(live(&*g, "body = ''' y'", Exact).len(), 2);
        assert_eq!(live(&*g, "body = '' w", Exact).len(), 2);
        // A raw quote ends the string; what follows is outside it.
        assert_eq!(live(&*g, "body = 'x' y 'z'", Exact).len(), 4);
        // A doubled triple quote is refused.
        let extras = Extras {
            open: Some("body = '''"),
            close: Some("'''"),
            marker: None,
            escape: Some(LiteralEscape::Doubled),
        };
        let built = StringLiteralShape.build(Vocabulary::plain(&[LITERAL_TOKEN]), extras);
        assert_eq!(built.err(), Some(GrammarError::LiteralMarks));
    }

    #[test]
    fn marks_that_are_no_literal_are_refused() {
        let build = |open, close| {
            StringLiteralShape
                .build(
                    Vocabulary::plain(&[LITERAL_TOKEN]),
                    Extras {
                        open,
                        close,
                        marker: None,
                        escape: None,
                    },
                )
                .err()
        };
        let refused = Some(GrammarError::LiteralMarks);
        assert_eq!(build(Some("content = \""), Some("'")), refused);
        assert_eq!(build(Some("content = «"), Some("»")), refused);
        assert_eq!(build(Some("content = \""), None), refused);
    }

    fn guessed(head: &str, tail: &str, output: &str) -> Option<(String, String, LiteralEscape)> {
        let d = guess(&Around {
            head,
            tail,
            field_marks: &["fcprov"],
            quoted: false,
            output,
            content: "it's",
        })?;
        Some((d.open?, d.close?, d.escape?))
    }

    fn marks(head: &str, tail: &str) -> Option<(String, &'static str)> {
        literal_marks(head, tail).map(|m| (m.open.to_string(), m.quote))
    }

    #[test]
    fn a_literal_is_read_after_an_assignment_or_in_a_form() {
        let read = |o: &str, q| Some((o.to_string(), q));
        assert_eq!(
            marks("(tool (content \"", "z1\"))"),
            read("(content \"", "\"")
        );
        assert_eq!(
            marks("[t]\ncontent = \"", "z1\""),
            read("content = \"", "\"")
        );
        assert_eq!(
            marks("[t]\ncontent = \"\"\"\n", "z1\n\"\"\""),
            read("content = \"\"\"", "\"\"\"")
        );
        assert_eq!(marks("content = '", "z1'"), read("content = '", "'"));
        // A value where an expression starts in any host syntax: a list's
        // element (SQL's VALUES, a call, a CSV row), a statement's
        // keyword, a template literal; the whole line is the opener.
        let values = "INSERT INTO t (a, b) VALUES ('x', '";
        assert_eq!(marks(values, "z1');"), read(values, "'"));
        assert_eq!(marks("SELECT '", "z1';"), read("SELECT '", "'"));
        assert_eq!(marks("f(\"", "z1\")"), read("f(\"", "\""));
        let row = "\"a\",\"b\"\r\n\"web\",\"";
        assert_eq!(marks(row, "z1\",\"x\""), read("\"web\",\"", "\""));
        assert_eq!(marks("let s = `", "z1`;"), read("let s = `", "`"));
        // A label, an attribute, a comparison, a single quote then a line
        // break, no quote after the content: no literal of this shape.
        for (head, tail) in [
            ("Observation: \"", "z1\""),
            ("<d text=\"", "z1\"/>"),
            ("if a == \"", "z1\""),
            ("content = \"\n", "z1\n\""),
            ("content = \"", "z1 more"),
            // JSON's strings are read by JSON's escapes; prose is no
            // statement.
            ("[\"a\", \"", "z1\"]"),
            ("{\"a\": 1, \"", "z1\": 2}"),
            ("He said \"", "z1\""),
        ] {
            assert_eq!(marks(head, tail), None, "{head:?}");
        }
    }

    #[test]
    fn a_backslash_literal_may_be_read_with_its_quote_doubled() {
        let d = Delimiters {
            open: Some("body = '".into()),
            close: Some("'".into()),
            escape: Some(LiteralEscape::Backslash),
            ..Delimiters::simple(GrammarKind::StringLiteral, LITERAL_TOKEN)
        };
        let readings = StringLiteralShape.reader_readings(&d, r"it's a \ b");
        assert_eq!(readings.len(), 1);
        assert_eq!(readings[0].0.escape, Some(LiteralEscape::Doubled));
        assert_eq!(readings[0].1, r"it''s a \ b");
        // A doubled literal, or a triple quote, has no other reading.
        let doubled = Delimiters {
            escape: Some(LiteralEscape::Doubled),
            ..d.clone()
        };
        assert!(StringLiteralShape.reader_readings(&doubled, "x").is_empty());
        let triple = Delimiters {
            close: Some("\"\"\"".into()),
            ..d
        };
        assert!(StringLiteralShape.reader_readings(&triple, "x").is_empty());
    }

    /// What [`literal_marks`] reads is tested above; here, the escape and
    /// the field marks.
    #[test]
    fn the_experiment_declares_the_escape_the_output_shows() {
        use LiteralEscape::{Backslash, None as Raw};
        let read = |o: &str, c: &str, e| Some((o.to_string(), c.to_string(), e));
        assert_eq!(
            guessed("(tool (content \"", "z1\"))", "a \\\"ok\\\""),
            read("(content \"", "\"", Backslash)
        );
        assert_eq!(
            guessed("[t]\ncontent = \"\"\"\n", "z1\n\"\"\"", "x"),
            read("content = \"\"\"", "\"\"\"", Backslash)
        );
        assert_eq!(
            guessed("content = '", "z1'", "it's"),
            read("content = '", "'", Raw)
        );
        assert_eq!(
            guessed("SET body = '", "z1' WHERE", "SET body = 'it''s' WHERE"),
            read("SET body = '", "'", LiteralEscape::Doubled)
        );
        assert_eq!(
            guessed("SET body = '", "z1' WHERE", "SET body = 'it\\'s' WHERE"),
            read("SET body = '", "'", Backslash)
        );
        assert_eq!(guessed("(r (fcprov \"", "z1\"))", ""), None);
    }
}
