"""A JavaScript template literal, broken: `${` is left as it is.

    export const note = `<content: \\ and ` escaped, ${ raw>`;

The framing escapes the backslash and the backtick, so the content cannot
end the literal, but `${` is written raw: content `${process.exit()}` is
code the engine runs, not text (a reader with nothing in scope rejects it;
every content holding `${` reads back as no text).
"""

import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "..", "adapters", "python"))
from framecheck_adapter import serve  # noqa: E402


def wrap(content, kind, attributes, provenance):
    body = content.replace("\\", "\\\\").replace("`", "\\`")  # the defect: `${` raw
    return "export const note = `" + body + "`;"


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
