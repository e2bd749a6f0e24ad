"""Field audit adapter: ``ChatAdapter.format`` with a list of passages, dspy 3.4.1 (PyPI, MIT).

DSPy's retrieval programs pass the retrieved passages as a list in one
input field declared without a type (``str``, as ``"context, question ->
answer"`` declares it). ``ChatAdapter`` writes a list value in a ``str``
field as a numbered list (``format_field_value``): each passage after
``[N]``, with ``«…»`` around a one-line passage, or, when the passage holds
a line break, ``«`` or ``»``, as ``«««``, the passage with four spaces after
each ``\n``, and ``»»»`` on its own line. The shape therefore varies with
the content (one-line or block), carries a counter in its markers, and
quotes continuation lines with a prefix that only ``\n`` receives. Here the
untrusted content is the second of three passages (the first and third
fixed), signature ``context, question -> answer`` and a fixed question; the
answer is the content of the one user message ``format`` returns (the
system message holds no input). The existing ``field/dspy-chat-adapter``
audits the same adapter with one string as the field's value. No
attributes, provenance or kind; no reader.
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
QUESTION = "Who signs the releases?"
BEFORE = "The build runs on every push to the main branch."
AFTER = "Releases are tagged by the maintainers after review."


def wrap(content, kind, attributes, provenance):
    messages = ADAPTER.format(
        SIGNATURE,
        demos=[],
        inputs={"context": [BEFORE, content, AFTER], "question": QUESTION},
    )
    (user,) = [m for m in messages if m["role"] == "user"]
    return user["content"]


serve(wrap)
