"""One cell of a Markdown table row, correct: the content is a result's cell.

    | source | content |
    |---|---|
    | search | Weather today: sunny and mild |
    | web | <content> |
    | news | Local news: nothing to report |

A cell ends at the next bar of its row that no odd run of backslashes
escapes, and the row at a line break. The content is written as GFM
escapes a cell: every backslash doubled, every `|` as `\\|`, every line
break a reader honours as an escape (`\\n`, `\\r`, `\\uNNNN`), and every
other character that the unicode level reads as a bar or a backslash
(fullwidth, lookalikes) with a backslash before it, so it is escaped for a
reader that folds it. Nothing else changes.
"""

import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "lib"))
sys.path.insert(0, os.path.join(HERE, "..", "..", "..", "adapters", "python"))
from fcshape import fold_char  # noqa: E402
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
        elif any(c in "|\\" for c in fold_char(ch)):
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
