"""Section markers, correct: `Name: value` blocks, the content inline.

    Question: What does the document say?
    Context: <content>
    Answer:

The content's section runs from `Context:` to the next label line. Every
content line after the first (the first follows `Context: ` on its line)
that reads as one of the three labels at the unicode level (any case,
folded, after any line break a reader honours) is escaped with a
backslash; nothing else changes.
"""

import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "lib"))
sys.path.insert(0, os.path.join(HERE, "..", "..", "..", "adapters", "python"))
from fcshape import defang_marker_lines  # noqa: E402
from framecheck_adapter import serve  # noqa: E402

LABEL = re.compile(r"[ \t]*(question|context|answer)[ \t]*:")


def wrap(content, kind, attributes, provenance):
    body = defang_marker_lines(content, LABEL, from_line=1)
    return f"Question: What does the document say?\nContext: {body}\nAnswer:"


serve(wrap)
