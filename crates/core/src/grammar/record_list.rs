//! Grammar `record-list`: the content is one record of a list written in
//! running text, every record starting at a marker first on its line:
//! `[1] …\n[2] CONTENT\n[3] …`, `1. user: …\n2. tool: CONTENT\n3. assistant:`,
//! `[user] …\n[tool] CONTENT`, `- …\n- CONTENT`.
//!
//! The marker is declared as the template `open`; there is no `close`, since
//! a record ends where the next one begins (or at the end of the text). The
//! template is literal text (a brace written `{{` or `}}`) with at most one
//! `{counter}`, a number (any digits as the reader folds them: content can
//! write any number), and at most one `{token}`, the record's name. With
//! `{token}` the profile's token is the content's record's name (`tool`),
//! `reserved` the framing's other names (`user`, `assistant`), and the
//! standard chat roles (`system`, `developer`, …) are names too, since a
//! model reads a record with any of them: a marker naming the token opens a
//! record, any other ends the content's. Without `{token}` every marker is
//! one of the list's, and the token only names the frame in reports.
//!
//! A marker is live only first on a line as the reader splits lines (after
//! spaces or tabs: an indented record is still one, except on a line a
//! line-prefix body quotes, which the oracle sets apart:
//! [`Grammar::marks_line_starts`]), its text folded by the reader's level. A space that ends the template stands for one or more
//! spaces or tabs, or the end of the line (`[3]` alone on a line starts a
//! record; `[3]rd` starts none). The same text in the middle of a line is
//! content, never a finding.

use super::begin_end::escape_literal;
use super::inline_pair::pieces;
use super::token::{match_token, COUNTER, COUNTER_SAMPLE};
use super::{
    Around, DelimiterKind, Delimiters, Extras, Fields, ForgedLines, Form, Grammar, GrammarError,
    GrammarKind, Guess, LiveDelimiter, Piece, Shape, Spelling, Vocabulary,
};
use crate::level::ReaderLevel;
use crate::reader::Folded;
use crate::records::ChatRole;

/// The token an inferred list without names is declared with: it names the
/// frame in reports, and no marker spells it.
pub(super) const LIST_TOKEN: &str = "RECORD";

/// The name placeholder of a record marker template.
const NAME: &str = "{token}";

/// Markers longer than this, in characters, are a sentence, not a marker:
/// `init` does not read them as one.
const MAX_GUESSED_MARKER: usize = 40;

/// One part of a marker template.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Atom {
    /// Literal text, braces unescaped.
    Text(String),
    /// `{token}`: the record's name.
    Name,
    /// `{counter}`: a number.
    Counter,
}

/// The `record-list` grammar: its vocabulary and its marker template.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct RecordList {
    vocabulary: Vocabulary,
    marker: Vec<Atom>,
}

/// The `record-list` shape.
pub(super) struct RecordListShape;

impl Shape for RecordListShape {
    fn fields(&self) -> Fields {
        Fields {
            // The names of the framing's other records.
            inner_tokens: true,
            templates: true,
            ..Fields::default()
        }
    }

    fn build(
        &self,
        vocabulary: Vocabulary,
        extras: Extras<'_>,
    ) -> Result<Box<dyn Grammar>, GrammarError> {
        let (Some(open), None) = (extras.open, extras.close) else {
            return Err(GrammarError::RecordMarker);
        };
        Ok(Box::new(RecordList {
            vocabulary,
            marker: parse(open)?,
        }))
    }

    fn is_open_only(&self) -> bool {
        true
    }

    /// After the section labels (a `Name:` line is theirs) and before the
    /// inline pair, the loosest reading.
    fn guesses(&self) -> &'static [Guess] {
        &[Guess {
            rank: 80,
            read: guess,
        }]
    }

    fn evidence(&self) -> &'static str {
        "the content's line starts with a marker (a number, a bracketed name, a bullet) that \
         other lines of the frame start with too, with their own number or name, and no closer \
         follows it (a record ends where the next one begins)"
    }

    fn example(&self) -> Delimiters {
        Delimiters {
            open: Some(format!("[{COUNTER}] ")),
            ..Delimiters::simple(GrammarKind::RecordList, LIST_TOKEN)
        }
    }
}

