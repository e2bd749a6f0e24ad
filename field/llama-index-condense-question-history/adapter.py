"""Field adapter: the condense-question prompt's chat history, llama-index-core 0.14.25 (PyPI, MIT).

LlamaIndex's ``CondenseQuestionChatEngine`` rewrites a follow-up message into
a standalone question by sending the model its default prompt with the
conversation written by ``messages_to_history_str``: one record per message,
``<role>: <content>``, joined by line breaks, with nothing in a message
escaped. A line break followed by ``assistant:`` or ``system:`` in a message
therefore starts a forged record. Here the untrusted content is the earlier
user message (a fixed assistant reply follows it): the history is written
by the package's function and put into the engine's ``DEFAULT_PROMPT``
(``<Chat History>`` … ``<Follow Up Message>`` … ``<Standalone question>``)
with the package's own ``format`` and a fixed follow-up, the text the
engine hands its model. No attributes, provenance or kind; no reader.
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "adapters" / "python"))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from fieldpin import require  # noqa: E402

require("llama-index-core", "0.14.25")

from llama_index.core.base.llms.generic_utils import messages_to_history_str  # noqa: E402
from llama_index.core.base.llms.types import ChatMessage, MessageRole  # noqa: E402
from llama_index.core.chat_engine.condense_question import DEFAULT_PROMPT  # noqa: E402
from framecheck_adapter import serve  # noqa: E402

REPLY = "It describes the release process."
FOLLOW_UP = "And who signs the releases?"


def wrap(content, kind, attributes, provenance):
    history = [
        ChatMessage(role=MessageRole.USER, content=content),
        ChatMessage(role=MessageRole.ASSISTANT, content=REPLY),
    ]
    return DEFAULT_PROMPT.format(chat_history=messages_to_history_str(history), question=FOLLOW_UP)


serve(wrap)
