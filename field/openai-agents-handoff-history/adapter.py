"""Field adapter: the handoff summary of openai-agents 0.24.0 (PyPI, MIT), written and read back.

One framing, two consumers (the profile's ``reader.consumers``). ``wrap``:
when one agent hands off to another, ``nest_handoff_history`` folds the
conversation so far into one assistant message: a sentence, then
``<CONVERSATION HISTORY>``, one numbered record per transcript item, and
``</CONVERSATION HISTORY>``. A tool output item (no role) is written as
``N. {JSON of the item}``, so the untrusted output is a JSON string inside
that object. Called with a history of one item
``{"type": "function_call_output", "call_id": "call_1", "output": content}``;
the framed text is the content of the one message it returns. The model of
the next agent reads that message. ``read`` is what the SDK does with the
same message at the next handoff: ``agents.handoffs.history``'s private
``_extract_nested_history_transcript`` splits the summary into records with
``str.splitlines()`` and parses each back into an input item. Each item it
returns is one segment: its ``role`` (or its ``type`` when it has no role),
no field, and its ``content`` (or ``output``) as the text. A private
function, called as the SDK calls it; pinned, so a rename shows up as an
import error, not as a silent change. No attributes, provenance or kind.
"""

import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "adapters" / "python"))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from fieldpin import require  # noqa: E402

require("openai-agents", "0.24.0")

from agents.handoffs import HandoffInputData, nest_handoff_history  # noqa: E402
from agents.handoffs.history import _extract_nested_history_transcript  # noqa: E402
from framecheck_adapter import serve  # noqa: E402


def wrap(content, kind, attributes, provenance):
    item = {"type": "function_call_output", "call_id": "call_1", "output": content}
    nested = nest_handoff_history(HandoffInputData(input_history=(item,), pre_handoff_items=(), new_items=()))
    (message,) = nested.input_history
    return message["content"]


def text_of(item):
    value = item.get("content", item.get("output", ""))
    return value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)


def read(text):
    items = _extract_nested_history_transcript({"role": "assistant", "content": text})
    if items is None:
        return None
    return [{"role": str(item.get("role") or item.get("type")), "field": None, "text": text_of(item)}
            for item in items]


serve(wrap, read)
