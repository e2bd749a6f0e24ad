"""An indentation-only frame, broken: a reStructuredText directive indented
after LF alone.

    .. note:: Retrieved page

       <first line of the content>
       <every further line>

    Summarise the note above.

The directive's body ends at the first line that is not indented. Only LF
is followed by the indent, so after a lone CR (or NEL, U+2028) a content
line starts at column 0 for every reader that splits lines there, and ends
the directive: what follows is the page's own instruction.
"""

import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "..", "adapters", "python"))
from framecheck_adapter import serve  # noqa: E402

INDENT = "   "


def wrap(content, kind, attributes, provenance):
    body = INDENT + content.replace("\n", "\n" + INDENT)  # the defect: LF only
    return f".. note:: Retrieved page\n\n{body}\n\nSummarise the note above."


serve(wrap)
