"""JSON document, broken: string concatenation escapes `"` but not `\\`.

    {"source": "tool", "content": "<content>", "chars": 42}

Controls and non-ASCII characters are escaped as `json.dumps` does, but a
backslash in the content is left as it is, so content ending in `\\` (or
putting one before a quote) turns the framing's `\\"` into an escaped
backslash and a live quote: the string ends where the content says.
"""

import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "..", "adapters", "python"))
from framecheck_adapter import serve  # noqa: E402

SHORT = {"\n": "\\n", "\r": "\\r", "\t": "\\t", "\b": "\\b", "\f": "\\f"}


def escape(content):
    out = []
    for ch in content:
        if ch == '"':
            out.append('\\"')  # the defect: no case for "\\"
        elif ch in SHORT:
            out.append(SHORT[ch])
        elif ord(ch) < 0x20 or ord(ch) > 0x7E:
            out.append("".join(f"\\u{u:04x}" for u in utf16(ch)))
        else:
            out.append(ch)
    return "".join(out)


def utf16(ch):
    data = ch.encode("utf-16-be")
    return [int.from_bytes(data[i : i + 2], "big") for i in range(0, len(data), 2)]


def wrap(content, kind, attributes, provenance):
    return '{"source": "tool", "content": "%s", "chars": %d}' % (
        escape(content),
        len(content),
    )


serve(wrap)
