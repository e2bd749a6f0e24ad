"""Section markers, correct: Markdown heading sections.

    ### Task
    Summarise the document.

    ### Document
    <content>

    ### Summary

The content's section runs from `### Document` to the next heading of a
declared section. Every content line that reads as a heading of one of the
three (any level, any case, folded, after any line break a reader honours)
is escaped with a backslash; other headings and all other text come
through unchanged.
"""

import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "lib"))
sys.path.insert(0, os.path.join(HERE, "..", "..", "..", "adapters", "python"))
from fcshape import defang_marker_lines  # noqa: E402
from framecheck_adapter import serve  # noqa: E402

HEADING = re.compile(r"[ \t]*#{1,6}[ \t]+(task|document|summary)[ \t]*:?[ \t]*$")


def wrap(content, kind, attributes, provenance):
    body = defang_marker_lines(content, HEADING)
    return f"### Task\nSummarise the document.\n\n### Document\n{body}\n\n### Summary\n"


serve(wrap)
