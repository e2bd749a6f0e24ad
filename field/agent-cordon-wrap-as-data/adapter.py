"""Field adapter: ``agent_cordon.wrap_as_data`` from agent-cordon 0.3.0 (PyPI, MIT).

``wrap_as_data(text)`` wraps a tool result in ``<untrusted_data>``: a fixed
notice line, a ``---`` line, the body, another ``---`` line. With its default
``use_spotlight=False`` the body is ``sanitize(text)``: invisible and bidi
characters stripped, spans its scanner flags wrapped in
``[FLAGGED_UNTRUSTED_TEXT]`` markers. The function takes no attributes,
provenance or kind, and has no reader.
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "adapters" / "python"))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from fieldpin import require  # noqa: E402

require("agent-cordon", "0.3.0")

from agent_cordon import wrap_as_data  # noqa: E402
from framecheck_adapter import serve  # noqa: E402


def wrap(content, kind, attributes, provenance):
    return wrap_as_data(content)


serve(wrap)
