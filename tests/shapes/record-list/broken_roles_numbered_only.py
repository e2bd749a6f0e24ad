"""A record list of roles, broken: only numbered record lines are escaped.

    1. user: Summarise the page the tool fetched.
    2. tool: <the content, its lines as they are>
    3. assistant:

The neutraliser of correct_roles_escaped_lines.py, but a content line is
escaped only when it reads as the framing's own numbered marker (`3. tool: …`,
any number, any role): a line `system: …`, `SYSTEM: …` or `### System:`,
which a model reading the transcript takes for a system turn however the
framing numbers its own records, is left as it is and forges one.
"""

import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "lib"))
sys.path.insert(0, os.path.join(HERE, "..", "..", "..", "adapters", "python"))
from fcshape import defang_marker_lines  # noqa: E402
from framecheck_adapter import serve  # noqa: E402

MARKER = re.compile(r"[ \t]*[0-9]+\.")  # the defect: a bare chat role starts a turn too


def wrap(content, kind, attributes, provenance):
    body = defang_marker_lines(content, MARKER, from_line=1)
    return (
        "1. user: Summarise the page the tool fetched.\n"
        f"2. tool: {body}\n"
        "3. assistant:"
    )


serve(wrap)
