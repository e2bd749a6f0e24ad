"""Empty content yields no output, broken: whitespace-only counts as empty.

`if not content.strip(): return ""` drops content made of spaces, tabs or
line breaks along with the frame: the model never learns that the source
returned anything, and an empty output now stands for two different inputs.
"""

import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "lib"))
sys.path.insert(0, os.path.join(HERE, "..", "..", "..", "adapters", "python"))
from fcshape import attribute_keys_problem, defang, tag_attributes  # noqa: E402
from framecheck_adapter import Refusal, serve  # noqa: E402

TOKEN = "retrieved-text"
SAFE = "retrieved_text"


def wrap(content, kind, attributes, provenance):
    if not content.strip():  # the defect: non-empty content produces nothing
        return ""
    problem = attribute_keys_problem(attributes, TOKEN)
    if problem:
        raise Refusal(problem)
    attrs = tag_attributes(kind, attributes, TOKEN, SAFE)
    return f"<{TOKEN}{attrs}>\n{defang(content, TOKEN, SAFE)}\n</{TOKEN}>"


serve(wrap)
