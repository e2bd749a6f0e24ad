//! Grammar `table-cell`: the content is one cell of a Markdown (GFM) table
//! row: `| source | content |\n|---|---|\n| web | CONTENT |`, often one row
//! per document or tool result.
//!
//! A cell ends at the next live `|` of its row, and the row at the next line
//! break: there is no closer of the frame's own, only the next cell's bar
//! (or the row's end), so the grammar is open-only like `section` and
//! `record-list`. Every live bar is an opener (it starts the next cell) and
//! every line break a closer (it ends the row). A bar is live unless it is
//! escaped as GFM and CommonMark say: an odd number of backslashes right
//! before it (`\|` is a bar inside the cell; `\\|` an escaped backslash,
//! then a live bar). Both the bar and the backslashes are read as the
//! reader's level folds them, so at `unicode` a fullwidth `｜` or any
//! character the level's lookalike table maps to `|` is a bar too; the
//! level owns that folding, not this module. Line breaks are the ones the
//! reader's level splits lines at: a raw LF for every reader, a lone CR,
//! NEL or U+2028 for the levels that split there. A backslash never
//! escapes a line break: the row still ends there.
//!
//! No token is spelled by a delimiter: the token names the frame in
//! reports. `init` writes the header of the content's column (`content`),
//! which is what a reader of the table calls that cell, or [`CELL_TOKEN`]
//! when the header cannot be a token.

use super::{
    Around, DelimiterKind, Delimiters, Extras, Fields, Form, Grammar, GrammarAttack, GrammarError,
    GrammarKind, Guess, LiveDelimiter, Piece, Shape, Spelling, Vocabulary, MASK,
};
use crate::reader::Folded;

/// The token an inferred table cell is declared with when its column's
/// header cannot be a token: it names the frame in reports, and no
/// delimiter spells it.
pub(super) const CELL_TOKEN: &str = "CELL";

/// The cell boundary.
const BAR: char = '|';

/// The escape character of a CommonMark text.
const BACKSLASH: char = '\\';

/// The `table-cell` grammar: its vocabulary, which only names the frame.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct TableCell {
    vocabulary: Vocabulary,
}

/// The `table-cell` shape.
pub(super) struct TableCellShape;

/// The cases only a table cell invites (attacks/breakout.yaml).
const ATTACKS: &[GrammarAttack] = &[GrammarAttack {
    case: "table-cell-escaped-backslash",
    what: "a backslash before a bar: a framing that writes `|` as `\\|` but leaves `\\` \
           as it is writes `\\\\|`, an escaped backslash and then a live bar",
}];

impl Shape for TableCellShape {
    fn fields(&self) -> Fields {
        Fields {
            // A column's header is often a phrase (`Tool output`).
            phrase_tokens: true,
            ..Fields::default()
        }
    }

    fn build(
        &self,
        vocabulary: Vocabulary,
        _extras: Extras<'_>,
    ) -> Result<Box<dyn Grammar>, GrammarError> {
        Ok(Box::new(TableCell { vocabulary }))
    }

    /// A cell ends where the next cell's bar, or the row's line break,
    /// begins: the framing writes no closer of the cell's own.
    fn is_open_only(&self) -> bool {
        true
    }

    /// After the fence and before the begin/end markers and the sections:
    /// a table's delimiter row (`|---|---|`) is strict evidence, while a row
    /// `| web | … |` would also read as a named marker line, a record list
    /// (`| {token} | `) or an inline pair of bars.
    fn guesses(&self) -> &'static [Guess] {
        &[Guess {
            rank: 25,
            read: guess,
        }]
    }

    fn evidence(&self) -> &'static str {
        "the content's line is a row of a Markdown table (a delimiter row `|---|---|` above it): \
         the content starts right after a `|` and a `|` or the line's end follows it"
    }

    fn example(&self) -> Delimiters {
        Delimiters::simple(GrammarKind::TableCell, "content")
    }
}

/// Whether the folded character at `i` is a live bar: the reader reads a
/// bar there with an even number of backslashes (as it folds them) right
/// before it.
fn live_bar(folded: &Folded<'_>, i: usize) -> bool {
    if folded.ch(i) != Some(BAR) {
        return false;
    }
    let escapes = (0..i)
        .rev()
        .take_while(|&k| folded.ch(k) == Some(BACKSLASH))
        .count();
    escapes % 2 == 0
}

impl Grammar for TableCell {
    fn kind(&self) -> GrammarKind {
        GrammarKind::TableCell
    }

