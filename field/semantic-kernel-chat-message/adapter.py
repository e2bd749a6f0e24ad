"""Field adapter: ``ChatMessageContent.to_prompt`` from semantic-kernel 1.45.0 (PyPI, MIT).

Semantic Kernel renders chat history into prompt text as XML and parses the
rendered prompt back into role-separated messages. ``ChatMessageContent(
role=AuthorRole.USER, content=text).to_prompt()`` writes
``<message role="user"><text>…</text></message>`` through
``xml.etree.ElementTree``, which escapes ``&``, ``<`` and ``>``; the reader
is ``ChatHistory.from_rendered_prompt(text)``, which parses the XML and
unescapes. ``read`` answers the content of the one message it yields when
that message has the user role, and null for anything else (no message,
several, or another role), which is the frame this framing promises. The
function has no attributes, provenance or kind here.
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "adapters" / "python"))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from fieldpin import require  # noqa: E402

require("semantic-kernel", "1.45.0")

from framecheck_adapter import serve  # noqa: E402
from semantic_kernel.contents import AuthorRole, ChatHistory, ChatMessageContent  # noqa: E402


def wrap(content, kind, attributes, provenance):
    return ChatMessageContent(role=AuthorRole.USER, content=content).to_prompt()


def read(text):
    messages = ChatHistory.from_rendered_prompt(text).messages
    if len(messages) != 1 or messages[0].role != AuthorRole.USER:
        return None
    return messages[0].content


serve(wrap, read=read)