/// The template's atoms, or why it is no record marker: a placeholder other
/// than `{token}` and `{counter}` or one of them twice, a line break, no
/// punctuation and no counter (a line starting with an ordinary word would
/// read as a record), or a name not ended by punctuation.
fn parse(template: &str) -> Result<Vec<Atom>, GrammarError> {
    let bad = |reason: &str| GrammarError::BadTemplate {
        template: template.into(),
        reason: reason.into(),
    };
    let mut atoms = Vec::new();
    let mut text = String::new();
    let mut rest = template.trim_start_matches([' ', '\t']);
    while let Some(c) = rest.chars().next() {
        if let Some(after) = rest.strip_prefix("{{").or_else(|| rest.strip_prefix("}}")) {
            text.push(c);
            rest = after;
            continue;
        }
        let placeholder = [(NAME, Atom::Name), (COUNTER, Atom::Counter)]
            .into_iter()
            .find(|(p, _)| rest.starts_with(p));
        if let Some((p, atom)) = placeholder {
            if atoms.contains(&atom) {
                return Err(bad("`{token}` and `{counter}` may each appear once"));
            }
            if !text.is_empty() {
                atoms.push(Atom::Text(std::mem::take(&mut text)));
            }
            atoms.push(atom);
            rest = &rest[p.len()..];
            continue;
        }
        if matches!(c, '{' | '}') {
            return Err(bad(
                "a record marker's placeholders are `{token}` and `{counter}`; write a brace as {{ or }}",
            ));
        }
        if (c.is_control() && c != '\t') || matches!(c, '\u{2028}' | '\u{2029}') {
            return Err(bad("a record marker is text on one line"));
        }
        text.push(c);
        rest = &rest[c.len_utf8()..];
    }
    if !text.is_empty() {
        atoms.push(Atom::Text(text));
    }
    check_distinct(&atoms).map_err(bad)?;
    Ok(atoms)
}

/// Whether a marker is distinct from prose at a line's start: punctuation or
/// a counter in it, and punctuation right after its name.
fn check_distinct(atoms: &[Atom]) -> Result<(), &'static str> {
    let punct = |c: char| !c.is_alphanumeric() && !c.is_whitespace();
    let has_punct = atoms
        .iter()
        .any(|a| matches!(a, Atom::Text(t) if t.chars().any(punct)));
    if !has_punct && !atoms.contains(&Atom::Counter) {
        return Err(
            "a record marker needs punctuation or a `{counter}`, or a line starting \
                    with ordinary words would read as a record",
        );
    }
    if let Some(at) = atoms.iter().position(|a| *a == Atom::Name) {
        let ended = matches!(atoms.get(at + 1),
            Some(Atom::Text(t)) if t.chars().next().is_some_and(punct));
        if !ended {
            return Err(
                "`{token}` must be followed by punctuation (`]`, `:`), or a line \
                        starting with any word would read as a record",
            );
        }
    }
    Ok(())
}

/// A character of a record's name: letters, digits, `_` and `-` (ASCII
/// ones only, unless `any_script`).
fn name_char(c: char, any_script: bool) -> bool {
    let letter = if any_script {
        c.is_alphanumeric()
    } else {
        c.is_ascii_alphanumeric()
    };
    letter || matches!(c, '_' | '-')
}

/// `role` in the case `model` is written in: the exact reader reads a
/// standard role only as the framing would write it.
fn in_case_of(role: &str, model: &str) -> String {
    let mut chars = model.chars();
    let first_upper = chars.next().is_some_and(char::is_uppercase);
    let all_upper = model.chars().count() > 1 && chars.all(char::is_uppercase);
    match (first_upper, all_upper) {
        (true, true) => role.to_uppercase(),
        (true, false) => {
            let mut r = role.chars();
            r.next().map_or_else(String::new, |c| {
                c.to_uppercase().chain(r).collect::<String>()
            })
        }
        _ => role.to_lowercase(),
    }
}

