//! `init`'s experiments for the `begin-end` shape: marker lines around the
//! content that name the same thing (`--- BEGIN X ---` / `--- END X ---`,
//! `<<<X>>>` / `<<<END_X>>>`), and boundary lines that share one word
//! (`--{nonce}` / `--{nonce}--`), the same line before and after the
//! content (`=====`, `===== {nonce} =====`), a here-document's
//! terminator (`cat <<'EOF'` / `EOF`), and a length note (`Tool result (59
//! characters follow):` / `End of tool result.`). Each answers the
//! templates it read.

use super::escape_literal;
use crate::grammar::token::COUNTER;
use crate::grammar::{Around, Delimiters, GrammarKind, MASK};

/// Words that say which end of a section a marker is, not what it names.
const END_WORDS: [&str; 4] = ["END", "STOP", "CLOSE", "FINISH"];
const BEGIN_WORDS: [&str; 3] = ["BEGIN", "START", "OPEN"];

/// Marker lines: a line before the content and a line after it that name
/// the same thing, the closing one marked as the end (an end word, or a
/// slash before the name). The name shared is the token: its longest word,
/// so a name of several words keeps the others in the templates, where the
/// begin-end grammar folds them as it folds the token. Header lines may sit
/// between the opening marker and the content.
pub(super) fn markers(around: &Around<'_>) -> Option<Delimiters> {
    let (head, tail) = (around.head, around.tail);
    // The tail starts with the content's last word; the closing marker is
    // the first line after it that names something and is marked as an
    // end (what is left of the content's own line, `"}` closing a JSON
    // record, names nothing; a footer sentence is no end marker).
    let tail = tail.trim_start_matches(|c: char| c.is_ascii_alphanumeric());
    let is_end = |line: &str, names: &[Name]| {
        !names.is_empty() && (line.contains('/') || names.iter().any(|n| n.marked))
    };
    let (close_line, close_names) = tail
        .lines()
        .map(str::trim)
        .map(|l| (l, names(l, &END_WORDS, false)))
        .find(|(l, n)| is_end(l, n))?;
    let (open_line, name) = head.lines().rev().map(str::trim).find_map(|line| {
        // An opener may label its name (`[TOOL RESULT: search]`): the
        // closer naming it says it is the frame's name, not a field's.
        let opened = names(line, &BEGIN_WORDS, true);
        close_names
            .iter()
            .filter(|c| opened.iter().any(|o| o.name == c.name))
            .max_by_key(|c| c.name.len())
            .map(|c| (line, c.name.clone()))
    })?;
    let token = name
        .split(' ')
        .filter(|w| w.chars().any(|c| c.is_ascii_alphabetic()))
        .max_by_key(|w| w.len())?
        .to_string();
    let template = |line: &str| {
        let at = line.find(&name)? + name.find(&token)?;
        Some(format!(
            "{}{{token}}{}",
            escape_literal(&line[..at]),
            escape_literal(&line[at + token.len()..])
        ))
    };
    let (open, close) = (template(open_line)?, template(close_line)?);
    // A marker that carries a request's field (`kind="…"`) would need
    // `{attrs}`: no template is proposed rather than one holding a value.
    if around
        .field_marks
        .iter()
        .any(|m| open.contains(m) || close.contains(m))
    {
        return None;
    }
    (open != close).then(|| Delimiters {
        open: Some(open),
        close: Some(close),
        ..Delimiters::simple(GrammarKind::BeginEnd, &token)
    })
}

/// A name in a marker line, with whether an end (or begin) word marked it.
struct Name {
    name: String,
    marked: bool,
}

