"""An indentation-only frame, correct: a reStructuredText directive.

    .. note:: Retrieved page

       <first line of the content>
       <every further line>

    Summarise the note above.

The directive's body is its indented block: it ends at the first line that
is not indented. Every line of the content is written after three spaces,
after every line break any reader level splits at (the breaks kept as
written), so no content line starts at column 0.
"""

import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "..", "adapters", "python"))
from framecheck_adapter import serve  # noqa: E402

INDENT = "   "
BREAKS = re.compile("(\r\n|[\n\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029])")


def indent(content):
    parts = BREAKS.split(content)  # line, break, line, break, ..., line
    return INDENT + "".join(p if i % 2 else INDENT + p if i else p for i, p in enumerate(parts))


def wrap(content, kind, attributes, provenance):
    return f".. note:: Retrieved page\n\n{indent(content)}\n\nSummarise the note above."


serve(wrap)
