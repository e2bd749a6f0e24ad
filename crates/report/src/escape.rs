//! Escaping hostile text for each report format.
//!
//! Everything a report shows from a run may have been written by an attacker:
//! excerpts of framed output, the target's refusal reasons and stderr, even
//! case titles from a third-party catalogue. A reviewer must *see* a
//! zero-width space or a bidi override rather than have it silently steer the
//! rendering, and no payload may break out of the report's own syntax
//! (a Markdown table, an XML element, a code span). This module holds the
//! escapers every format shares, so there is one place to get them right.
//!
//! ```
//! use framecheck_report::escape;
//!
//! assert_eq!(escape::visible("a\u{200B}b\n"), r"a\u{200B}b\n");
//! assert_eq!(escape::md_code("x ` y", false), "``x ` y``");
//! assert_eq!(escape::md_code("`x", false), "`` `x ``");
//! ```

use std::borrow::Cow;
use std::fmt::Write as _;
use std::path::Path;

/// Rewrites `text` so that every character that is not printable ASCII is
/// shown as an escape: `\n`, `\r`, `\t`, and `\u{XXXX}` (upper-case hex) for
/// everything else, including every non-ASCII character. A backslash becomes
/// `\\`, so the result is unambiguous: it can be read back to the original.
///
/// Non-ASCII letters are escaped too, on purpose: fullwidth `＜`, Cyrillic
/// `а` and mathematical `𝐚` look like ASCII to a reviewer, and telling them
/// apart is the point of the report.
pub fn visible(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        push_visible(&mut out, c);
    }
    out
}

fn push_visible(out: &mut String, c: char) {
    match c {
        '\\' => out.push_str(r"\\"),
        '\n' => out.push_str(r"\n"),
        '\r' => out.push_str(r"\r"),
        '\t' => out.push_str(r"\t"),
        ' '..='~' => out.push(c),
        _ => {
            // Writing to a String cannot fail.
            let _ = write!(out, "\\u{{{:X}}}", c as u32);
        }
    }
}

/// Cuts `text` to at most `max_bytes` bytes on a char boundary. When it had
/// to cut, the result ends with a marker saying how many bytes were left out
/// (the marker itself is plain ASCII and not counted).
pub fn truncate(text: &str, max_bytes: usize) -> Cow<'_, str> {
    if text.len() <= max_bytes {
        return Cow::Borrowed(text);
    }
    let mut end = max_bytes;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    Cow::Owned(format!(
        "{}... [{} more bytes]",
        &text[..end],
        text.len() - end
    ))
}

const MARKDOWN_INLINE_SPECIALS: &str = "\\`*_[]<>&|!~#$";

