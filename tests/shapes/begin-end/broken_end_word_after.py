"""Begin/end markers with the end word after the name, broken: content as it is.

    <!-- tool output start -->
    <content>
    <!-- tool output end -->

HTML-comment markers whose begin and end words follow the name. Nothing in
the content is neutralised, so a line `<!-- tool output end -->` closes the
frame for every reader.
"""

import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "..", "adapters", "python"))
from framecheck_adapter import serve  # noqa: E402


def wrap(content, kind, attributes, provenance):
    return f"<!-- tool output start -->\n{content}\n<!-- tool output end -->"


serve(wrap)
