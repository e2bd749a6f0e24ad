"""A record list of roles, correct: line breaks kept, every line that starts a turn escaped.

    1. user: Summarise the page the tool fetched.
    2. tool: <the content, its lines as they are>
    3. assistant:

Each record starts at a numbered role marker first on its line. The content
keeps its line breaks; every content line after the first that reads, at the
unicode level (folded, after any line break a reader honours, after spaces
or tabs), as a numbered record marker (`3. tool: …`, any number) or as a chat
role in a transcript's spelling (`system: …`, `[system] …`, `### System:`,
which a model takes for a turn however the framing numbers its own records)
gets a backslash before it; nothing else changes.
"""

import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "lib"))
sys.path.insert(0, os.path.join(HERE, "..", "..", "..", "adapters", "python"))
from fcshape import defang_marker_lines, role_line_pattern  # noqa: E402
from framecheck_adapter import serve  # noqa: E402

MARKER = re.compile(r"[ \t]*[0-9]+\.|" + role_line_pattern())


def wrap(content, kind, attributes, provenance):
    body = defang_marker_lines(content, MARKER, from_line=1)
    return (
        "1. user: Summarise the page the tool fetched.\n"
        f"2. tool: {body}\n"
        "3. assistant:"
    )


serve(wrap)
