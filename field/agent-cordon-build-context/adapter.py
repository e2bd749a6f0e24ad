"""Field adapter: ``agent_cordon.build_context`` from agent-cordon 0.3.0 (PyPI, MIT).

``build_context(parts)`` assembles a prompt from trust-tagged parts: trusted
parts pass as written, untrusted ones (``Trust.WEB``, ``Trust.TOOL``) are each
wrapped as ``wrap_as_data`` does, and the parts are joined by a blank line.
Served as ``wrap-many``: every item becomes a ``(Trust.TOOL, content)`` part,
so one call writes one frame per item; ``wrap`` is the one-item call. No
reader, attributes, provenance or kind.
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "adapters" / "python"))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from fieldpin import require  # noqa: E402

require("agent-cordon", "0.3.0")

from agent_cordon import Trust, build_context  # noqa: E402
from framecheck_adapter import serve  # noqa: E402


def wrap(content, kind, attributes, provenance):
    return build_context([(Trust.TOOL, content)])


def wrap_many(items):
    return build_context([(Trust.TOOL, item["content"]) for item in items])


serve(wrap, wrap_many=wrap_many)
