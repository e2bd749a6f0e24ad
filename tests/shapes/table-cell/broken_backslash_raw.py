"""One cell of a Markdown table row, broken: the bar is escaped, the backslash is not.

    | source | content |
    |---|---|
    | search | Weather today: sunny and mild |
    | web | <content> |
    | news | Local news: nothing to report |

Every `|` is written as `\\|` and every line break is escaped, but the
defect: a backslash is written as it is, so the content's own `\\|` comes
out as `\\\\|`, an escaped backslash and then a live bar that ends the cell
(and a content `\\n` reads back as a line break).
"""

import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "lib"))
sys.path.insert(0, os.path.join(HERE, "..", "..", "..", "adapters", "python"))
from fcshape import fold_char  # noqa: E402
from framecheck_adapter import serve  # noqa: E402

ESCAPES = {"|": "\\|", "\n": "\\n", "\r": "\\r"}  # the defect: no "\\"
BREAKS = "\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029"


def escape_cell(text):
    out = []
    for ch in text:
        if ch in ESCAPES:
            out.append(ESCAPES[ch])
        elif ch in BREAKS:
            out.append("\\u%04x" % ord(ch))
        elif any(c == "|" for c in fold_char(ch)):
            out.append("\\" + ch)
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
