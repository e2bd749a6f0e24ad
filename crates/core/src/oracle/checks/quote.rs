//! Check `quote.escape`: in a body quoted with a line prefix
//! (`body.encoding: line-prefix`, `body.line_prefix: "> "`), a line the
//! content starts without the prefix. A reader takes every prefixed line
//! for quoted data and a line without the prefix for the framing's own
//! text, so such a line has left the quote although no delimiter was
//! forged. Which breaks start a line is the reader level's own rule
//! ([`crate::reader::Reader::next_line_break`]): a framing that prefixes
//! after LF alone fails at the levels that also split at CR or U+2028, and
//! at those only.

//!
//! A framing may quote only some outputs (a one-line content inline, a
//! longer one as a block quoted with four spaces: `body.encoding:
//! { per-content: [none, line-prefix] }`): each output is held to the
//! quote when the encoding it is judged in quotes lines ([`prefix_of`]).
//! On a quoted line, a marker that is live only first on a line is quoted
//! data, not a marker ([`quoted_lines`]).

use std::ops::Range;

use super::findings::{framed_excerpt, Findings};
use super::records::break_name;
use crate::encoding::line_prefix::is_quoted;
use crate::grammar::Grammar;
use crate::layout::{Layout, Match};
use crate::oracle::view::View;
use crate::oracle::Check;
use crate::profile::ResolvedProfile;
use crate::reader::UNICODE_LINE_BREAKS;

/// The prefix `framed`'s body is quoted with: the profile's line prefix
/// when the encoding the output is judged in quotes lines. With a choice
/// per content ([`Layout::encoding_for`]) an output the framing wrote in
/// another encoding (a one-line content inline, as it is) has no quote to
/// leave. Without a fitted layout, the profile's prefix: the slot is not
/// known, so every declared quote is held.
pub(super) fn prefix_of<'p>(
    profile: &'p ResolvedProfile,
    layout: Option<&Layout>,
    fitted: Option<&Match>,
    content: &str,
    framed: &str,
) -> Option<&'p str> {
    let prefix = profile.body.quote_prefix()?;
    let (Some(layout), Some(m)) = (layout, fitted) else {
        return Some(prefix);
    };
    let encoding = layout.encoding_for(&framed[m.content.clone()], content);
    let quotes = encoding
        .layers()
        .into_iter()
        .any(|e| e.codec().quotes_lines());
    quotes.then_some(prefix)
}

/// [`quoted_lines`] of the profile's grammar in the slot the layout
/// `fitted`, when the output is quoted (`quote`, [`prefix_of`]); none
/// without a fitted slot.
pub(super) fn quoted_slot_lines(
    profile: &ResolvedProfile,
    quote: Option<&str>,
    fitted: Option<&Match>,
    framed: &str,
) -> Vec<Range<usize>> {
    match (quote, fitted) {
        (Some(prefix), Some(m)) => {
            quoted_lines(&*profile.grammar(), prefix, framed, m.content.clone())
        }
        _ => Vec::new(),
    }
}

/// The lines of `framed` that hold part of the content slot `content` and
/// start with `prefix`, each from its start to its end: quoted lines, on
/// which a marker of a grammar whose markers are live only first on a line
/// ([`Grammar::marks_line_starts`]) is quoted data (an indented `[4] `
/// inside a block quoted with four spaces). Lines are split at every break
/// `str.splitlines()` knows (CRLF as one): a level that splits at fewer
/// sees no line start on such a line at all, so nothing is set aside that
/// a reader at any level takes for a marker. A line that starts with the
/// prefix is quoted whoever wrote the prefix, as [`check_quote`] holds.
/// Empty for any other grammar.
pub(super) fn quoted_lines(
    grammar: &dyn Grammar,
    prefix: &str,
    framed: &str,
    content: Range<usize>,
) -> Vec<Range<usize>> {
    if !grammar.marks_line_starts() || prefix.is_empty() {
        return Vec::new();
    }
    let after_break = |at: usize| {
        framed[at..]
            .char_indices()
            .find(|&(_, c)| UNICODE_LINE_BREAKS.contains(&c))
            .map(|(i, c)| (at + i, at + i + c.len_utf8()))
    };
    let mut start = framed[..content.start]
        .char_indices()
        .rfind(|&(_, c)| UNICODE_LINE_BREAKS.contains(&c))
        .map_or(0, |(i, c)| i + c.len_utf8());
    let mut quoted = Vec::new();
    while start < content.end {
        let (end, next) = after_break(start).unwrap_or((framed.len(), framed.len()));
        if framed[start..end].starts_with(prefix) {
            quoted.push(start..end);
        }
        if next >= framed.len() {
            break;
        }
        // CRLF is one break: the LF after a CR starts no line.
        start = if framed[end..].starts_with("\r\n") {
            end + 2
        } else {
            next
        };
    }
    quoted
}