/// The names in a marker line: runs of name characters joined by single
/// spaces, without a leading begin or end word (`END_X`, `END X`), and
/// without words that are attribute or field names (followed by `=` or
/// `:`, unless `labels` keeps a name followed by `:`) or masked values.
fn names(line: &str, edge_words: &[&str], labels: bool) -> Vec<Name> {
    let word_char = |c: char| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.');
    let mut runs: Vec<Vec<&str>> = vec![Vec::new()];
    let mut rest = line;
    // A word starts with a letter or digit, and does not end in a joiner
    // (`---`, `END_` are punctuation, not names).
    while let Some(start) = rest.find(|c: char| c.is_ascii_alphanumeric()) {
        let after = &rest[start..];
        let len = after.find(|c: char| !word_char(c)).unwrap_or(after.len());
        let len = after[..len].trim_end_matches(['_', '-', '.']).len();
        let (word, next) = after.split_at(len);
        let gap = &rest[..start];
        let gap_is_space = gap == " " || gap.is_empty();
        // `name=` and `Name:` label a value; a run of `=` (`=== END X ===`)
        // is punctuation.
        let after_word = next.trim_start();
        let label = after_word.starts_with([':', '=']) && !after_word.starts_with("==");
        let kept = labels && after_word.starts_with(':');
        // An attribute's value (`id="3f9a…"`) names nothing.
        let value = gap.trim_end_matches(['"', '\'']).ends_with('=');
        if !gap_is_space {
            runs.push(Vec::new());
        }
        if kept {
            runs.last_mut().expect("one run at least").push(word);
            runs.push(Vec::new());
        } else if label || value {
            runs.push(Vec::new());
        } else {
            runs.last_mut().expect("one run at least").push(word);
        }
        rest = next;
    }
    let names = runs
        .into_iter()
        .filter(|r| !r.is_empty())
        .map(|words| strip_edge(&words.join(" "), edge_words));
    after_edge_words(names, edge_words)
        .filter(|n| n.name.chars().any(|c| c.is_ascii_alphabetic()))
        .collect()
}

/// `names` with an edge word standing alone, set off from the next name by
/// punctuation (LaTeX's `\end{verbatim}`, `{% end block %}`), taken as
/// marking that name rather than as a name of its own: a reader ends the
/// environment at that line as it does at `END verbatim`.
fn after_edge_words<'a>(
    names: impl Iterator<Item = Name> + 'a,
    edge_words: &'a [&str],
) -> impl Iterator<Item = Name> + 'a {
    let mut pending = false;
    names.filter_map(move |mut n| {
        if !n.marked && edge_words.iter().any(|w| n.name.eq_ignore_ascii_case(w)) {
            pending = true;
            return None;
        }
        n.marked |= std::mem::take(&mut pending);
        Some(n)
    })
}

/// `name` without one edge word, leading (`END_X`, `END-X`, `END X`) or,
/// failing that, trailing (`X_END`, `X end`): framings write both orders
/// (`<!-- tool output end -->`).
fn strip_edge(name: &str, edge_words: &[&str]) -> Name {
    let separator = |c: char| matches!(c, '_' | '-' | ' ');
    let upper = name.to_ascii_uppercase();
    let leading = edge_words.iter().find_map(|word| {
        let rest = upper.strip_prefix(word)?;
        let sep = rest.chars().next().filter(|&c| separator(c))?;
        Some(name[word.len() + sep.len_utf8()..].to_string())
    });
    let trailing = || {
        edge_words.iter().find_map(|word| {
            let rest = upper.strip_suffix(word)?;
            let sep = rest.chars().next_back().filter(|&c| separator(c))?;
            Some(name[..rest.len() - sep.len_utf8()].to_string())
        })
    };
    match leading.or_else(trailing) {
        Some(name) => Name { name, marked: true },
        None => Name {
            name: name.to_string(),
            marked: false,
        },
    }
}

/// Boundary lines: a line before the content and a line after it that
/// share one word and name nothing else, spelled with other punctuation
/// (a MIME-style `--{nonce}` … `--{nonce}--`, or `--frontier` …
/// `--frontier--`). The word (with the per-call value it holds, if any) is
/// the token, and the two lines around it are the templates. Lines that
/// are nothing but the word, or the same line twice, are no begin-end
/// markers: a template needs literal text, and an open and a close spelled
/// alike cannot be told apart.
pub(super) fn boundary(around: &Around<'_>) -> Option<Delimiters> {
    let (head, tail) = (around.head, around.tail);
    let joins = |c: char| c.is_ascii_alphanumeric() || c == '_' || c == MASK;
    // The words of a line, as runs of word characters (a per-call value
    // is part of the word it sits in).
    let words = |line: &str| -> Vec<String> {
        line.split(|c: char| !joins(c))
            .filter(|w| !w.is_empty())
            .map(str::to_string)
            .collect()
    };
    let tail = tail.trim_start_matches(|c: char| c.is_ascii_alphanumeric());
    let marker = |line: &&str| {
        let w = words(line);
        w.len() == 1 && (w[0].contains(MASK) || w[0].chars().any(|c| c.is_ascii_alphabetic()))
    };
    let close_line = tail.lines().map(str::trim).find(marker)?;
    let open_line = head.lines().rev().map(str::trim).find(marker)?;
    let token = words(open_line).pop()?;
    if words(close_line) != [token.clone()] {
        return None;
    }
    let template = |line: &str| {
        let at = line.find(&token).expect("the token is a word of the line");
        format!(
            "{}{{token}}{}",
            escape_literal(&line[..at]),
            escape_literal(&line[at + token.len()..])
        )
    };
    let (open, close) = (template(open_line), template(close_line));
    let literal = |t: &str| t.replace("{token}", "").chars().any(|c| !c.is_whitespace());
    (open != close && literal(&open) && literal(&close)).then(|| Delimiters {
        open: Some(open),
        close: Some(close),
        ..Delimiters::simple(GrammarKind::BeginEnd, &token)
    })
}

