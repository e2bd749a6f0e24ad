"""Field adapter: ``get_buffer_string(format="xml")`` from langchain-core 1.8.3 (PyPI, MIT).

LangChain renders a list of messages as one string for a prompt (summaries,
memory, evaluators) with ``langchain_core.messages.get_buffer_string``; with
``format="xml"`` each message becomes ``<message type="ROLE">…</message>``
with ``&``, ``<``, ``>`` escaped as entities. Called with one
``ToolMessage(content, tool_call_id="call_1")`` (a tool result, the
untrusted part). No reader, attributes, provenance or kind.
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "adapters" / "python"))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from fieldpin import require  # noqa: E402

require("langchain-core", "1.8.3")

from framecheck_adapter import serve  # noqa: E402
from langchain_core.messages import ToolMessage, get_buffer_string  # noqa: E402


def wrap(content, kind, attributes, provenance):
    return get_buffer_string([ToolMessage(content, tool_call_id="call_1")], format="xml")


serve(wrap)