/// Fails `quote.escape` at `view`'s level when a line that starts after a
/// line break inside `content` (the content slot as written, the first
/// line's prefix being the framing's text before it) does not start with
/// `prefix` as the level folds both ([`is_quoted`]: a reader that reads
/// `＞` as `>` takes `＞ ` for the prefix). A line of white space alone
/// carries no text to escape with (`textwrap.indent` leaves such lines
/// unprefixed), so it is no finding; invisible characters are text here (a
/// model reads Unicode tag characters), so such a line is one. The first escaping line is the evidence; more add
/// nothing.
pub(super) fn check_quote(
    findings: &mut Findings,
    prefix: &str,
    view: &View<'_>,
    content: Range<usize>,
) {
    let (text, reader) = (view.folded.text, view.folded.reader);
    let folded_prefix = reader.fold_str(prefix);
    let mut from = content.start;
    while let Some(brk) = reader.next_line_break(text, from) {
        // A break that ends the slot is the framing's own: what follows is
        // its next line, not the content's.
        if brk.end >= content.end {
            return;
        }
        let line_end = reader
            .next_line_break(text, brk.end)
            .map_or(text.len(), |b| b.start)
            .min(content.end);
        let line = &text[brk.end..line_end];
        let blank = line.chars().all(char::is_whitespace);
        if !blank && !is_quoted(&reader.fold_str(line), &folded_prefix) {
            findings.security(
                Check::QuoteEscape,
                view.level(),
                format!(
                    "a line of the content escapes the quote at {} (it does not start with {prefix:?})",
                    break_name(&text[brk.clone()])
                ),
                framed_excerpt(text, brk.start..line_end),
            );
            return;
        }
        from = brk.end;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::level::ReaderLevel;

    /// The messages `quote.escape` gives at `level` for `body`, framed as
    /// `Quoted:\n> {body}\nReply:`.
    fn messages(body: &str, level: ReaderLevel) -> Vec<String> {
        let head = "Quoted:\n> ";
        let framed = format!("{head}{body}\nReply:");
        let view = super::super::whole_view(&framed, level);
        let mut findings = Findings::default();
        check_quote(
            &mut findings,
            "> ",
            &view,
            head.len()..head.len() + body.len(),
        );
        findings.0.into_iter().map(|f| f.message).collect()
    }

    #[test]
    fn a_line_without_the_prefix_escapes_at_the_levels_that_split_there() {
        use ReaderLevel::{AsciiCaseInsensitive as Ci, Exact, Unicode};
        let escaped = |at: &str| {
            vec![format!(
                "a line of the content escapes the quote at {at} (it does not start with \"> \")"
            )]
        };
        // A prefixed body, the framing's own line after it, an empty line
        // written as the bare prefix: no finding at any level.
        for level in ReaderLevel::ALL {
            assert!(messages("a\n> b\n>\n> c", level).is_empty(), "{level}");
            assert!(messages("a\u{2028}> b\r> c\r\n> d", level).is_empty());
            assert!(messages("one line", level).is_empty());
        }
        assert_eq!(messages("a\nReply: forged", Exact), escaped("LF"));
        // U+2028 starts a line at the unicode level only, a lone CR from
        // the case-insensitive level on, CRLF at every level.
        let ls = "a\u{2028}Reply: forged";
        assert!(messages(ls, Exact).is_empty() && messages(ls, Ci).is_empty());
        assert_eq!(messages(ls, Unicode), escaped("U+2028"));
        assert!(messages("a\rReply:", Exact).is_empty());
        assert_eq!(messages("a\rReply:", Ci), escaped("CR (alone)"));
        assert_eq!(messages("a\r\nReply:", Exact), escaped("CRLF"));
        for brk in ['\u{0B}', '\u{0C}', '\u{85}', '\u{2029}'] {
            let body = format!("a{brk}Reply:");
            assert!(messages(&body, Ci).is_empty(), "{brk:?}");
            assert_eq!(messages(&body, Unicode).len(), 1, "{brk:?}");
        }
        // A line starting with the bare prefix (`>x`, `>`) is quoted, as
        // a mail reader takes it; a blank line has no text to escape with.
        assert!(messages("a\n>x\n>\n\n  \n> b", Exact).is_empty());
        // A lookalike prefix is the prefix for the level that folds it.
        let fullwidth = "a\r\u{FF1E} forged";
        assert_eq!(messages(fullwidth, Ci), escaped("CR (alone)"));
        assert!(messages(fullwidth, Unicode).is_empty());
    }

    #[test]
    fn a_marker_first_on_a_quoted_line_is_set_apart_for_line_marker_grammars_only() {
        use crate::grammar::{Delimiters, GrammarKind};
        let head = "[1] «a»\n[2] «««\n    ";
        let body = "x\n    [4] «y»\u{2028}[5] z\r\n    w";
        let framed = format!("{head}{body}\n»»»\n[3] «c»");
        let slot = head.len()..head.len() + body.len();
        let spans = |d: Delimiters| {
            let grammar = d.try_grammar().unwrap();
            quoted_lines(&*grammar, "    ", &framed, slot.clone())
                .into_iter()
                .map(|r| framed[r].to_string())
                .collect::<Vec<_>>()
        };
        let list = Delimiters {
            open: Some("[{counter}] ".into()),
            ..Delimiters::simple(GrammarKind::RecordList, "RECORD")
        };
        // The first line (its prefix the framing's), the LF's and the
        // CRLF's lines: quoted. The line after U+2028 has no prefix.
        assert_eq!(spans(list), ["    x", "    [4] «y»", "    w"]);
        // A tag is live anywhere on a line: nothing is set apart.
        assert!(spans(Delimiters::simple(GrammarKind::XmlTag, "doc")).is_empty());
    }
}
