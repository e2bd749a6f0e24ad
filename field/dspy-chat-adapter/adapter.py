"""Field adapter: ``ChatAdapter.format`` from dspy 3.4.1 (PyPI, MIT).

DSPy's default prompt adapter writes each input field of a signature as a
section opened by a ``[[ ## name ## ]]`` marker line and ended by the next
marker; the model is asked to answer in the same markers, and
``ChatAdapter.parse`` splits its reply at every such line. Called with the
signature ``context, question -> answer``, the untrusted content as
``context`` (a retrieved document) and a fixed ``question``; the framed
text is the content of the user message ``format`` returns (the system
message describes the fields and holds no input). No reader is served: the
parse step reads the model's reply, not this prompt. No attributes,
provenance or kind.
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "adapters" / "python"))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from fieldpin import require  # noqa: E402

require("dspy", "3.4.1")

import dspy  # noqa: E402
from framecheck_adapter import serve  # noqa: E402

SIGNATURE = dspy.Signature("context, question -> answer")
ADAPTER = dspy.ChatAdapter()
QUESTION = "What does the document say?"


def wrap(content, kind, attributes, provenance):
    messages = ADAPTER.format(
        SIGNATURE, demos=[], inputs={"context": content, "question": QUESTION}
    )
    (user,) = [m for m in messages if m["role"] == "user"]
    return user["content"]


serve(wrap)
