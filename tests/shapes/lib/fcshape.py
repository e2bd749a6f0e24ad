"""Shared helpers for the shape fixtures: a Unicode-aware neutraliser.

A correct framing must neutralise every spelling of its delimiter that a
reader at framecheck's `unicode` level takes for it (see crates/core/src/level.rs):
default-ignorable characters read as nothing, everything else is
NFKC-normalised and fully case-folded, and a non-ASCII character whose
Unicode confusables skeleton is one delimiter character reads as it. This module is an independent, honest implementation of that
reading for the fixtures, written from the documented rules (it is not a
port of the Rust code). Standard library only.

`defang(text, token, replacement)` replaces every span of `text` that reads
as `token` with `replacement` and changes nothing else, so benign text comes
through byte for byte.
"""

import pathlib
import re
import unicodedata

# Default-ignorable code points and format characters: a reader does not see them.
_IGNORABLE_RANGES = (
    (0x00AD, 0x00AD), (0x034F, 0x034F), (0x061C, 0x061C), (0x0600, 0x0605),
    (0x06DD, 0x06DD), (0x070F, 0x070F), (0x0890, 0x0891), (0x08E2, 0x08E2),
    (0x115F, 0x1160), (0x17B4, 0x17B5), (0x180B, 0x180F), (0x200B, 0x200F),
    (0x202A, 0x202E), (0x2060, 0x206F), (0x3164, 0x3164), (0xFE00, 0xFE0F),
    (0xFEFF, 0xFEFF), (0xFFA0, 0xFFA0), (0xFFF0, 0xFFFB), (0x110BD, 0x110BD),
    (0x110CD, 0x110CD), (0x13430, 0x1343F), (0x1BCA0, 0x1BCA3),
    (0x1D173, 0x1D17A), (0xE0000, 0xE0FFF),
)


def is_ignorable(ch):
    cp = ord(ch)
    if unicodedata.category(ch) == "Cf":
        return True
    return any(lo <= cp <= hi for lo, hi in _IGNORABLE_RANGES)


# The confusables data (UTS #39, through the `unicode-security` crate
# framecheck pins): every non-ASCII character whose skeleton is one printable
# ASCII character. Data, not a list of ours: `confusables.tsv` is the table
# framecheck's build computes.
_DATA = pathlib.Path(__file__).with_name("confusables.tsv")

# The ASCII punctuation that occurs in delimiters; letters and digits too.
DELIMITER_PUNCTUATION = "<>/[]=-_`~#:*|"

# Brackets and dashes read as ASCII that the data does not cover.
BEYOND_UTS39 = {ch: a for chars, a in [("⟨〈❬⧼", "<"), ("⟩〉❭⧽", ">"), ("⁅〔⟦", "["),
                                       ("⁆〕⟧", "]"), ("—―╴", "-")] for ch in chars}


def _lookalikes():
    table = {}
    for line in _DATA.read_text(encoding="utf-8").splitlines():
        if line.startswith("#") or not line:
            continue
        code, ascii_char = line.split("\t")
        if ascii_char.isalnum() or ascii_char in DELIMITER_PUNCTUATION:
            table[chr(int(code, 16))] = ascii_char.lower()
    for ch, ascii_char in BEYOND_UTS39.items():
        table.setdefault(ch, ascii_char)
    return table


# Non-ASCII characters that read as an ASCII delimiter character.
LOOKALIKES = _lookalikes()


def _newer_unicode():
    # Characters whose compatibility mappings came with Unicode 15 to 17, newer
    # than the database of older Pythons (3.11 ships Unicode 14): outlined
    # letters and digits, subscript letters, Cyrillic modifier letters (read
    # through the lookalike table), a modifier S and two sharp-s forms. The
    # reader level folds them to these ASCII strings.
    table = {chr(0x1CCD6 + i): chr(ord("a") + i) for i in range(26)}
    table.update({chr(0x1CCF0 + i): str(i) for i in range(10)})
    table.update({"\u209d": "w", "\u209e": "y", "\u209f": "z", "\ua7f1": "s"})
    table.update({"\U0001d6a6": "ss", "\U0001df95": "ss"})
    cyrillic_modifiers = "1E030 a 1E032 b 1E035 e 1E039 k 1E03B m 1E03C o 1E03E p 1E03F c " \
        "1E040 t 1E041 y 1E043 x 1E04C i 1E04D j 1E050 l 1E051 a 1E053 b 1E056 e " \
        "1E05A k 1E05C o 1E05E c 1E05F y 1E061 x 1E068 i 1E069 s".split()
    # Newer still (Unicode 16 to 18), read through the confusables data: a
    # Cyrillic modifier be (6), er (r), omega-like we (w), u (y); an Armenian
    # and a Latin letter.
    cyrillic_modifiers += "1E031 6 1E033 r 1E046 w 1E04F y 1E052 6 1E054 r 1E064 w " \
        "058C j 1DFD0 y".split()
    for code, ascii_char in zip(cyrillic_modifiers[::2], cyrillic_modifiers[1::2]):
        table[chr(int(code, 16))] = ascii_char
    return table


NEWER_UNICODE = _newer_unicode()


