"""No newline between the markers and the body, broken: the body is trimmed.

The author strips the content so the tags sit snugly around it
(`content.strip()`): leading and trailing whitespace and line ends of
ordinary content are lost.
"""

import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "lib"))
sys.path.insert(0, os.path.join(HERE, "..", "..", "..", "adapters", "python"))
from fcshape import attribute_keys_problem, defang, tag_attributes  # noqa: E402
from framecheck_adapter import Refusal, serve  # noqa: E402

TOKEN = "inline-data"
SAFE = "inline_data"


def wrap(content, kind, attributes, provenance):
    problem = attribute_keys_problem(attributes, TOKEN)
    if problem:
        raise Refusal(problem)
    attrs = tag_attributes(kind, attributes, TOKEN, SAFE)
    body = defang(content, TOKEN, SAFE).strip()  # the defect
    return f"<{TOKEN}{attrs}>{body}</{TOKEN}>"


serve(wrap)
