"""Field audit adapter: a ReAct agent's observation of a tool record, llama-index-core 0.14.25 (PyPI, MIT).

LlamaIndex's ``ReActAgent`` hands a tool's output back to the model as an
``ObservationReasoningStep`` (``str(tool_output.content)`` after
``Observation: ``), which ``ReActChatFormatter`` turns into a message of the
observation role (``user`` by default). ``FunctionTool`` writes a tool's
return value with ``str()``, so a tool that returns a record (a dict, as
fetch and search tools commonly do) reaches the model as a Python literal:
``repr`` of the dict, whose quote character Python picks per string. The
untrusted content is the ``content`` value of the record a fetch tool
returns, next to a fixed ``url``. Call: ``FunctionTool.from_defaults(fn=
fetch_page).call(url=URL)``, then ``ObservationReasoningStep(observation=
str(output.content))`` as the agent builds it, formatted by
``ReActChatFormatter().format([tool], [], current_reasoning=[step])``; the
answer is the text of the last message, the observation. No attributes,
provenance or kind; no reader.
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "adapters" / "python"))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from fieldpin import require  # noqa: E402

require("llama-index-core", "0.14.25")

from llama_index.core.agent.react.formatter import ReActChatFormatter  # noqa: E402
from llama_index.core.agent.react.types import ObservationReasoningStep  # noqa: E402
from llama_index.core.tools import FunctionTool  # noqa: E402
from framecheck_adapter import serve  # noqa: E402

URL = "https://example.com/report"
CURRENT = {"content": ""}


def fetch_page(url: str) -> dict:
    """Fetch a web page and return its url and text content."""
    return {"url": url, "content": CURRENT["content"]}


TOOL = FunctionTool.from_defaults(fn=fetch_page)
FORMATTER = ReActChatFormatter()


def wrap(content, kind, attributes, provenance):
    CURRENT["content"] = content
    output = TOOL.call(url=URL)
    step = ObservationReasoningStep(observation=str(output.content))
    messages = FORMATTER.format([TOOL], [], current_reasoning=[step])
    return messages[-1].content


serve(wrap)
