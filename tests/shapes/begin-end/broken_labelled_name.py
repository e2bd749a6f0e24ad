"""Begin/end markers whose opener labels the name, broken: content as it is.

    [TOOL RESULT: search]
    <content>
    [END TOOL RESULT]

The opener names the frame before a colon and the tool after it; the
closer names the frame after an end word. Nothing in the content is
neutralised, so `[END TOOL RESULT]` in it closes the frame.
"""

import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "..", "adapters", "python"))
from framecheck_adapter import serve  # noqa: E402


def wrap(content, kind, attributes, provenance):
    return f"[TOOL RESULT: search]\n{content}\n[END TOOL RESULT]"


serve(wrap)
