"""A counter in section labels, broken: only the batch's own numbers are escaped.

The frame of label_correct.py; a content line is escaped when it reads
(at the unicode level) as `Question:`, `Answer:` or a `Document <n>:`
label whose number is one the batch uses (1 to 3). A label with another
number (`Document 7:`), which a reader takes for the framing's as readily,
comes through and starts a forged document.
"""

import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "lib"))
sys.path.insert(0, os.path.join(HERE, "..", "..", "..", "adapters", "python"))
from fcshape import defang_marker_lines  # noqa: E402
from framecheck_adapter import serve  # noqa: E402

LABEL = re.compile(r"[ \t]*(document[ \t]+0*[123]|question|answer)[ \t]*:")  # the defect: own numbers only
BEFORE = "The nightly job rebuilds the search index."
AFTER = "Old snapshots are removed after thirty days."


def wrap(content, kind, attributes, provenance):
    docs = [BEFORE, defang_marker_lines(content, LABEL), AFTER]
    batch = "\n\n".join(f"Document {n}:\n{text}" for n, text in enumerate(docs, 1))
    return (
        "Rank the documents below by how well each answers the question.\n\n"
        f"{batch}\n\nQuestion: How long are snapshots kept?\nAnswer:"
    )


serve(wrap)
