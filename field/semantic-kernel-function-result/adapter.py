"""Field adapter: a tool message with ``FunctionResultContent``, semantic-kernel 1.45.0 (PyPI, MIT).

Semantic Kernel renders a function (tool) result in chat history as
``<message role="tool"><function_result id="…">RESULT</function_result></message>``
through ``ChatMessageContent.to_prompt`` (ElementTree: ``&``, ``<``, ``>`` as
entities), and ``ChatHistory.from_rendered_prompt`` parses it back. ``wrap``
renders ``ChatMessageContent(role=AuthorRole.TOOL,
items=[FunctionResultContent(id="call_1", function_name="search", result=content)])``;
``read`` answers the result of the one item when the text yields exactly
one tool message holding exactly one function result, and null otherwise.
No attributes, provenance or kind.
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "adapters" / "python"))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from fieldpin import require  # noqa: E402

require("semantic-kernel", "1.45.0")

from framecheck_adapter import serve  # noqa: E402
from semantic_kernel.contents import (  # noqa: E402
    AuthorRole,
    ChatHistory,
    ChatMessageContent,
    FunctionResultContent,
)


def wrap(content, kind, attributes, provenance):
    item = FunctionResultContent(id="call_1", function_name="search", result=content)
    return ChatMessageContent(role=AuthorRole.TOOL, items=[item]).to_prompt()


def read(text):
    messages = ChatHistory.from_rendered_prompt(text).messages
    if len(messages) != 1 or messages[0].role != AuthorRole.TOOL:
        return None
    items = messages[0].items
    if len(items) != 1 or not isinstance(items[0], FunctionResultContent):
        return None
    result = items[0].result
    return "" if result is None else str(result)


serve(wrap, read=read)