/// A here-document: after the content a line that is one word alone (the
/// terminator, `EOF`), and before it a line that ends in that word written
/// right after punctuation (`cat <<'EOF'`, `<<EOF`, PHP's `<<<EOT`): a
/// shell, Perl, Ruby or PHP ends such a body at the first line that is the
/// word alone, and a model reads it the same way. The word (with the
/// per-call value it holds, if any) is the token, the closer is `{token}`
/// alone, and both markers are lines ([`super::BeginEnd`]): a word after a
/// space is prose, and so is the terminator's word inside a sentence.
pub(super) fn terminator(around: &Around<'_>) -> Option<Delimiters> {
    let joins = |c: char| c.is_ascii_alphanumeric() || c == '_' || c == MASK;
    let tail = around
        .tail
        .trim_start_matches(|c: char| c.is_ascii_alphanumeric());
    let word = tail.lines().map(str::trim).find(|l| !l.is_empty())?;
    let named = word.chars().any(|c| c.is_ascii_alphabetic() || c == MASK);
    if !(named && word.chars().all(joins)) {
        return None;
    }
    let open_line = around
        .head
        .lines()
        .rev()
        .map(str::trim)
        .find(|l| !l.is_empty())?;
    let quoted = open_line.trim_end_matches(['\'', '"']);
    let before = quoted.strip_suffix(word)?;
    // `<<` or an opening quote right before the word: after a space or a
    // letter the word is the end of a sentence or of a longer name.
    if !before.ends_with(|c: char| c.is_ascii_punctuation()) {
        return None;
    }
    if around.field_marks.iter().any(|m| open_line.contains(m)) {
        return None;
    }
    let open = format!(
        "{}{{token}}{}",
        escape_literal(before),
        escape_literal(&open_line[quoted.len()..])
    );
    Some(Delimiters {
        open: Some(open),
        close: Some("{token}".into()),
        ..Delimiters::simple(GrammarKind::BeginEnd, word)
    })
}

/// A length note: the nearest line before the content states the content's
/// length (`Tool result (59 characters follow):`, the number of characters,
/// UTF-8 bytes or UTF-16 units of the content sent), and the nearest line
/// after it ends the body (`End of tool result.`). The number varies with
/// the content, so it is declared as `{counter}`: a marker with any number
/// is the framing's, and the number is no secret. A model does not count,
/// so the length delimits nothing for it: the two lines are the markers,
/// declared without `{token}`, which makes them lines ([`super::BeginEnd`]),
/// live only alone on their line. Both lines must hold words (prose a model
/// reads as a marker); the token, the closer's longest word, only names the
/// frame in reports.
pub(super) fn length_note(around: &Around<'_>) -> Option<Delimiters> {
    let tail = around
        .tail
        .trim_start_matches(|c: char| c.is_ascii_alphanumeric());
    let close_line = tail.lines().map(str::trim).find(|l| !l.is_empty())?;
    let open_line = (around.head.lines().rev())
        .map(str::trim)
        .find(|l| !l.is_empty())?;
    let marked = |l: &str| around.field_marks.iter().any(|m| l.contains(m));
    if marked(open_line) || marked(close_line) {
        return None;
    }
    let number = length_in(open_line, around.content)?;
    let (before, after) = (&open_line[..number.start], &open_line[number.end..]);
    let worded = |l: &str| l.chars().any(|c| c.is_ascii_alphabetic());
    if !worded(close_line) || !(worded(before) || worded(after)) {
        return None;
    }
    let token = close_line
        .split(|c: char| !c.is_ascii_alphabetic())
        .max_by_key(|w| w.len())?;
    Some(Delimiters {
        open: Some(format!(
            "{}{COUNTER}{}",
            escape_literal(before),
            escape_literal(after)
        )),
        close: Some(escape_literal(close_line)),
        ..Delimiters::simple(GrammarKind::BeginEnd, token)
    })
}

