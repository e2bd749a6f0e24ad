"""A tool result announced with its length, read by a model; broken.

    Tool result (27 characters follow):
    CONTENT, RAW
    End of tool result.

A model does not count characters: the length in the opener delimits
nothing for it, so the frame ends at the first line that reads as the fixed
end line, and content that writes one ends the frame early.
"""

import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "..", "adapters", "python"))
from framecheck_adapter import serve  # noqa: E402


def wrap(content, kind, attributes, provenance):
    # the defect: the body's only end is a fixed line the content can write
    return f"Tool result ({len(content)} characters follow):\n{content}\nEnd of tool result."


serve(wrap)