    /// Every live bar (an opener: it starts a cell) and every line break
    /// the reader splits at (a closer: it ends the row), in text order.
    fn live(&self, folded: &Folded<'_>) -> Vec<LiveDelimiter> {
        let delimiter = |kind, start, end| LiveDelimiter {
            token: 0,
            kind,
            start,
            end,
            nonce: None,
            request_kind: None,
        };
        let mut found: Vec<LiveDelimiter> = folded
            .positions_of(BAR)
            .filter(|&i| live_bar(folded, i))
            .map(|i| {
                let span = folded.source_span(i, i + 1);
                delimiter(DelimiterKind::Open, span.start, span.end)
            })
            .collect();
        let lines = folded.reader.lines(folded.text);
        found.extend(
            lines
                .windows(2)
                .map(|pair| delimiter(DelimiterKind::Close, pair[0].end, pair[1].start)),
        );
        found.sort_by_key(|d| (d.start, d.end));
        found
    }

    /// A bar for every form but the token: it opens the next cell, and
    /// closes the content's. Variants respell it as punctuation
    /// (fullwidth `｜`, lookalikes).
    fn render(&self, form: Form, token: usize) -> Spelling {
        match form {
            Form::Token => Spelling(self.vocabulary.render_token(token)),
            Form::Open | Form::OpenStart | Form::Close => Spelling(vec![Piece::Punct(BAR)]),
        }
    }

    fn opener_has_attributes(&self) -> bool {
        false
    }

    fn brackets(&self) -> Option<(char, char)> {
        None
    }

    /// What search edits to forge the end of the cell: the bar, since no
    /// delimiter spells the token.
    fn anchor(&self, token: usize) -> String {
        self.render(Form::Close, token).plain()
    }

    fn attacks(&self) -> &'static [GrammarAttack] {
        ATTACKS
    }
}

/// The byte offsets of `row`'s unescaped bars, as written.
fn bars(row: &str) -> Vec<usize> {
    let mut found = Vec::new();
    let mut escapes = 0;
    for (i, c) in row.char_indices() {
        if c == BAR && escapes % 2 == 0 {
            found.push(i);
        }
        escapes = if c == BACKSLASH { escapes + 1 } else { 0 };
    }
    found
}

/// The cells of a table row as written: the text between its unescaped
/// bars, trimmed, without the empty cells outside a leading or trailing
/// bar.
fn cells(row: &str) -> Vec<&str> {
    let mut cells = Vec::new();
    let mut start = 0;
    for at in bars(row) {
        cells.push(row[start..at].trim_matches([' ', '\t']));
        start = at + 1;
    }
    cells.push(row[start..].trim_matches([' ', '\t']));
    if cells.first() == Some(&"") {
        cells.remove(0);
    }
    if cells.len() > 1 && cells.last() == Some(&"") {
        cells.pop();
    }
    cells
}

/// Whether `line` is a GFM delimiter row: cells of dashes, each with an
/// optional colon at either end, and at least one bar.
fn is_delimiter_row(line: &str) -> bool {
    let line = line.trim_end_matches('\r');
    line.contains(BAR)
        && cells(line).iter().all(|cell| {
            let dashes = cell.trim_start_matches(':').trim_end_matches(':');
            !dashes.is_empty() && dashes.chars().all(|c| c == '-')
        })
}