/// Where `line` writes the length of `content` as a decimal number (in
/// characters, UTF-8 bytes or UTF-16 units: framings count all three), a
/// whole run of digits; `None` when it writes none or the content is not
/// known.
fn length_in(line: &str, content: &str) -> Option<std::ops::Range<usize>> {
    if content.is_empty() {
        return None;
    }
    let lengths = [
        content.chars().count(),
        content.len(),
        content.encode_utf16().count(),
    ];
    let mut at = 0;
    while let Some(start) = line[at..].find(|c: char| c.is_ascii_digit()) {
        let start = at + start;
        let len = line[start..]
            .find(|c: char| !c.is_ascii_digit())
            .unwrap_or(line.len() - start);
        let end = start + len;
        // A run inside a word (`v2`, `x86`) is a name, not a length.
        let in_word = line[..start]
            .chars()
            .next_back()
            .is_some_and(|c| c.is_alphanumeric() || c == MASK);
        let value = line[start..end].parse::<usize>().ok();
        if !in_word && value.is_some_and(|v| lengths.contains(&v)) {
            return Some(start..end);
        }
        at = end;
    }
    None
}

/// An indented block: the body is quoted line by line with a prefix
/// ([`Around::quoted`]: a reST directive's body indented three spaces, a
/// YAML block scalar's under `key: |`), and the nearest lines before and
/// after it, not quoted, differ and hold words. What ends such a block for
/// its reader is any line without the prefix, which the quote's own check
/// judges (`quote.escape`); the two lines around it are the framing's own
/// text, declared as line markers without `{token}` ([`super::BeginEnd`]),
/// so a copy of either is live only alone on its line, and on a quoted line
/// it is quoted data. Tried after every other shape: a label or heading
/// before a quote is a section's. The token, the opener's longest word,
/// only names the frame in reports.
pub(super) fn quoted_block(around: &Around<'_>) -> Option<Delimiters> {
    if !around.quoted {
        return None;
    }
    let tail = around
        .tail
        .trim_start_matches(|c: char| c.is_ascii_alphanumeric());
    let close_line = tail.lines().map(str::trim).find(|l| !l.is_empty())?;
    let open_line = (around.head.lines().rev())
        .map(str::trim)
        .find(|l| !l.is_empty())?;
    let marked = |l: &str| around.field_marks.iter().any(|m| l.contains(m));
    let worded = |l: &str| l.chars().any(|c| c.is_ascii_alphabetic());
    if marked(open_line) || open_line == close_line || !worded(open_line) || !worded(close_line) {
        return None;
    }
    let token = open_line
        .split(|c: char| !c.is_ascii_alphabetic())
        .max_by_key(|w| w.len())?;
    Some(Delimiters {
        open: Some(escape_literal(open_line)),
        close: Some(escape_literal(close_line)),
        ..Delimiters::simple(GrammarKind::BeginEnd, token)
    })
}

/// The token a same line without a word is declared with: the line names
/// nothing, and the profile's token only names the frame in reports.
const SAME_LINE_TOKEN: &str = "RULE";

/// The same line before and after the content: the nearest non-blank line
/// on each side, spelled alike, with punctuation and at most one word (a
/// per-call value, `===== {nonce} =====`, or a name). Without a word the
/// line is both templates as written; with one, the word is the token.
pub(super) fn same_line(around: &Around<'_>) -> Option<Delimiters> {
    let tail = around
        .tail
        .trim_start_matches(|c: char| c.is_ascii_alphanumeric());
    let close_line = tail.lines().map(str::trim).find(|l| !l.is_empty())?;
    let open_line = around
        .head
        .lines()
        .rev()
        .map(str::trim)
        .find(|l| !l.is_empty())?;
    if around.field_marks.iter().any(|m| open_line.contains(m)) {
        return None;
    }
    if open_line != close_line {
        return rule_pair(open_line, close_line);
    }
    let joins = |c: char| c.is_ascii_alphanumeric() || c == '_' || c == MASK;
    let words: Vec<&str> = open_line
        .split(|c: char| !joins(c))
        .filter(|w| !w.is_empty())
        .collect();
    let (template, token) = match words[..] {
        [] => (escape_literal(open_line), SAME_LINE_TOKEN.to_string()),
        [word] => {
            let at = open_line.find(word).expect("a word of the line");
            let template = format!(
                "{}{{token}}{}",
                escape_literal(&open_line[..at]),
                escape_literal(&open_line[at + word.len()..])
            );
            (template, word.to_string())
        }
        _ => return None,
    };
    // A template needs punctuation: a word alone on a line is no marker.
    if !template
        .replace("{token}", "")
        .chars()
        .any(|c| !c.is_whitespace() && !c.is_alphanumeric())
    {
        return None;
    }
    Some(Delimiters {
        open: Some(template.clone()),
        close: Some(template),
        ..Delimiters::simple(GrammarKind::BeginEnd, &token)
    })
}

