"""Bracket markers, broken: lookalikes known only in Cyrillic and Greek.

[TOOL_OUTPUT]
CONTENT
[/TOOL_OUTPUT]

Like the correct fixture, every reading of the token is replaced by
TOOL-OUTPUT: any letter case, invisible characters, everything NFKC folds
(fullwidth, mathematical and circled letters). But its lookalike table is
the Cyrillic and Greek part of Unicode's confusables data only, the
scripts a framing's author thinks of first. A marker respelled with
Armenian, Cherokee, Lisu, Canadian syllabics, Coptic or Latin IPA and
small-capital lookalikes (`[/TOOL_OՍTPՍT]`) still reads as the marker.
"""

import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "lib"))
sys.path.insert(0, os.path.join(HERE, "..", "..", "..", "adapters", "python"))
import fcshape  # noqa: E402
from framecheck_adapter import serve  # noqa: E402

# The defect: the Greek (U+0370-U+03FF) and Cyrillic (U+0400-U+052F) blocks only.
fcshape.LOOKALIKES = {
    ch: ascii_char for ch, ascii_char in fcshape.LOOKALIKES.items() if 0x370 <= ord(ch) <= 0x52F
}

TOKEN = "TOOL_OUTPUT"
SAFE = "TOOL-OUTPUT"


def wrap(content, kind, attributes, provenance):
    return f"[{TOKEN}]\n{fcshape.defang(content, TOKEN, SAFE)}\n[/{TOKEN}]"


serve(wrap)
