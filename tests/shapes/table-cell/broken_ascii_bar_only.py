"""One cell of a Markdown table row, broken: only the ASCII bar and backslash are escaped.

    | source | content |
    |---|---|
    | search | Weather today: sunny and mild |
    | web | <content> |
    | news | Local news: nothing to report |

Every backslash is doubled, every `|` written as `\\|` and every line
break escaped, as in the correct framing, but the defect: a character that
only the unicode level reads as a bar (the fullwidth `｜`, a lookalike) is
written as it is, so for a reader that folds it, it ends the content's cell.
A byte matcher and an ASCII case-insensitive reader see no bar there.
"""

import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "..", "adapters", "python"))
from framecheck_adapter import serve  # noqa: E402

ESCAPES = {"\\": "\\\\", "|": "\\|", "\n": "\\n", "\r": "\\r"}
BREAKS = "\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029"


def escape_cell(text):
    out = []
    for ch in text:
        if ch in ESCAPES:
            out.append(ESCAPES[ch])
        elif ch in BREAKS:
            out.append("\\u%04x" % ord(ch))
        # the defect: no case for a character that only reads as a bar or a backslash
        else:
            out.append(ch)
    return "".join(out)


def wrap(content, kind, attributes, provenance):
    return (
        "| source | content |\n|---|---|\n"
        "| search | Weather today: sunny and mild |\n"
        f"| web | {escape_cell(content)} |\n"
        "| news | Local news: nothing to report |"
    )


serve(wrap)
