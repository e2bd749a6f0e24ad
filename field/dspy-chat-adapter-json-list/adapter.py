"""Field audit adapter: ``ChatAdapter.format`` with a typed list field, dspy 3.4.1 (PyPI, MIT).

When the passages field is declared ``list[str]``, DSPy's ``ChatAdapter``
writes its value with ``json.dumps(value, ensure_ascii=False)``
(``format_field_value``): a JSON array inside the ``[[ ## context ## ]]``
section, each passage a JSON string. The frame of the untrusted passage is
that string, closed by an unescaped ``"``; the section markers around the
array are the framing's too. Here the untrusted content is the second of
three passages (the first and third fixed), signature ``context:
list[str], question -> answer`` and a fixed question; the answer is the
content of the one user message ``format`` returns. The sibling
``dspy-chat-adapter-passages`` is the same call with the field untyped. No
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

SIGNATURE = dspy.Signature("context: list[str], question -> answer")
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
