//! The shell every HTML page framecheck writes shares: HTML escaping, the
//! rendering of hostile text with invisible characters made visible, and a
//! self-contained document with a Content Security Policy.
//!
//! Pages must work offline and must stay inert whatever a payload holds, so:
//!
//! - every run-supplied string goes through [`text`] (text nodes and quoted
//!   attribute values alike: `& < > " '` become character references), and
//!   text shown as evidence goes through [`shown`] or [`shown_block`], which
//!   first apply [`super::escape::visible`]: a zero-width space or a bidi
//!   override is shown as `\u{200B}`, never rendered;
//! - the page loads nothing: no stylesheet, script, font or image from
//!   anywhere. Its CSP (`default-src 'none'`) allows only the page's own
//!   inline style and script, each pinned by its SHA-256 hash, so even a
//!   payload that escaped the escaping could not run a script or fetch a URL.
//!
//! ```
//! use framecheck_report::page;
//!
//! assert_eq!(page::text("</textarea><script>"), "&lt;/textarea&gt;&lt;script&gt;");
//! assert_eq!(page::shown("a\u{200B}\"b"), "a\\u{200B}&quot;b");
//! ```

use std::fmt::Write as _;

use sha2::{Digest, Sha256};

use super::escape;

/// `text` escaped for an HTML text node or a quoted attribute value.
pub fn text(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + text.len() / 8);
    for c in text.chars() {
        push_escaped(&mut out, c);
    }
    out
}

fn push_escaped(out: &mut String, c: char) {
    match c {
        '&' => out.push_str("&amp;"),
        '<' => out.push_str("&lt;"),
        '>' => out.push_str("&gt;"),
        '"' => out.push_str("&quot;"),
        '\'' => out.push_str("&#39;"),
        _ => out.push(c),
    }
}

/// Hostile text for one line of a page: [`escape::visible`] (so the result
/// is printable ASCII), then HTML-escaped.
pub fn shown(value: &str) -> String {
    text(&escape::visible(value))
}

/// Hostile text for a `<pre>` block: each character [`escape::visible`]
/// rewrites is wrapped in `<span class="esc">` so a reviewer sees where the
/// invisible and lookalike characters are; a line feed is shown as `\n` and
/// also breaks the line, so the block keeps the text's shape.
pub fn shown_block(value: &str) -> String {
    let mut out = String::with_capacity(value.len() * 2);
    let mut buffer = [0u8; 4];
    for c in value.chars() {
        let raw: &str = c.encode_utf8(&mut buffer);
        let visible = escape::visible(raw);
        if visible == raw {
            push_escaped(&mut out, c);
        } else {
            out.push_str("<span class=\"esc\">");
            out.push_str(&text(&visible));
            out.push_str("</span>");
            if c == '\n' {
                out.push('\n');
            }
        }
    }
    out
}

/// A fragment identifier for `name` that is the same wherever it is
/// computed and safe in an `id` attribute and a URL: ASCII letters, digits,
/// `-` `.` `~` stay; every other byte (`_` included, so the mapping is
/// one-to-one) becomes `_` and two hex digits.
pub fn anchor(prefix: &str, name: &str) -> String {
    let mut out = String::with_capacity(prefix.len() + name.len() + 8);
    out.push_str(prefix);
    for byte in name.bytes() {
        match byte {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'.' | b'~' => out.push(byte as char),
            _ => {
                let _ = write!(out, "_{byte:02X}");
            }
        }
    }
    out
}

/// A complete HTML document: `title` (raw text, shown through [`shown`]), the page's
/// own `style` and `script` (trusted constants, pinned by hash in the CSP)
/// and `body` (already-escaped HTML).
pub fn document(title: &str, style: &str, script: &str, body: &str) -> String {
    let csp = format!(
        "default-src 'none'; style-src '{}'; script-src '{}'; img-src 'none'; \
         base-uri 'none'; form-action 'none'",
        csp_hash(style),
        csp_hash(script)
    );
    let mut out = String::with_capacity(body.len() + style.len() + script.len() + 512);
    out.push_str("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n");
    let _ = writeln!(
        out,
        "<meta http-equiv=\"Content-Security-Policy\" content=\"{}\">",
        text(&csp)
    );
    out.push_str("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n");
    let _ = writeln!(out, "<title>{}</title>", shown(title));
    let _ = writeln!(out, "<style>{style}</style>\n</head>\n<body>");
    out.push_str(body);
    let _ = writeln!(out, "<script>{script}</script>\n</body>\n</html>");
    out
}

