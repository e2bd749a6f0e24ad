"""Field adapter: ``pydantic_ai.framing.wrap`` from pydantic-ai-slim 2.68.0 (PyPI, MIT).

The public helper Pydantic AI offers extensions for framing data in prompt
text: ``wrap(tag, body, **attrs)`` escapes the ``<`` of every framing tag in
the body and HTML-escapes attribute values. Called here with the built-in data
tag ``tool_result`` and the request's attributes as keyword attributes. The
function has no provenance or kind, so neither is passed. Its ``UserError``
(an attribute name that is not lowercase snake_case) is a deliberate
rejection and is answered as a refusal. No reader exists, so none is served.
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "adapters" / "python"))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from fieldpin import require  # noqa: E402

require("pydantic-ai-slim", "2.68.0")

from framecheck_adapter import Refusal, serve  # noqa: E402
from pydantic_ai.exceptions import UserError  # noqa: E402
from pydantic_ai.framing import wrap as pydantic_ai_wrap  # noqa: E402


def wrap(content, kind, attributes, provenance):
    try:
        return pydantic_ai_wrap("tool_result", content, **attributes)
    except UserError as error:
        raise Refusal(str(error)) from error


serve(wrap)
