"""Field adapter: ``get_buffer_string`` in its default prefix form, langchain-core 1.8.3 (PyPI, MIT).

LangChain renders a message list as prompt text (conversation memories,
summaries, chains that take ``{history}``) with ``get_buffer_string``; its
default ``format="prefix"`` writes one record per message, ``Role: content``
(``Human``, ``AI``, ``System``, ``Function``, ``Tool``), joined by ``\\n``,
with nothing in a message escaped: a line break followed by ``System:`` or
``AI:`` in a message starts a forged record. (Its ``format="xml"`` form is
audited in ``field/langchain-core-buffer-string-xml``.) Here the untrusted
content is a tool's result between a fixed human request and a fixed AI
reply. Call: ``get_buffer_string([HumanMessage(REQUEST),
ToolMessage(content, tool_call_id="call_1"), AIMessage(REPLY)])``. No
attributes, provenance or kind; no reader.
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "adapters" / "python"))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from fieldpin import require  # noqa: E402

require("langchain-core", "1.8.3")

from langchain_core.messages import AIMessage, HumanMessage, ToolMessage, get_buffer_string  # noqa: E402
from framecheck_adapter import serve  # noqa: E402

REQUEST = "Fetch the release notes."
REPLY = "The release notes list three fixes."


def wrap(content, kind, attributes, provenance):
    messages = [
        HumanMessage(REQUEST),
        ToolMessage(content, tool_call_id="call_1"),
        AIMessage(REPLY),
    ]
    return get_buffer_string(messages)


serve(wrap)
