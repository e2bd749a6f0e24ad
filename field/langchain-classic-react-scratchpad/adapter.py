"""Field adapter: ``format_log_to_str``, langchain-classic 1.0.8 (PyPI, MIT).

The scratchpad of LangChain's ReAct agents (``create_react_agent``): each
step is the model's own log (``Thought:``, ``Action:``, ``Action Input:``
lines), then ``\\nObservation: `` and the tool's answer, then
``\\nThought: `` for the model to go on. The observation is the untrusted
part and is written as it is, so a line ``Thought:`` or ``Action:`` in a
tool's answer reads as the agent's own step. Here one step with a fixed
action (a search) whose observation is the content. Call:
``format_log_to_str([(AgentAction(tool="search", tool_input=QUERY,
log=LOG), content)])``. No attributes, provenance or kind; no reader.
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "adapters" / "python"))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from fieldpin import require  # noqa: E402

require("langchain-classic", "1.0.8")

from langchain_classic.agents.format_scratchpad import format_log_to_str  # noqa: E402
from langchain_core.agents import AgentAction  # noqa: E402
from framecheck_adapter import serve  # noqa: E402

QUERY = "framecheck release notes"
# The model's log of the step, as the ReAct output parser keeps it.
LOG = f"Thought: I should search for the release notes.\nAction: search\nAction Input: {QUERY}"


def wrap(content, kind, attributes, provenance):
    action = AgentAction(tool="search", tool_input=QUERY, log=LOG)
    return format_log_to_str([(action, content)])


serve(wrap)
