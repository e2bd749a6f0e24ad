"""Field adapter: LLM rerank's document batch, llama-index-core 0.14.25 (PyPI, MIT).

LlamaIndex's ``LLMRerank`` postprocessor asks the model which retrieved
documents answer a question. It numbers the batch with
``default_format_node_batch_fn`` (``Document 1:``, the text, a blank line,
``Document 2:`` …) and puts it into ``DEFAULT_CHOICE_SELECT_PROMPT``, whose
own example already lists ``Document 1:`` to ``Document 10:``. A document's
text is not escaped, so a line ``Document 3:`` in it starts a forged
document the model may rank. Here the untrusted content is the second of
three retrieved documents (the first and third fixed), formatted by the
package's function and put into the package's prompt with its own
``format`` and a fixed question: the answer is the whole prompt, as the
model reads it. No attributes, provenance or kind; no reader.
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "adapters" / "python"))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from fieldpin import require  # noqa: E402

require("llama-index-core", "0.14.25")

from llama_index.core.indices.utils import default_format_node_batch_fn  # noqa: E402
from llama_index.core.prompts.default_prompts import DEFAULT_CHOICE_SELECT_PROMPT  # noqa: E402
from llama_index.core.schema import TextNode  # noqa: E402
from framecheck_adapter import serve  # noqa: E402

QUESTION = "Which documents describe the release process?"
BEFORE = "The build runs on every push to the main branch."
AFTER = "Releases are tagged by the maintainers after review."


def wrap(content, kind, attributes, provenance):
    nodes = [TextNode(text=BEFORE), TextNode(text=content), TextNode(text=AFTER)]
    return DEFAULT_CHOICE_SELECT_PROMPT.format(
        context_str=default_format_node_batch_fn(nodes), query_str=QUESTION
    )


serve(wrap)
