"""An indentation-only frame, broken: a reStructuredText directive indented
after the ASCII line breaks alone.

    .. note:: Retrieved page

       <first line of the content>
       <every further line>

    Summarise the note above.

The indent follows LF, CRLF and a lone CR, but not VT, FF, NEL, U+2028 or
U+2029: a reader that splits lines there (`str.splitlines()`, a Unicode
reader) sees a content line at column 0, which ends the directive. A
Unicode-level defect: readers that split at the ASCII breaks alone see none.
"""

import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "..", "adapters", "python"))
from framecheck_adapter import serve  # noqa: E402

INDENT = "   "
BREAKS = re.compile("(\r\n|[\n\r])")  # the defect: the ASCII breaks alone


def indent(content):
    parts = BREAKS.split(content)  # line, break, line, break, ..., line
    return INDENT + "".join(p if i % 2 else INDENT + p if i else p for i, p in enumerate(parts))


def wrap(content, kind, attributes, provenance):
    return f".. note:: Retrieved page\n\n{indent(content)}\n\nSummarise the note above."


serve(wrap)
