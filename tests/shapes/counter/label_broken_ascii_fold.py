"""A counter in section labels, broken: labels are found in ASCII case only.

The frame of label_correct.py; label lines are found after every line
break a reader honours and with any number, but compared in ASCII case
only, not Unicode-folded: a fullwidth, zero-width-spliced or lookalike
spelling of `Document 7:` comes through and, for a reader that folds
Unicode, starts a forged document.
"""

import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "lib"))
sys.path.insert(0, os.path.join(HERE, "..", "..", "..", "adapters", "python"))
from fcshape import LINE_BREAKS  # noqa: E402
from framecheck_adapter import serve  # noqa: E402

LABEL = re.compile(r"[ \t]*(document[ \t]+[0-9]+|question|answer)[ \t]*:", re.I | re.A)  # the defect: ASCII only
BREAK = re.compile("(\r\n|[" + LINE_BREAKS + "])")
BEFORE = "The nightly job rebuilds the search index."
AFTER = "Old snapshots are removed after thirty days."


def escaped(content):
    pieces = BREAK.split(content)
    return "".join("\\" + p if i % 2 == 0 and LABEL.match(p) else p for i, p in enumerate(pieces))


def wrap(content, kind, attributes, provenance):
    docs = [BEFORE, escaped(content), AFTER]
    batch = "\n\n".join(f"Document {n}:\n{text}" for n, text in enumerate(docs, 1))
    return (
        "Rank the documents below by how well each answers the question.\n\n"
        f"{batch}\n\nQuestion: How long are snapshots kept?\nAnswer:"
    )


serve(wrap)
