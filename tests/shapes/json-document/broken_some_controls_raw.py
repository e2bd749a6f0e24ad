"""JSON document, broken: only the common ASCII controls are escaped.

    {"source": "tool", "content": "<content>", "chars": 42}

The quote, the backslash, `\\n`, `\\r`, `\\t` and non-ASCII characters are
escaped, but the other C0 controls (NUL, ESC, a vertical tab...) are
written raw, which JSON forbids inside a string: a `JSON.parse` reader
rejects the whole document, so content chooses whether the frame is read
at all.
"""

import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "..", "adapters", "python"))
from framecheck_adapter import serve  # noqa: E402

SHORT = {'"': '\\"', "\\": "\\\\", "\n": "\\n", "\r": "\\r", "\t": "\\t"}


def escape(content):
    out = []
    for ch in content:
        if ch in SHORT:
            out.append(SHORT[ch])
        elif ord(ch) > 0x7E:
            out.append("".join(f"\\u{u:04x}" for u in utf16(ch)))
        else:
            out.append(ch)  # the defect: other controls below 0x20 stay raw
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
