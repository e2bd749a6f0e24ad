"""Field adapter: ``nest_handoff_history`` from openai-agents 0.24.0 (PyPI, MIT).

When one agent hands off to another, the OpenAI Agents SDK can fold the
conversation so far into one assistant message: a sentence, then
``<CONVERSATION HISTORY>``, one numbered line per transcript item, and
``</CONVERSATION HISTORY>``. A tool output item (no role) is written as
``N. {JSON of the item}``, so the untrusted output is a JSON string inside
that object. Called with a history of one item
``{"type": "function_call_output", "call_id": "call_1", "output": content}``;
the framed text is the content of the one message it returns. The SDK parses
such a summary again at the next handoff, but only through private
functions, so no reader is served. No attributes, provenance or kind.
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "adapters" / "python"))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from fieldpin import require  # noqa: E402

require("openai-agents", "0.24.0")

from agents.handoffs import HandoffInputData, nest_handoff_history  # noqa: E402
from framecheck_adapter import serve  # noqa: E402


def wrap(content, kind, attributes, provenance):
    item = {"type": "function_call_output", "call_id": "call_1", "output": content}
    nested = nest_handoff_history(HandoffInputData(input_history=(item,), pre_handoff_items=(), new_items=()))
    (message,) = nested.input_history
    return message["content"]


serve(wrap)