/// Folded index past the spaces and tabs at `i`, staying before `to`.
fn blanks(folded: &Folded<'_>, mut i: usize, to: usize) -> usize {
    while i < to && matches!(folded.ch(i), Some(' ' | '\t')) {
        i += 1;
    }
    i
}

impl RecordList {
    /// The marker first on the folded line `from..to`: its folded span and
    /// the declared token it names (always the first without `{token}`;
    /// `None` for a standard role the framing did not declare).
    fn marker_on(
        &self,
        folded: &Folded<'_>,
        from: usize,
        to: usize,
    ) -> Option<(usize, usize, Option<usize>)> {
        let start = blanks(folded, from, to);
        let (mut i, mut named) = (start, Some(0));
        let last = self.marker.len().saturating_sub(1);
        for (n, atom) in self.marker.iter().enumerate() {
            match atom {
                Atom::Text(t) => i = text_at(folded, i, to, t, n == last)?,
                Atom::Counter => {
                    let mut j = i;
                    while j < to && folded.ch(j).is_some_and(|c| c.is_ascii_digit()) {
                        j += 1;
                    }
                    i = (j > i).then_some(j)?;
                }
                Atom::Name => (i, named) = self.name_at(folded, i, to)?,
            }
        }
        (i > start).then_some((start, i, named))
    }

    /// The record name at folded index `i`: where it ends, and which
    /// declared token it is (`None`: a standard role).
    fn name_at(&self, folded: &Folded<'_>, i: usize, to: usize) -> Option<(usize, Option<usize>)> {
        let level = folded.reader.level();
        let mut end = i;
        while end < to
            && folded
                .ch(end)
                .is_some_and(|c| name_char(c, level == ReaderLevel::Unicode))
        {
            end += 1;
        }
        if end == i {
            return None;
        }
        let nonce = self.vocabulary.nonce.as_ref();
        let declared = self
            .vocabulary
            .tokens
            .iter()
            .position(|t| match_token(folded, i, t, nonce).is_some_and(|m| m.end == end));
        if declared.is_some() {
            return Some((end, declared));
        }
        let word: String = (i..end).filter_map(|k| folded.ch(k)).collect();
        let model = self.vocabulary.tokens.first().map(|t| t.render(""));
        let standard = ChatRole::forging().any(|role| match level {
            ReaderLevel::Exact => in_case_of(role, model.as_deref().unwrap_or(role)) == word,
            _ => role.eq_ignore_ascii_case(&word),
        });
        standard.then_some((end, None))
    }

    /// The marker spelled with `name` for its `{token}`.
    fn spell(&self, name: Vec<Piece>) -> Spelling {
        let mut s = Spelling::default();
        for atom in &self.marker {
            match atom {
                Atom::Text(t) => s.0.extend(pieces(t).0),
                Atom::Name => s.0.extend(name.iter().cloned()),
                Atom::Counter => s.push(Piece::Verbatim(COUNTER_SAMPLE.into())),
            }
        }
        s
    }
}

/// Folded index past the literal `text` at `i`; for the template's `last`
/// text, its trailing spaces stand for one or more spaces or tabs, or the
/// end of the line.
fn text_at(folded: &Folded<'_>, i: usize, to: usize, text: &str, last: bool) -> Option<usize> {
    let body = if last { text.trim_end() } else { text };
    let mut j = i;
    if !body.is_empty() {
        j = folded.match_literal(i, body).filter(|&j| j <= to)?;
    }
    if body.len() == text.len() {
        return Some(j);
    }
    let after = blanks(folded, j, to);
    (after > j || j == to).then_some(after)
}