/// The CSP source expression (`sha256-…`) allowing exactly `inline`.
fn csp_hash(inline: &str) -> String {
    format!("sha256-{}", base64(&Sha256::digest(inline.as_bytes())))
}

/// Standard base64 with padding (RFC 4648 section 4): what CSP hash sources
/// are written in. Thirty bytes of digest do not justify a dependency.
fn base64(bytes: &[u8]) -> String {
    const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let n = chunk
            .iter()
            .enumerate()
            .fold(0u32, |n, (i, &b)| n | u32::from(b) << (16 - 8 * i));
        for i in 0..4 {
            if i <= chunk.len() {
                out.push(ALPHABET[(n >> (18 - 6 * i) & 63) as usize] as char);
            } else {
                out.push('=');
            }
        }
    }
    out
}

/// The colours and layout every page shares (verdict colours, the heatmap
/// buckets, evidence blocks). Pages append their own rules.
pub const BASE_STYLE: &str = "
body{font:14px/1.45 system-ui,-apple-system,Segoe UI,sans-serif;margin:0 auto;max-width:1200px;padding:1em 1.5em;color:#1d1d1f;background:#fff}
h1{font-size:1.5em;margin:.2em 0}h2{font-size:1.2em;margin:1.4em 0 .5em;border-bottom:1px solid #ddd}
code,pre,.mono{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:12.5px}
pre{white-space:pre-wrap;word-break:break-all;background:#f6f8fa;border:1px solid #e1e4e8;padding:.5em;margin:.3em 0;max-height:24em;overflow:auto}
.esc{color:#b0006e;background:#fde7f3;border-radius:2px}
mark{background:#ffd54f;outline:1px solid #e65100}
.note{background:#fff8e1;border-left:4px solid #f9a825;padding:.5em .8em}
table{border-collapse:collapse}th,td{border:1px solid #ddd;padding:.25em .5em;text-align:left}
.v-pass{background:#c8e6c9}.v-refused{background:#b2dfdb}.v-fail{background:#ef9a9a}
.v-fidelity-fail{background:#ffcc80}.v-error{background:#ce93d8}.v-skipped{background:#e0e0e0}.v-none{background:#fafafa;color:#999}
.h0{background:#c8e6c9}.h1{background:#ffe0b2}.h2{background:#ffab91}.h3{background:#ef5350;color:#fff}.h4{background:#b71c1c;color:#fff}
.h-unrun{background:#e0e0e0;color:#555;font-style:italic}
.badge{display:inline-block;padding:.1em .6em;border-radius:3px;font-weight:600}
";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn base64_matches_rfc_4648_vectors() {
        let vectors = [
            ("", ""),
            ("f", "Zg=="),
            ("fo", "Zm8="),
            ("foo", "Zm9v"),
            ("foob", "Zm9vYg=="),
            ("fooba", "Zm9vYmE="),
            ("foobar", "Zm9vYmFy"),
        ];
        for (input, expected) in vectors {
            assert_eq!(base64(input.as_bytes()), expected, "{input:?}");
        }
    }

    #[test]
    fn text_escapes_markup_and_both_quotes() {
        assert_eq!(
            text("<a href='x' title=\"y\">&amp;</a>"),
            "&lt;a href=&#39;x&#39; title=&quot;y&quot;&gt;&amp;amp;&lt;/a&gt;"
        );
    }

    #[test]
    fn shown_block_marks_invisible_characters_and_keeps_lines() {
        assert_eq!(
            shown_block("a\u{200B}<\r\nb"),
            "a<span class=\"esc\">\\u{200B}</span>&lt;<span class=\"esc\">\\r</span>\
             <span class=\"esc\">\\n</span>\nb"
        );
    }

    #[test]
    fn anchors_are_one_to_one_and_attribute_safe() {
        assert_eq!(anchor("c-", "a~b_c d"), "c-a~b_5Fc_20d");
        assert_ne!(anchor("c-", "a_5F"), anchor("c-", "a__"));
        assert!(anchor("c-", "\"><script>")
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "-_.~".contains(c)));
    }

    #[test]
    fn document_pins_its_own_script_and_style_by_hash() {
        let page = document("t<", "b{}", "let x=1;", "<p>hi</p>");
        assert!(page.contains(&csp_hash("b{}")));
        assert!(page.contains(&csp_hash("let x=1;")));
        assert!(page.contains("default-src &#39;none&#39;"));
        assert!(page.contains("<title>t&lt;</title>"));
    }
}
