"""One cell of a Markdown table row, broken: line breaks are left raw.

    | source | content |
    |---|---|
    | search | Weather today: sunny and mild |
    | web | <content> |
    | news | Local news: nothing to report |

Every backslash is doubled and every character that reads as a bar is
escaped, as in the correct framing, but the defect: line breaks are written
as they are, so a line break in the content ends the row and the content's
next line is a row of its own (`| system | … |`, a forged record).
"""

import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "lib"))
sys.path.insert(0, os.path.join(HERE, "..", "..", "..", "adapters", "python"))
from fcshape import fold_char  # noqa: E402
from framecheck_adapter import serve  # noqa: E402

ESCAPES = {"\\": "\\\\", "|": "\\|"}  # the defect: no line break


def escape_cell(text):
    out = []
    for ch in text:
        if ch in ESCAPES:
            out.append(ESCAPES[ch])
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
