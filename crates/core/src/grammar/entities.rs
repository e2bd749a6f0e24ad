//! Character references in markup: `&amp;`, `&#60;`, `&#x3C;`.
//!
//! Attribute values are read with their references decoded (the grammars)
//! and so are bodies in the `html-entities` encoding (`crate::encoding`, a
//! floor up); the decoder lives here, with the markup it belongs to.

/// Decodes the five XML entities and numeric character references. Anything
/// else that starts with `&` is kept as written, so an HTML-only entity
/// (`&nbsp;`) shows up as a difference rather than being guessed at.
pub(crate) fn decode_entities(raw: &str) -> String {
    let mut out = String::with_capacity(raw.len());
    let mut rest = raw;
    while let Some(amp) = rest.find('&') {
        out.push_str(&rest[..amp]);
        rest = &rest[amp..];
        match decode_one_entity(rest) {
            Some((c, used)) => {
                out.push(c);
                rest = &rest[used..];
            }
            None => {
                out.push('&');
                rest = &rest[1..];
            }
        }
    }
    out.push_str(rest);
    out
}

/// The character `text` (starting at `&`) encodes, and how many bytes it used.
fn decode_one_entity(text: &str) -> Option<(char, usize)> {
    let semi = text.find(';')?;
    let name = &text[1..semi];
    let c = match name {
        "amp" => '&',
        "lt" => '<',
        "gt" => '>',
        "quot" => '"',
        "apos" => '\'',
        _ => {
            let number = name.strip_prefix('#')?;
            let code = match number.strip_prefix(['x', 'X']) {
                Some(hex) if !hex.is_empty() => u32::from_str_radix(hex, 16).ok(),
                Some(_) => None,
                None if !number.is_empty() => number.parse::<u32>().ok(),
                None => None,
            };
            code.and_then(char::from_u32)?
        }
    };
    Some((c, semi + 1))
}
