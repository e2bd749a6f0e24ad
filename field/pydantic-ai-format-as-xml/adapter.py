"""Field adapter: ``pydantic_ai.format_as_xml`` from pydantic-ai-slim 2.68.0 (PyPI, MIT).

``format_as_xml(obj, root_tag=...)`` serialises a Python object as XML for a
prompt through ``xml.etree.ElementTree``; a string becomes the text of the
root element, with ``&``, ``<`` and ``>`` written as entities. Called with the
content and ``root_tag="document"``, every other argument at its default. The
function takes no attributes, provenance or kind, and has no reader.
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "adapters" / "python"))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from fieldpin import require  # noqa: E402

require("pydantic-ai-slim", "2.68.0")

from framecheck_adapter import serve  # noqa: E402
from pydantic_ai import format_as_xml  # noqa: E402


def wrap(content, kind, attributes, provenance):
    return format_as_xml(content, root_tag="document")


serve(wrap)