impl Grammar for RecordList {
    fn kind(&self) -> GrammarKind {
        GrammarKind::RecordList
    }

    fn live(&self, folded: &Folded<'_>) -> Vec<LiveDelimiter> {
        let lines = folded.reader.lines(folded.text);
        lines
            .into_iter()
            .filter_map(|line| {
                let from = folded.index_at_byte(line.start);
                let to = folded.index_at_byte(line.end);
                let (start, end, named) = self.marker_on(folded, from, to)?;
                let span = folded.source_span(start, end);
                Some(LiveDelimiter {
                    token: 0,
                    kind: match named {
                        Some(0) => DelimiterKind::Open,
                        _ => DelimiterKind::Close,
                    },
                    start: span.start,
                    end: span.end,
                    nonce: None,
                    request_kind: None,
                })
            })
            .collect()
    }

    fn marks_line_starts(&self) -> bool {
        true
    }

    /// The closer is the next record's marker: another declared name's,
    /// or, without one, the content's own name again (a second record of
    /// its name is live too).
    fn render(&self, form: Form, token: usize) -> Spelling {
        let other = |t: usize| {
            (0..self.vocabulary.tokens.len())
                .find(|&o| o != t)
                .unwrap_or(t)
        };
        match form {
            Form::Token => Spelling(self.vocabulary.render_token(token)),
            Form::Open | Form::OpenStart => self.spell(self.vocabulary.render_token(token)),
            Form::Close => self.spell(self.vocabulary.render_token(other(token))),
        }
    }

    fn opener_has_attributes(&self) -> bool {
        false
    }

    fn brackets(&self) -> Option<(char, char)> {
        None
    }

    /// What search edits to forge the end of the record: the next marker,
    /// since a marker without `{token}` spells no token.
    fn anchor(&self, token: usize) -> String {
        self.render(Form::Close, token).plain()
    }

    /// The other records' markers and the closer, then, with `{token}`, the
    /// marker spelled with each name asked for.
    fn forged_lines(&self, names: &[&str]) -> ForgedLines {
        let others = (1..self.vocabulary.tokens.len())
            .map(|t| self.render(Form::Open, t))
            .chain(std::iter::once(self.render(Form::Close, 0)))
            .map(|s| s.plain())
            .collect();
        let named = match self.marker.contains(&Atom::Name) {
            true => names
                .iter()
                .map(|n| self.spell(vec![Piece::Token((*n).into())]).plain())
                .collect(),
            false => Vec::new(),
        };
        ForgedLines { others, named }
    }
}

/// `init`'s experiment: the content starts on a line after a short marker
/// (ending in a space or punctuation) that other lines of the frame start
/// with too. The marker's digits are a `{counter}`; when no other line
/// repeats it with its words as written, its last word is read as the
/// record's name (`{token}`), and the other lines' names are `reserved`
/// (the record after the content first: the catalogue forges it).
fn guess(around: &Around<'_>) -> Option<Delimiters> {
    let (mut before, mut line) = around.head.rsplit_once('\n').unwrap_or(("", around.head));
    // A block quoted line by line opens on the line after its record's
    // marker (`[2] «««`, then the quote): the marker is that line's.
    if around.quoted && line.trim().is_empty() {
        (before, line) = before.rsplit_once('\n').unwrap_or(("", before));
    }
    let lead = marker_part(line.trim_start_matches([' ', '\t']));
    let header = around.field_marks.iter().any(|m| lead.contains(m));
    if lead.trim().is_empty()
        || header
        || lead.chars().count() > MAX_GUESSED_MARKER
        || lead.ends_with(char::is_alphanumeric)
    {
        return None;
    }
    let after = around.tail.split_once('\n').map_or("", |(_, rest)| rest);
    let lines: Vec<&str> = after
        .lines()
        .chain(before.lines())
        .map(|l| l.trim_start_matches([' ', '\t']))
        .collect();
    [false, true].into_iter().find_map(|named| {
        let (template, own) = generalise(lead, named)?;
        let atoms = parse(&template).ok()?;
        let names: Vec<String> = lines.iter().filter_map(|l| sibling(&atoms, l)).collect();
        let fits = match named {
            true => names.iter().any(|n| !n.eq_ignore_ascii_case(&own)),
            false => !names.is_empty(),
        };
        fits.then(|| declare(template, own, names, named))
    })
}