def fold_char(ch):
    """What a Unicode-level reader sees for one character (maybe "" or several)."""
    if ch < "\x80":
        return ch.lower()
    if is_ignorable(ch):
        return ""
    if ch in NEWER_UNICODE:
        return NEWER_UNICODE[ch]
    folded = unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", ch).casefold())
    folded = [d for d in folded if not is_ignorable(d)]
    # Case first (Greek capital iota reads as i), the character itself when
    # its one folded character is no lookalike (Cyrillic capital ve is B).
    if len(folded) == 1 and folded[0] >= "\x80" and folded[0] not in LOOKALIKES:
        return LOOKALIKES.get(ch, folded[0])
    return "".join(LOOKALIKES.get(d, d) for d in folded)


def fold(text):
    return "".join(fold_char(ch) for ch in text)


def _folded_with_sources(text):
    """One (folded char, source start, source end) per folded character."""
    out = []
    for i, ch in enumerate(text):
        for f in fold_char(ch):
            out.append((f, i, i + 1))
    return out


def readings(text, token):
    """Source spans of `text` that read as `token`, leftmost first, merged."""
    needle = fold(token)
    folded = _folded_with_sources(text)
    spans = []
    i = 0
    while needle and i + len(needle) <= len(folded):
        if all(folded[i + k][0] == needle[k] for k in range(len(needle))):
            start, end = folded[i][1], folded[i + len(needle) - 1][2]
            if spans and start < spans[-1][1]:
                spans[-1] = (spans[-1][0], max(end, spans[-1][1]))
            else:
                spans.append((start, end))
            i += len(needle)
        else:
            i += 1
    return spans


def defang(text, token, replacement):
    """Replaces every reading of `token` in `text`; nothing else changes.

    Repeats until no reading is left, so a replacement can never complete a
    reading with its neighbours. `replacement` must not read as `token`.
    """
    assert not readings(replacement, token)
    for _ in range(16):
        spans = readings(text, token)
        if not spans:
            return text
        pieces, at = [], 0
        for start, end in spans:
            pieces.append(text[at:start])
            pieces.append(replacement)
            at = end
        pieces.append(text[at:])
        text = "".join(pieces)
    raise RuntimeError("defang did not converge")


# Every character some reader level takes as a line break.
LINE_BREAKS = "\r\n\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029"
_LINE_BREAK_RE = re.compile("\r\n|[" + LINE_BREAKS + "]")


def one_line(value):
    """The value with every line break (as any reader sees one) turned into a space."""
    return _LINE_BREAK_RE.sub(" ", value)


def escape_attribute(value):
    """Escapes a double-quoted attribute value: & " < > and every line break."""
    out = []
    for ch in value:
        if ch == "&":
            out.append("&amp;")
        elif ch == '"':
            out.append("&quot;")
        elif ch == "<":
            out.append("&lt;")
        elif ch == ">":
            out.append("&gt;")
        elif ch in LINE_BREAKS:
            out.append("&#%d;" % ord(ch))
        else:
            out.append(ch)
    return "".join(out)


_KEY_RE = re.compile(r"[A-Za-z_][A-Za-z0-9_.-]*\Z")


def attribute_keys_problem(attributes, token, reserved=("kind",)):
    """Why these attribute keys cannot be written, or None when they can."""
    seen = {name.lower() for name in reserved}
    for key in attributes:
        if not _KEY_RE.match(key):
            return f"attribute key {key!r} is not a plain name"
        if key.lower() in seen:
            return f"attribute key {key!r} duplicates another attribute"
        if readings(key, token):
            return f"attribute key {key!r} reads as the tag name"
        seen.add(key.lower())
    return None


def tag_attributes(kind, attributes, token, replacement):
    """` kind="…" key="…"…`: every value defanged and escaped, keys sorted."""
    parts = [f' kind="{escape_attribute(defang(kind, token, replacement))}"']
    for key in sorted(attributes):
        value = escape_attribute(defang(attributes[key], token, replacement))
        parts.append(f' {key}="{value}"')
    return "".join(parts)


# The roles a model reads a turn line with, whatever roles a framing writes
# (the roles that forge a record in crates/core/src/records.rs, `ChatRole`),
# written here again from that documented list.
CHAT_ROLES = ("system", "user", "assistant", "tool", "developer", "human", "ai", "function")


def role_line_pattern(roles=CHAT_ROLES):
    """A regular expression (as text) for a folded line that starts a turn
    in a chat transcript's spelling: after spaces or tabs, one of `roles`
    followed by a colon (`system:`), in square brackets (`[system]`), or
    after a Markdown heading's `#`s (`### system:`, `## user` alone on its
    line). It matches more than a reader takes for a turn (`user:alice`),
    never less, for `defang_marker_lines`.
    """
    names = "|".join(roles)
    return r"[ \t]*(?:#{1,6}[ \t]+|\[)?(?:" + names + r")(?:[:\]]|[ \t]*$)"


def defang_marker_lines(text, marker, from_line=0):
    """Escapes every line of `text` (from its `from_line`th on) that reads
    as a section marker: `marker` is a regular expression matched at the
    start of the line as the unicode level reads it (folded, every line
    break a reader takes as one). A backslash put before such a line keeps
    the marker off the line's start; other lines come through unchanged.
    """
    parts = _LINE_BREAK_RE.split(text)
    breaks = _LINE_BREAK_RE.findall(text)
    out = []
    for n, line in enumerate(parts):
        if n >= from_line and marker.match(fold(line)):
            line = "\\" + line
        out.append(line)
        if n < len(breaks):
            out.append(breaks[n])
    return "".join(out)
