"""Field adapter: ``agent_cordon.guard_tool_result`` from agent-cordon 0.3.0 (PyPI, MIT).

The guard agent-cordon offers for MCP and tool results:
``guard_tool_result(text, on_block="raise")`` scans the text and raises
``InjectionError`` when its scanner judges it dangerous; otherwise it returns
the text wrapped as ``wrap_as_data`` does (``<untrusted_data>``, a notice, ``---``,
the sanitised text, ``---``, ``</untrusted_data>``). ``InjectionError`` is a
deliberate rejection and is answered as a refusal. No reader, attributes,
provenance or kind.
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "adapters" / "python"))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from fieldpin import require  # noqa: E402

require("agent-cordon", "0.3.0")

from agent_cordon import InjectionError, guard_tool_result  # noqa: E402
from framecheck_adapter import Refusal, serve  # noqa: E402


def wrap(content, kind, attributes, provenance):
    try:
        return guard_tool_result(content, on_block="raise")
    except InjectionError as error:
        raise Refusal(str(error)) from error


serve(wrap)
