"""Field adapter: ``DEFAULT_TEXT_QA_PROMPT``, llama-index-core 0.14.25 (PyPI, MIT).

LlamaIndex's default question-answering prompt, which its response
synthesizers fill with the retrieved text: a sentence, a line of 21 dashes,
the context, the same line of dashes, then the instruction, ``Query:`` and
``Answer:``. The same constant line stands before and after the content and
nothing in the content is escaped, so a line of 21 dashes in a retrieved
document ends the context for the model. Call:
``DEFAULT_TEXT_QA_PROMPT.format(context_str=content, query_str=QUESTION)``,
the package's own template object and its own ``format``, with a fixed
question. No attributes, provenance or kind; no reader.
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "adapters" / "python"))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from fieldpin import require  # noqa: E402

require("llama-index-core", "0.14.25")

from llama_index.core.prompts.default_prompts import DEFAULT_TEXT_QA_PROMPT  # noqa: E402
from framecheck_adapter import serve  # noqa: E402

QUESTION = "What does the document say?"


def wrap(content, kind, attributes, provenance):
    return DEFAULT_TEXT_QA_PROMPT.format(context_str=content, query_str=QUESTION)


serve(wrap)