/// Text for Markdown prose and table cells: [`visible`], then a backslash
/// before every ASCII punctuation character that can start inline markup
/// anywhere in a line (`` \ ` * _ [ ] < > & | ! ~ # $ ``), so no payload can
/// start emphasis, a link or image, raw HTML, an entity, a heading's closing
/// sequence, math or a table column. Line breaks are already escapes, so the
/// text never starts a line of its own and line-start markup (`-`, `1.`,
/// `>`) cannot trigger.
pub fn md_inline(text: &str) -> String {
    let shown = visible(text);
    let mut out = String::with_capacity(shown.len() + shown.len() / 4);
    for c in shown.chars() {
        if MARKDOWN_INLINE_SPECIALS.contains(c) {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

/// A Markdown code span showing `text` through [`visible`]. The backtick
/// fence is one longer than the longest backtick run inside, and the content
/// is padded with a space when it starts or ends with a backtick or a space,
/// so CommonMark gives back exactly the escaped text.
///
/// Inside a GFM table a `|` ends the cell even within a code span; pass
/// `in_table` to escape it as `\|`, which GFM removes before rendering the
/// span. Empty text renders as `(empty)` in italics, since an empty code span
/// cannot be written.
pub fn md_code(text: &str, in_table: bool) -> String {
    let mut shown = visible(text);
    if shown.is_empty() {
        return "*(empty)*".to_string();
    }
    if in_table {
        shown = shown.replace('|', r"\|");
    }
    let longest_run = longest_backtick_run(&shown);
    let fence = "`".repeat(longest_run + 1);
    let needs_padding = shown.starts_with('`')
        || shown.ends_with('`')
        || (shown.starts_with(' ') && shown.ends_with(' ') && !shown.trim_matches(' ').is_empty());
    if needs_padding {
        format!("{fence} {shown} {fence}")
    } else {
        format!("{fence}{shown}{fence}")
    }
}

/// [`visible`] applied line by line: line feeds stay real line breaks, every
/// other character is escaped as in [`visible`]. For multi-line text (stderr,
/// failure descriptions) that should still read as lines.
pub fn visible_lines(text: &str) -> String {
    text.split('\n').map(visible).collect::<Vec<_>>().join("\n")
}

/// A fenced Markdown code block showing `text` line by line, each line
/// through [`visible`] (so a line break in the text starts a new line of the
/// block, and nothing else is raw). The fence is longer than any backtick
/// run inside, so the content cannot close it.
pub fn md_block(text: &str) -> String {
    let lines: Vec<String> = text.split('\n').map(visible).collect();
    let longest_run = lines
        .iter()
        .map(|l| longest_backtick_run(l))
        .max()
        .unwrap_or(0);
    let fence = "`".repeat((longest_run + 1).max(3));
    let mut out = String::new();
    out.push_str(&fence);
    out.push_str("text\n");
    for line in &lines {
        out.push_str(line);
        out.push('\n');
    }
    out.push_str(&fence);
    out.push('\n');
    out
}

fn longest_backtick_run(text: &str) -> usize {
    let mut longest = 0;
    let mut current = 0;
    for c in text.chars() {
        if c == '`' {
            current += 1;
            longest = longest.max(current);
        } else {
            current = 0;
        }
    }
    longest
}

/// Whether XML 1.0 can carry `c` at all, escaped or not (the `Char`
/// production of the XML 1.0 specification).
pub fn is_xml_char(c: char) -> bool {
    matches!(c,
        '\u{9}' | '\u{A}' | '\u{D}'
        | '\u{20}'..='\u{D7FF}'
        | '\u{E000}'..='\u{FFFD}'
        | '\u{10000}'..='\u{10FFFF}')
}

/// Text for an XML text node or attribute: every character XML 1.0 cannot
/// carry (C0 controls other than tab and line feed, U+FFFE, U+FFFF) becomes a
/// [`visible`] escape, and so do carriage return (an XML parser would fold
/// it into a line feed), DEL and the C1 controls (legal but invisible, and
/// some JUnit consumers strip them as terminal escapes). `<`, `&` and
/// quotes are left to the XML writer.
pub fn xml_text(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        let unsafe_char = !is_xml_char(c) || c == '\r' || ('\u{7F}'..='\u{9F}').contains(&c);
        if unsafe_char {
            push_visible(&mut out, c);
        } else {
            out.push(c);
        }
    }
    out
}

/// A relative or absolute path as a URI reference (RFC 3986): `/` separators,
/// and every byte outside the unreserved set percent-encoded, so that any
/// catalogue path, however named, is a valid SARIF `artifactLocation.uri`.
pub fn uri_reference(path: &Path) -> String {
    let text = path.to_string_lossy();
    let mut out = String::with_capacity(text.len());
    for byte in text.bytes() {
        match byte {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'.' | b'_' | b'~' | b'/' => {
                out.push(byte as char)
            }
            // Windows separators, so a path written on Windows still names
            // the same file.
            b'\\' => out.push('/'),
            _ => {
                let _ = write!(out, "%{byte:02X}");
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Reads a [`visible`] string back, to prove the escaping loses nothing.
    fn unescape(text: &str) -> String {
        let mut out = String::new();
        let mut chars = text.chars();
        while let Some(c) = chars.next() {
            if c != '\\' {
                out.push(c);
                continue;
            }
            match chars.next() {
                Some('\\') => out.push('\\'),
                Some('n') => out.push('\n'),
                Some('r') => out.push('\r'),
                Some('t') => out.push('\t'),
                Some('u') => {
                    assert_eq!(chars.next(), Some('{'));
                    let hex: String = chars.by_ref().take_while(|&c| c != '}').collect();
                    let code = u32::from_str_radix(&hex, 16).unwrap();
                    out.push(char::from_u32(code).unwrap());
                }
                other => panic!("bad escape {other:?}"),
            }
        }
        out
    }

    #[test]
    fn visible_escapes_invisible_and_lookalike_characters() {
        let text = "<\u{FF1C}/tok\u{200B}\u{202E}>\u{0}\u{1B}[31m\u{E0041}\\u{41}";
        let shown = visible(text);
        assert!(shown.chars().all(|c| (' '..='~').contains(&c)), "{shown}");
        assert!(shown.contains(r"\u{FF1C}"));
        assert!(shown.contains(r"\u{200B}"));
        assert!(shown.contains(r"\u{202E}"));
        assert!(shown.contains(r"\u{0}"));
        assert!(shown.contains(r"\u{1B}"));
        assert!(shown.contains(r"\u{E0041}"));
        assert_eq!(unescape(&shown), text);
    }

    #[test]
    fn md_code_fence_outgrows_backtick_runs() {
        assert_eq!(md_code("a```b", false), "````a```b````");
        assert_eq!(md_code("`x`", false), "`` `x` ``");
        assert_eq!(md_code("plain", false), "`plain`");
        assert_eq!(md_code("", false), "*(empty)*");
        assert_eq!(md_code("a|b", true), r"`a\|b`");
        assert_eq!(md_code("a|b", false), "`a|b`");
        // Both ends a space: CommonMark would strip one from each side.
        assert_eq!(md_code(" x ", false), "`  x  `");
        assert_eq!(md_code("   ", false), "`   `");
    }

    #[test]
    fn md_inline_neutralises_markup() {
        let shown = md_inline("# <b>|x|</b> [l](u) *e* &amp;\nnext");
        assert_eq!(
            shown,
            r"\# \<b\>\|x\|\</b\> \[l\](u) \*e\* \&amp;\\n".to_string() + "next"
        );
        assert!(!shown.contains('\n'));
    }

    #[test]
    fn xml_text_keeps_legal_text_and_escapes_the_rest() {
        assert_eq!(xml_text("a & <b> ]]> é\tok\n"), "a & <b> ]]> é\tok\n");
        assert_eq!(
            xml_text("\u{0}\u{1B}\r\u{FFFE}\u{FFFF}\u{85}"),
            r"\u{0}\u{1B}\r\u{FFFE}\u{FFFF}\u{85}"
        );
    }

    #[test]
    fn md_block_fence_outgrows_backtick_runs_and_keeps_lines() {
        let block = md_block("a\n````\n\u{200B}");
        assert_eq!(block, "`````text\na\n````\n\\u{200B}\n`````\n");
        assert_eq!(visible_lines("x\n\ty"), "x\n\\ty");
    }

    #[test]
    fn truncate_cuts_on_char_boundaries() {
        assert_eq!(truncate("short", 10), "short");
        let cut = truncate("aé", 2);
        assert_eq!(cut, "a... [2 more bytes]");
    }

    #[test]
    fn uri_reference_encodes_everything_unsafe() {
        assert_eq!(
            uri_reference(Path::new("attacks/break out#1.yaml")),
            "attacks/break%20out%231.yaml"
        );
        assert_eq!(uri_reference(Path::new("é")), "%C3%A9");
    }
}
