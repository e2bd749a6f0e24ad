"""Field adapter: ``agent_cordon.wrap_as_data(use_spotlight=True)`` from agent-cordon 0.3.0 (PyPI, MIT).

The datamarking mode of the same wrapper: the notice gains a line naming the
marker, and the body is ``spotlight(text)``: invisible characters stripped,
then every run of whitespace replaced by the private-use character U+E000.
The function takes no attributes, provenance or kind, and has no reader.
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
    return wrap_as_data(content, use_spotlight=True)


serve(wrap)
