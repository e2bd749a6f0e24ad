"""Field audit adapter: a ``ToolCallingAgent`` step's observation, smolagents 1.26.0 (PyPI, Apache-2.0).

smolagents' tool-calling agent turns what a tool returned into the next
tool-response message with ``str(result).strip()`` after ``Observation:``.
A tool that returns a record (a dict, as search and fetch tools commonly do)
is therefore written as a Python literal: ``repr`` of the dict, whose quote
character Python picks per string (``'`` unless the text holds a ``'`` and
no ``"``), with backslash escapes for line breaks and controls. The
untrusted content is the ``content`` value of the record a fetch tool
returns, next to a fixed ``url``: a real ``ToolCallingAgent`` built once with
that tool and a stand-in model that always calls it; each wrap runs one step
and answers the text of that step's tool-response message as
``ActionStep.to_messages`` writes it for the model. No attributes,
provenance or kind; no reader.
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "adapters" / "python"))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from fieldpin import require  # noqa: E402

require("smolagents", "1.26.0")

from smolagents import ToolCallingAgent, tool  # noqa: E402
from smolagents.memory import ActionStep  # noqa: E402
from smolagents.models import (  # noqa: E402
    ChatMessage,
    ChatMessageToolCall,
    ChatMessageToolCallFunction,
    MessageRole,
    Model,
)
from smolagents.monitoring import LogLevel  # noqa: E402
from framecheck_adapter import serve  # noqa: E402

# The content the tool answers for the current wrap.
CURRENT = {"content": ""}
URL = "https://example.com/report"


@tool
def fetch_page(url: str) -> dict:
    """Fetch a web page.

    Args:
        url: The page's address.

    Returns:
        The page as a record with its url and text content.
    """
    return {"url": url, "content": CURRENT["content"]}


class ScriptedModel(Model):
    """A model that always asks for the same tool call (no network)."""

    def generate(self, messages, stop_sequences=None, response_format=None, tools_to_call_from=None, **kwargs):
        call = ChatMessageToolCall(
            id="call_1",
            type="function",
            function=ChatMessageToolCallFunction(name="fetch_page", arguments={"url": URL}),
        )
        return ChatMessage(role=MessageRole.ASSISTANT, content="", tool_calls=[call])


AGENT = ToolCallingAgent(tools=[fetch_page], model=ScriptedModel(), max_steps=1, verbosity_level=LogLevel.OFF)


def first_action_step():
    """Run the agent until its first action step has executed, and return it."""
    for step in AGENT.run("Summarise the page.", stream=True, reset=True):
        if isinstance(step, ActionStep):
            return step
    raise RuntimeError("the agent produced no action step")


def wrap(content, kind, attributes, provenance):
    CURRENT["content"] = content
    step = first_action_step()
    (observation,) = [m for m in step.to_messages() if m.role == MessageRole.TOOL_RESPONSE]
    (part,) = observation.content
    return part["text"]


serve(wrap)
