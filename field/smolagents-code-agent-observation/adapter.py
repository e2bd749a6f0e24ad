"""Field adapter: a ``CodeAgent`` step's observation, smolagents 1.26.0 (PyPI, Apache-2.0).

smolagents' code agent runs the Python the model writes and hands back what
it printed and what the snippet returned as the next tool-response message:
``Observation:``, ``Execution logs:``, the printed text, then ``Last output
from code snippet:`` and the snippet's value. The labels are phrases with
spaces, and nothing in the printed text is escaped, so a printed line that
reads as a label is read as one. The untrusted content here is a document
that a tool returns and the model's code prints: a real ``CodeAgent`` built
once with one tool (``read_document``, answering the content) and a stand-in
model that always writes ``print(read_document())``; each wrap runs one
step and answers the text of that step's tool-response message as
``ActionStep.to_messages`` writes it for the model. No attributes,
provenance or kind; no reader.
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "adapters" / "python"))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from fieldpin import require  # noqa: E402

require("smolagents", "1.26.0")

from smolagents import CodeAgent, tool  # noqa: E402
from smolagents.memory import ActionStep  # noqa: E402
from smolagents.models import ChatMessage, MessageRole, Model  # noqa: E402
from smolagents.monitoring import LogLevel  # noqa: E402
from framecheck_adapter import serve  # noqa: E402

# The content the tool answers for the current wrap.
CURRENT = {"content": ""}

# The model's reply: a thought and one code block in the agent's default tags.
REPLY = "Thought: I will read the document first.\n<code>\nprint(read_document())\n</code>"


@tool
def read_document() -> str:
    """Read the document the user asked about.

    Returns:
        The document's text.
    """
    return CURRENT["content"]


class ScriptedModel(Model):
    """A model that always answers the same code action (no network)."""

    def generate(self, messages, stop_sequences=None, response_format=None, tools_to_call_from=None, **kwargs):
        return ChatMessage(role=MessageRole.ASSISTANT, content=REPLY)


AGENT = CodeAgent(tools=[read_document], model=ScriptedModel(), max_steps=1, verbosity_level=LogLevel.OFF)


def first_action_step():
    """Run the agent until its first action step has executed, and return it."""
    for step in AGENT.run("Summarise the document.", stream=True, reset=True):
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
