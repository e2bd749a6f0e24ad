"""A tool result announced with its length, read by a model; broken: its
marker lines escaped only as ASCII spells them.

    Tool result (27 characters follow):
    CONTENT, ITS ASCII MARKER LINES ESCAPED
    End of tool result.

A content line that reads as either marker in ASCII, in any case, gets a
backslash before it; one a Unicode reader folds to a marker (fullwidth
letters, an invisible character inside a word) is written as it is and
ends the frame for that reader. A Unicode-level defect.
"""

import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "..", "adapters", "python"))
from framecheck_adapter import serve  # noqa: E402

MARKER = re.compile(
    r"[ \t]*(?:tool[ \t]*result[ \t]*\([ \t]*[0-9]+[ \t]*characters[ \t]*follow[ \t]*\)[ \t]*:"
    r"|end[ \t]*of[ \t]*tool[ \t]*result[ \t]*\.)",
    re.IGNORECASE | re.ASCII,
)


def escape(content):
    # the defect: lines matched as written, not as a Unicode reader folds them
    lines = content.splitlines(keepends=True)
    return "".join("\\" + line if MARKER.match(line) else line for line in lines)


def wrap(content, kind, attributes, provenance):
    return f"Tool result ({len(content)} characters follow):\n{escape(content)}\nEnd of tool result."


serve(wrap)
