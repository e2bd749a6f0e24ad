"""A counter in section labels, correct: a numbered batch of documents.

    Rank the documents below by how well each answers the question.

    Document 1:
    <fixed text>

    Document 2:
    <content>

    Document 3:
    <fixed text>

    Question: <fixed question>
    Answer:

The numbers count the documents of the batch, so a label with any number
(`Document 7:`) reads as one of the framing's and ends the content's
document. Every content line that reads, at the unicode level (folded,
after any line break a reader honours), as a `Document <number>:` label
with any number, or as `Question:` or `Answer:`, is escaped with a
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

LABEL = re.compile(r"[ \t]*(document[ \t]+[0-9]+|question|answer)[ \t]*:")
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