/// Two rule lines that name nothing: a rule of punctuation after the
/// content, and before it another rule (`<<<` … `>>>`, `{{{` … `}}}`) or
/// the same rule after a lead (`Text: """` … `"""`). Each is a template as
/// written; a rule is three characters at least, since a lone bracket or
/// quote closes JSON and prose as often as a frame.
fn rule_pair(open_line: &str, close_line: &str) -> Option<Delimiters> {
    let rule = |l: &str| l.len() >= 3 && l.chars().all(|c| c.is_ascii_punctuation());
    if !rule(close_line) {
        return None;
    }
    let led = open_line
        .strip_suffix(close_line)
        .is_some_and(|lead| lead.ends_with([' ', ':']));
    (rule(open_line) || led).then(|| Delimiters {
        open: Some(escape_literal(open_line)),
        close: Some(escape_literal(close_line)),
        ..Delimiters::simple(GrammarKind::BeginEnd, SAME_LINE_TOKEN)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn around<'a>(head: &'a str, tail: &'a str) -> Around<'a> {
        Around {
            head,
            tail,
            field_marks: &[],
            quoted: false,
            output: "",
            content: "",
        }
    }

    fn templates(d: Option<Delimiters>) -> Option<(String, String, String)> {
        d.map(|d| (d.token, d.open.unwrap(), d.close.unwrap()))
    }

    /// Seen in the third blind audit (issue 57): a LaTeX verbatim
    /// environment, content raw, was refused by `init` ("no delimiters
    /// recognised"), so its breakout (a line `\end{verbatim}`) went
    /// unjudged: the end word, set off by a brace, was read as a name.
    #[test]
    fn an_end_word_before_a_braced_name_marks_the_closer() {
        let read = markers(&around(
            "Untrusted:\n\\begin{verbatim}\n",
            "z1\n\\end{verbatim}\nSummarise it.",
        ));
        assert_eq!(
            templates(read),
            Some((
                "verbatim".into(),
                "\\begin{{{token}}}".into(),
                "\\end{{{token}}}".into()
            ))
        );
        // An end word naming nothing after it is still no marker.
        assert_eq!(
            templates(markers(&around("\\begin{x}\n", "z1\n\\end{}"))),
            None
        );
    }

    #[test]
    fn an_end_word_after_the_name_marks_the_closer() {
        let read = markers(&around(
            "<!-- tool output start -->\n",
            "z1\n<!-- tool output end -->",
        ));
        assert_eq!(
            templates(read),
            Some((
                "output".into(),
                "<!-- tool {token} start -->".into(),
                "<!-- tool {token} end -->".into()
            ))
        );
        // A name the opener labels, when the closer names it.
        let read = markers(&around("[TOOL RESULT: search]\n", "z1\n[END TOOL RESULT]"));
        assert_eq!(
            templates(read),
            Some((
                "RESULT".into(),
                "[TOOL {token}: search]".into(),
                "[END TOOL {token}]".into()
            ))
        );
        // A trailing word that is no end word marks nothing.
        let read = markers(&around(
            "<!-- tool output -->\n",
            "z1\n<!-- tool output -->",
        ));
        assert_eq!(read, None);
    }

    #[test]
    fn a_here_documents_terminator_is_the_token_alone() {
        let cases = [
            ("Run it:\ncat <<'EOF'\n", "x\nEOF", "cat <<'{token}'", "EOF"),
            ("php:\n$t = <<<EOT\n", "x\nEOT\n;", "$t = <<<{token}", "EOT"),
        ];
        for (head, tail, open, token) in cases {
            assert_eq!(
                templates(terminator(&around(head, tail))),
                Some((token.into(), open.into(), "{token}".into())),
                "{head:?}"
            );
        }
        // A word after a space, or a closing line of more than one word,
        // is prose.
        for (head, tail) in [
            ("Read the text\n", "x\ntext"),
            ("cat <<'EOF'\n", "x\nEOF now"),
            ("cat <<'EOF'\n", "x\n'EOF'"),
        ] {
            assert_eq!(templates(terminator(&around(head, tail))), None, "{tail:?}");
        }
    }

    #[test]
    fn a_line_stating_the_contents_length_is_an_opener_with_a_counter() {
        fn with<'a>(head: &'a str, tail: &'a str) -> Around<'a> {
            Around {
                content: "fcbodya1 é fcbodyz1",
                ..around(head, tail)
            }
        }
        // 19 characters, 20 UTF-8 bytes: either count is the length.
        for n in [19, 20] {
            let head = format!("Tool result ({n} characters follow):\n");
            let read = length_note(&with(&head, "z1\nEnd of tool result.")).expect("read");
            assert_eq!(
                (
                    read.token.as_str(),
                    read.open.as_deref(),
                    read.close.as_deref()
                ),
                (
                    "result",
                    Some("Tool result ({counter} characters follow):"),
                    Some("End of tool result.")
                )
            );
            assert!(read.validate().is_ok(), "{:?}", read.validate());
        }
        // Another number, a number inside a word, no words, no content: none.
        for (head, tail, content) in [
            (
                "Tool result (18 characters):\n",
                "z1\nEnd.",
                "fcbodya1 é fcbodyz1",
            ),
            ("Model v19 output:\n", "z1\nEnd.", "fcbodya1 é fcbodyz1"),
            ("Tool result (19):\n", "z1\n---", "fcbodya1 é fcbodyz1"),
            ("[19]\n", "z1\nEnd.", "fcbodya1 é fcbodyz1"),
            ("Tool result (19):\n", "z1\nEnd.", ""),
        ] {
            let read = length_note(&Around {
                content,
                ..around(head, tail)
            });
            assert_eq!(read, None, "{head:?} {tail:?}");
        }
    }

    #[test]
    fn a_quoted_block_between_two_lines_is_read_only_when_quoted() {
        let (head, tail) = (
            ".. note:: Retrieved page\n\n",
            "z1\n\nSummarise the note above.",
        );
        let quoted = Around {
            quoted: true,
            ..around(head, tail)
        };
        let read = quoted_block(&quoted).expect("read");
        assert_eq!(
            templates(Some(read.clone())),
            Some((
                "Retrieved".into(),
                ".. note:: Retrieved page".into(),
                "Summarise the note above.".into()
            ))
        );
        assert!(read.validate().is_ok(), "{:?}", read.validate());
        // Not quoted, or no line after it: none.
        assert_eq!(quoted_block(&around(head, tail)), None);
        let last = Around {
            quoted: true,
            ..around(head, "z1\n")
        };
        assert_eq!(quoted_block(&last), None);
    }

    #[test]
    fn two_rule_lines_that_name_nothing_are_the_templates() {
        for (head, tail, open, close) in [
            ("Content:\n<<<\n", "z1\n>>>", "<<<", ">>>"),
            // Braces are doubled in a template, as written they are literal.
            ("{{{\n", "z1\n}}}\n", "{{{{{{", "}}}}}}"),
            ("Text: \"\"\"\n", "z1\n\"\"\"", "Text: \"\"\"", "\"\"\""),
        ] {
            let (token, o, c) = templates(same_line(&around(head, tail))).expect(head);
            assert_eq!(token, SAME_LINE_TOKEN);
            assert_eq!((o.as_str(), c.as_str()), (open, close));
            let d = same_line(&around(head, tail)).unwrap();
            assert!(d.validate().is_ok(), "{head:?}: {:?}", d.validate());
        }
        // Prose that ends like the next line, a short rule, a word: none.
        assert_eq!(same_line(&around("Read this data\n", "z1\ndata")), None);
        assert_eq!(same_line(&around("Quote: --\n", "z1\n--")), None);
        assert_eq!(same_line(&around("{\n", "z1\n}")), None);
        assert_eq!(same_line(&around("Begin\n", "z1\n>>>")), None);
    }
}