/// The marker a record's line starts with: `lead` up to its last space
/// when what follows that space is a run of one non-ASCII mark opening the
/// record's text (`«` in `[2] «…»`, `«««` before a block, `“`), which is
/// no part of the marker: a line `[4] x` starts a record as `[4] «x»`
/// does. An ASCII quote there is a string literal's after a label
/// (`Observation: "…"`), which the label reading takes.
fn marker_part(lead: &str) -> &str {
    let opens_text = |mark: &str| {
        let mut chars = mark.chars();
        chars.next().is_some_and(|first| {
            !first.is_ascii() && !first.is_alphanumeric() && chars.all(|c| c == first)
        })
    };
    match lead.rsplit_once(' ') {
        Some((marker, mark)) if opens_text(mark) => &lead[..marker.len() + 1],
        _ => lead,
    }
}

/// `lead` as a marker template: its digit runs a `{counter}` (the first
/// only), and when `named` its last word `{token}`, with that word.
fn generalise(lead: &str, named: bool) -> Option<(String, String)> {
    let word_at = if named {
        let (at, last) = lead.char_indices().rfind(|&(_, c)| name_char(c, true))?;
        let end = at + last.len_utf8();
        let start = lead[..end]
            .char_indices()
            .rfind(|&(_, c)| !name_char(c, true))
            .map_or(0, |(i, c)| i + c.len_utf8());
        let word = &lead[start..end];
        // A number is the counter's, not a name.
        word.chars()
            .any(char::is_alphabetic)
            .then_some(start..end)?
    } else {
        lead.len()..lead.len()
    };
    let mut template = String::new();
    let mut counted = false;
    let mut rest = lead[..word_at.start].char_indices().peekable();
    while let Some((i, c)) = rest.next() {
        if c.is_ascii_digit() && !counted {
            while rest.next_if(|(_, d)| d.is_ascii_digit()).is_some() {}
            template.push_str(COUNTER);
            counted = true;
        } else {
            template.push_str(&escape_literal(&lead[i..i + c.len_utf8()]));
        }
    }
    if named {
        template.push_str(NAME);
        template.push_str(&escape_literal(&lead[word_at.end..]));
    }
    Some((template, lead[word_at].to_string()))
}

/// The name a line of the frame starts with under the marker `atoms` (empty
/// without `{token}`), when it starts with one: the template's text as
/// written, digits for the counter.
fn sibling(atoms: &[Atom], line: &str) -> Option<String> {
    let mut rest = line;
    let mut name = String::new();
    for (n, atom) in atoms.iter().enumerate() {
        let run = |rest: &str, f: &dyn Fn(char) -> bool| {
            let end = rest.find(|c: char| !f(c)).unwrap_or(rest.len());
            (end > 0).then_some(end)
        };
        match atom {
            Atom::Text(t) if n + 1 == atoms.len() => rest = rest.strip_prefix(t.trim_end())?,
            Atom::Text(t) => rest = rest.strip_prefix(t.as_str())?,
            Atom::Counter => rest = &rest[run(rest, &|c| c.is_ascii_digit())?..],
            Atom::Name => {
                let end = run(rest, &|c| name_char(c, true))?;
                name = rest[..end].to_string();
                rest = &rest[end..];
            }
        }
    }
    Some(name)
}