/// `init`'s experiment: the content's line is a row of a Markdown table (a
/// delimiter row above it, the header row above that), the content starts
/// right after a bar and spaces, and after its last word comes a bar or
/// the line's end. The token is the header of the content's column when
/// that can be a token, else [`CELL_TOKEN`].
fn guess(around: &Around<'_>) -> Option<Delimiters> {
    let (above, row) = around.head.rsplit_once('\n').unwrap_or(("", around.head));
    let cells_before = row.trim_end_matches([' ', '\t']);
    if bars(cells_before).last().map(|&at| at + 1) != Some(cells_before.len()) {
        return None;
    }
    let rest = around
        .tail
        .trim_start_matches(|c: char| c.is_ascii_alphanumeric());
    let after = rest.split(['\n', '\r']).next().unwrap_or("");
    let after = after.trim_start_matches([' ', '\t']);
    if !(after.is_empty() || after.starts_with(BAR)) {
        return None;
    }
    let lines: Vec<&str> = above.lines().collect();
    let at = lines.iter().rposition(|l| is_delimiter_row(l))?;
    let header = cells(lines.get(at.checked_sub(1)?)?.trim_end_matches('\r'));
    // The content's column: the cells the row writes before it.
    let leading = row.trim_start_matches([' ', '\t']).starts_with(BAR);
    let column = bars(row).len().saturating_sub(usize::from(leading));
    let name = header.get(column).copied().unwrap_or("");
    let unsafe_name = name.contains(MASK) || around.field_marks.iter().any(|m| name.contains(m));
    let named = Delimiters::simple(GrammarKind::TableCell, name);
    if !unsafe_name && named.validate().is_ok() {
        return Some(named);
    }
    Some(Delimiters::simple(GrammarKind::TableCell, CELL_TOKEN))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::level::ReaderLevel::{self, AsciiCaseInsensitive as Ci, Exact, Unicode};
    use crate::reader::Reader;

    fn grammar() -> Box<dyn Grammar> {
        Delimiters::simple(GrammarKind::TableCell, "content")
            .try_grammar()
            .unwrap()
    }

    fn live(text: &str, level: ReaderLevel) -> Vec<(DelimiterKind, &str)> {
        grammar()
            .live(&Reader::new(level).fold(text))
            .into_iter()
            .map(|d| (d.kind, &text[d.start..d.end]))
            .collect()
    }

    #[test]
    fn a_bar_is_live_unless_an_odd_run_of_backslashes_escapes_it() {
        use DelimiterKind::Open;
        let text = r"a \| b \\| c \\\| d | e";
        // `\|` and `\\\|` are escaped; `\\|` and the bare bar are live.
        let found = live(text, Exact);
        assert_eq!(found, vec![(Open, "|"), (Open, "|")]);
        let bars: Vec<usize> = grammar()
            .live(&Reader::new(Exact).fold(text))
            .iter()
            .map(|d| d.start)
            .collect();
        assert_eq!(bars, vec![9, 20]);
    }

    #[test]
    fn a_unicode_bar_and_break_are_live_only_where_the_level_reads_them() {
        use DelimiterKind::{Close, Open};
        let text = "x ｜ y\u{2028}z";
        assert!(live(text, Exact).is_empty());
        assert!(live(text, Ci).is_empty());
        assert_eq!(live(text, Unicode), vec![(Open, "｜"), (Close, "\u{2028}")]);
        // A fullwidth backslash escapes a bar for the reader that folds it.
        assert!(live("a ＼| b", Unicode).is_empty());
        assert_eq!(live("a ＼| b", Exact), vec![(Open, "|")]);
        // A raw LF ends the row for every reader, escaped or not.
        assert_eq!(live("a\\\nb", Exact), vec![(Close, "\n")]);
    }

    #[test]
    fn every_form_is_a_bar_and_the_token_only_names_the_frame() {
        let g = grammar();
        assert_eq!(g.render(Form::Close, 0).plain(), "|");
        assert_eq!(g.render(Form::Open, 0).plain(), "|");
        assert_eq!(g.render(Form::Token, 0).plain(), "content");
        assert_eq!(g.anchor(0), "|");
        assert!(g.forged_lines(&["system"]).is_empty());
    }

    fn guessed(head: &str, tail: &str) -> Option<String> {
        let around = Around {
            head,
            tail,
            field_marks: &["fckind"],
            quoted: false,
            output: "",
            content: "",
        };
        guess(&around).map(|d| {
            assert_eq!(d.grammar, GrammarKind::TableCell);
            d.token
        })
    }

    #[test]
    fn the_experiment_reads_a_row_under_a_delimiter_row() {
        let table = "| source | content |\n|---|:---:|\n| a | b |\n| web | ";
        assert_eq!(
            guessed(table, "fcbodyz1 |\n| x | y |"),
            Some("content".into())
        );
        // No leading bar; the content last on its line; a phrase header.
        let bare = "Source | Tool output\n--- | ---\nweb | ";
        assert_eq!(guessed(bare, "fcbodyz1"), Some("Tool output".into()));
        // A header that cannot be a token names nothing.
        let odd = "| a | <b> |\n|---|---|\n| x | ";
        assert_eq!(guessed(odd, "fcbodyz1 |"), Some(CELL_TOKEN.into()));
        // No delimiter row, prose after the content, or no bar before it.
        assert_eq!(guessed("| web | ", "fcbodyz1 |"), None);
        assert_eq!(guessed(table, "fcbodyz1 and more"), None);
        assert_eq!(guessed("| a |\n|---|\nText: ", "fcbodyz1"), None);
    }

    #[test]
    fn a_delimiter_row_is_dashes_between_bars() {
        assert!(is_delimiter_row("|---|:--:|"));
        assert!(is_delimiter_row("--- | ---"));
        assert!(!is_delimiter_row("---"));
        assert!(!is_delimiter_row("| a | --- |"));
        assert_eq!(cells(r"| a \| b | c |"), vec![r"a \| b", "c"]);
    }
}
