"""Section markers, correct: `[[ ## field ## ]]` sections, no closer.

    [[ ## question ## ]]
    What does the document say?

    [[ ## context ## ]]
    <content>

    Respond with the field `[[ ## answer ## ]]`.

The content's section ends where the next marker begins; a parser that
splits at every `[[ ## name ## ]]` line would start a forged section at a
marker line in the content. Every content line that reads as a marker at
the unicode level (after any line break a reader honours, folded) is
escaped with a backslash; nothing else changes. The marker quoted in the
closing sentence is mid-line, so no reader takes it for a section.
"""

import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "lib"))
sys.path.insert(0, os.path.join(HERE, "..", "..", "..", "adapters", "python"))
from fcshape import defang_marker_lines  # noqa: E402
from framecheck_adapter import serve  # noqa: E402

MARKER = re.compile(r"[ \t]*\[\[[ \t]+##[ \t]+\w+[ \t]+##[ \t]+\]\]")


def wrap(content, kind, attributes, provenance):
    body = defang_marker_lines(content, MARKER)
    return (
        "[[ ## question ## ]]\nWhat does the document say?\n\n"
        f"[[ ## context ## ]]\n{body}\n\n"
        "Respond with the field `[[ ## answer ## ]]`."
    )


serve(wrap)