/// The declaration `guess` reads: the template, and with a name the
/// content's record's name as the token and the others, each once, as
/// `reserved`.
fn declare(template: String, own: String, names: Vec<String>, named: bool) -> Delimiters {
    let token = if named { own.as_str() } else { LIST_TOKEN };
    let mut delimiters = Delimiters {
        open: Some(template),
        ..Delimiters::simple(GrammarKind::RecordList, token)
    };
    if named {
        for name in names {
            let taken = |n: &String| n.eq_ignore_ascii_case(&name);
            if !name.eq_ignore_ascii_case(&own) && !delimiters.reserved.iter().any(taken) {
                delimiters.reserved.push(name);
            }
        }
    }
    delimiters
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::level::ReaderLevel::{AsciiCaseInsensitive as Ci, Exact, Unicode};
    use crate::reader::Reader;

    fn list(open: &str, tokens: &[&str]) -> Box<dyn Grammar> {
        let d = Delimiters {
            open: Some(open.into()),
            reserved: tokens[1..].iter().map(|t| t.to_string()).collect(),
            ..Delimiters::simple(GrammarKind::RecordList, tokens[0])
        };
        d.try_grammar().unwrap()
    }

    fn live(g: &dyn Grammar, text: &str, level: ReaderLevel) -> Vec<(DelimiterKind, String)> {
        g.live(&Reader::new(level).fold(text))
            .into_iter()
            .map(|d| (d.kind, text[d.start..d.end].to_string()))
            .collect()
    }

    #[test]
    fn a_numbered_marker_is_live_first_on_a_line_with_any_number() {
        let g = list("[{counter}] ", &[LIST_TOKEN]);
        let text = "Results:\n[1] a\n[2] b [3] c\n  [907]\n[4]th place\n[x] no";
        let found = live(g.as_ref(), text, Exact);
        let open = |s: &str| (DelimiterKind::Open, s.to_string());
        assert_eq!(found, vec![open("[1] "), open("[2] "), open("[907]")]);
        // A fullwidth bracket and digit is a marker for the Unicode reader alone.
        let wide = "a\n［５］ forged";
        assert!(live(g.as_ref(), wide, Ci).is_empty());
        assert_eq!(live(g.as_ref(), wide, Unicode).len(), 1);
    }

    #[test]
    fn a_named_marker_opens_for_the_token_and_closes_for_any_other_role() {
        let g = list("{counter}. {token}: ", &["tool", "user", "assistant"]);
        let text = "1. user: hi\n2. tool: x\n3. system: do\n4. weather: sunny\n5. TOOL: y";
        let exact = live(g.as_ref(), text, Exact);
        let kinds: Vec<DelimiterKind> = exact.iter().map(|(k, _)| *k).collect();
        use DelimiterKind::{Close, Open};
        // `weather` names no record; `TOOL` is the token only once case folds.
        assert_eq!(kinds, vec![Close, Open, Close]);
        let folded: Vec<DelimiterKind> =
            live(g.as_ref(), text, Ci).iter().map(|(k, _)| *k).collect();
        assert_eq!(folded, vec![Close, Open, Close, Open]);
        // A line break only the Unicode reader splits at starts a line for it alone.
        let nel = "2. tool: x\u{2028}3. system: do";
        assert_eq!(live(g.as_ref(), nel, Ci).len(), 1);
        assert_eq!(live(g.as_ref(), nel, Unicode).len(), 2);
    }

    #[test]
    fn the_closer_is_the_next_records_marker() {
        let g = list("[{token}] ", &["tool", "assistant"]);
        assert_eq!(g.render(Form::Open, 0).plain(), "[tool] ");
        assert_eq!(g.render(Form::Close, 0).plain(), "[assistant] ");
        let n = list("[{counter}] ", &[LIST_TOKEN]);
        assert_eq!(
            n.render(Form::Close, 0).plain(),
            format!("[{COUNTER_SAMPLE}] ")
        );
        assert_eq!(n.forged_lines(&["system"]).named, Vec::<String>::new());
        assert_eq!(
            g.forged_lines(&["system"]).named,
            vec!["[system] ".to_string()]
        );
    }

    #[test]
    fn a_marker_that_prose_would_match_is_refused() {
        let bad = |open: &str, close: Option<&str>| {
            let d = Delimiters {
                open: Some(open.into()),
                close: close.map(String::from),
                ..Delimiters::simple(GrammarKind::RecordList, "tool")
            };
            d.try_grammar().err()
        };
        assert!(bad("[{counter}] ", None).is_none());
        assert!(bad("{token} ", None).is_some(), "a bare word");
        assert!(bad("Item ", None).is_some(), "no punctuation");
        assert!(
            bad("[{token}{counter}] ", None).is_some(),
            "a name run into a number"
        );
        assert!(bad("[{nonce}] ", None).is_some());
        assert!(bad("[{counter}] {counter}", None).is_some());
        assert_eq!(
            bad("[{counter}] ", Some("x")),
            Some(GrammarError::RecordMarker)
        );
    }

    fn guessed(head: &str, tail: &str) -> Option<(String, String, Vec<String>)> {
        guessed_quoted(head, tail, false)
    }

    /// [`guessed`], saying whether the content came back quoted.
    fn guessed_quoted(
        head: &str,
        tail: &str,
        quoted: bool,
    ) -> Option<(String, String, Vec<String>)> {
        let around = Around {
            head,
            tail,
            field_marks: &["fckind"],
            quoted,
            output: "",
            content: "",
        };
        guess(&around).map(|d| (d.open.unwrap(), d.token, d.reserved))
    }

    #[test]
    fn a_mark_after_the_marker_or_a_quoted_block_under_it_is_the_record_s_text() {
        // Issue 57: `[2] «…»` for one line, `[2] «««` then a block quoted
        // with four spaces for more (the quote prefix already taken off
        // the head). The marker is `[N] ` either way: a line `[4] x` starts
        // a record as `[4] «x»` does.
        let numbered = Some(("[{counter}] ".to_string(), LIST_TOKEN.to_string(), vec![]));
        let inline = guessed("Sources:\n[1] «a»\n[2] «", "fcbodyz1»\n[3] «c»");
        assert_eq!(inline, numbered);
        let block = guessed_quoted(
            "Sources:\n[1] «a»\n[2] «««\n",
            "fcbodyz1\n»»»\n[3] «c»",
            true,
        );
        assert_eq!(block, numbered);
        // Unquoted, the line before is no marker of the content's line.
        assert_eq!(
            guessed("Sources:\n[1] «a»\n[2] «««\n", "fcbodyz1\n»»»\n[3] «c»"),
            None
        );
    }

    #[test]
    fn the_experiment_reads_numbered_and_named_records() {
        let s = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        assert_eq!(
            guessed(
                "Search results:\n[1] sunny\n[2] ",
                "fcbodyz1\n[3] news\nEnd."
            ),
            Some(("[{counter}] ".into(), LIST_TOKEN.into(), vec![]))
        );
        assert_eq!(
            guessed("1. user: hi\r\n2. tool: ", "fcbodyz1\r\n3. assistant:"),
            Some((
                "{counter}. {token}: ".into(),
                "tool".into(),
                s(&["assistant", "user"])
            ))
        );
        assert_eq!(
            guessed("[user] hi\n[tool] ", "fcbodyz1\n[assistant]"),
            Some((
                "[{token}] ".into(),
                "tool".into(),
                s(&["assistant", "user"])
            ))
        );
        assert_eq!(
            guessed("Sources:\n- a\n- ", "fcbodyz1\n- c"),
            Some(("- ".into(), LIST_TOKEN.into(), vec![]))
        );
        // A line no other line repeats, a sentence, a field's line: no list.
        assert_eq!(guessed("Intro.\n[2] ", "fcbodyz1\nThe end."), None);
        assert_eq!(
            guessed("The page says ", "fcbodyz1\nThe page says more"),
            None
        );
        assert_eq!(guessed("[1] fckind\n[2] fckind ", "fcbodyz1\n[3] x"), None);
    }
}
