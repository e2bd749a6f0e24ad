"""A JavaScript template literal, the content its text, correct.

    export const note = `<content: \\ ` and ${ escaped, controls as \\u{...}>`;

A template literal ends at a backtick and runs code at `${`; a backslash
escapes either. The framing escapes the backslash, the backtick, every
`${` and every control or non-ASCII character (`\\u{...}`), so the content
is text and only the literal's own backtick ends it.
"""

import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "..", "adapters", "python"))
from framecheck_adapter import serve  # noqa: E402


def wrap(content, kind, attributes, provenance):
    out = []
    for i, c in enumerate(content):
        if c in "\\`" or (c == "$" and content[i + 1:i + 2] == "{"):
            out.append("\\" + c)
        elif ord(c) < 0x20 or ord(c) > 0x7E:
            out.append("\\u{%x}" % ord(c))
        else:
            out.append(c)
    return "export const note = `" + "".join(out) + "`;"


def read(text):
    """The literal as a JavaScript engine evaluates it with nothing in
    scope: a backslash escape is its character, a raw backtick ends the
    literal early and a raw `${` interpolates (both: no text)."""
    head, tail = "export const note = `", "`;"
    if not (text.startswith(head) and text.endswith(tail)):
        return None
    body, out, i = text[len(head):-len(tail)], [], 0
    simple = {"n": "\n", "r": "\r", "t": "\t", "b": "\b", "f": "\f", "v": "\v", "0": "\0"}
    while i < len(body):
        c = body[i]
        if c == "\\" and i + 1 < len(body):
            nxt = body[i + 1]
            if nxt == "u" and body[i + 2:i + 3] == "{":
                end = body.index("}", i)
                out.append(chr(int(body[i + 3:end], 16)))
                i = end + 1
                continue
            if nxt == "u":
                out.append(chr(int(body[i + 2:i + 6], 16)))
                i += 6
                continue
            out.append(simple.get(nxt, nxt))
            i += 2
        elif c == "`" or body.startswith("${", i):
            return None
        else:
            out.append(c)
            i += 1
    # A \u pair of surrogates is one character, as JavaScript joins them.
    return "".join(out).encode("utf-16", "surrogatepass").decode("utf-16")


serve(wrap, read)
