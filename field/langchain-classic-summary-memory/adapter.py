"""Field adapter: ``ConversationSummaryMemory.predict_new_summary``, langchain-classic 1.0.8 (PyPI, MIT).

LangChain's summary memory asks a model to fold new conversation lines into a
running summary. Its prompt (``langchain_classic.memory.prompt.SUMMARY_PROMPT``)
has labels that are phrases with spaces: ``Current summary:``, the summary,
``New lines of conversation:``, the lines, ``New summary:``, after an example
written with the same labels; the lines are ``get_buffer_string`` records
(``Human: …``, ``AI: …``), nothing escaped. Here the untrusted content is the
human's message (a fixed AI reply follows it) and the running summary is a
fixed sentence. The memory is called as the package calls it, through its
``LLMChain``, with a stand-in LLM that answers its prompt unchanged, so the
answer is the exact prompt the model would get. No attributes, provenance or
kind; no reader.
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "adapters" / "python"))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from fieldpin import require  # noqa: E402

require("langchain-classic", "1.0.8")

from langchain_classic.memory import ConversationSummaryMemory  # noqa: E402
from langchain_core.language_models.llms import LLM  # noqa: E402
from langchain_core.messages import AIMessage, HumanMessage  # noqa: E402
from framecheck_adapter import serve  # noqa: E402

SUMMARY = "The human asked about the release process and the AI described it."
REPLY = "Thanks, I will add that to the notes."


class EchoLLM(LLM):
    """An LLM that answers its prompt as it got it (no network)."""

    @property
    def _llm_type(self) -> str:
        return "echo"

    def _call(self, prompt, stop=None, run_manager=None, **kwargs):
        return prompt


MEMORY = ConversationSummaryMemory(llm=EchoLLM())


def wrap(content, kind, attributes, provenance):
    messages = [HumanMessage(content), AIMessage(REPLY)]
    return MEMORY.predict_new_summary(messages, SUMMARY)


serve(wrap)
