"""An inline pair of ASCII marks, correct: `<|` … `|>`.

    Context: <|<content>|> Answer in one line.

Every span the unicode level reads as `|>` or `<|` (fullwidth forms,
lookalikes, an invisible character between the two) is broken with a
space, repeatedly, so no content reads as either mark.
"""

import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "lib"))
sys.path.insert(0, os.path.join(HERE, "..", "..", "..", "adapters", "python"))
from fcshape import defang  # noqa: E402
from framecheck_adapter import serve  # noqa: E402

OPEN = "<|"
CLOSE = "|>"


def wrap(content, kind, attributes, provenance):
    body = defang(defang(content, CLOSE, "| >"), OPEN, "< |")
    return f"Context: {OPEN}{body}{CLOSE} Answer in one line."


serve(wrap)
