"""A count of the content before the frame and its digest after it, correct.

[42 characters follow]
<tool_output>
CONTENT, DEFANGED
</tool_output>
sha256: 64 HEX DIGITS OF THE CONTENT'S UTF-8

The text outside the frame changes with the content, but only as a number
and a fixed-length hex digest: the content chooses none of its characters,
so nothing in it reaches the reader outside the frame. Inside, every
reading of the tag at the Unicode level is defanged.
"""

import hashlib
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "lib"))
sys.path.insert(0, os.path.join(HERE, "..", "..", "..", "adapters", "python"))
from fcshape import defang  # noqa: E402
from framecheck_adapter import serve  # noqa: E402

TOKEN = "tool_output"
SAFE = "tool-output"


def wrap(content, kind, attributes, provenance):
    digest = hashlib.sha256(content.encode("utf-8", "surrogatepass")).hexdigest()
    return (f"[{len(content)} characters follow]\n<{TOKEN}>\n{defang(content, TOKEN, SAFE)}\n"
            f"</{TOKEN}>\nsha256: {digest}")


serve(wrap)
