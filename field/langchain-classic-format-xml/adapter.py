"""Field adapter: ``format_xml`` from langchain-classic 1.0.8 (PyPI, MIT).

``langchain_classic.agents.format_scratchpad.xml.format_xml(intermediate_steps)``
renders an XML agent's scratchpad: per step ``<tool>…</tool><tool_input>…
</tool_input><observation>…</observation>``, with its default
``escape_format="minimal"`` (six exact tag spellings replaced by ``[[…]]``).
The untrusted part is the observation (the tool's output), so one step is
passed with the content as its observation and a fixed tool name and input;
the function has no attributes, provenance or kind, and no reader.
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "adapters" / "python"))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from fieldpin import require  # noqa: E402

require("langchain-classic", "1.0.8")

from framecheck_adapter import serve  # noqa: E402
from langchain_classic.agents.format_scratchpad.xml import format_xml  # noqa: E402
from langchain_core.agents import AgentAction  # noqa: E402

ACTION = AgentAction(tool="search", tool_input="framecheck query", log="")


def wrap(content, kind, attributes, provenance):
    return format_xml([(ACTION, content)])


serve(wrap)
