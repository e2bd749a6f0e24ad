"""Spotlighting by data-marking, broken: trusts the marker alone.

Spaces become ˆ, and that is all. A closing tag holds no space, so
`</marked-data>` in the content reaches the model intact and ends the frame.
"""

import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "lib"))
sys.path.insert(0, os.path.join(HERE, "..", "..", "..", "adapters", "python"))
from fcshape import attribute_keys_problem, tag_attributes  # noqa: E402
from framecheck_adapter import Refusal, serve  # noqa: E402

TOKEN = "marked-data"
SAFE = "marked_data"
MARK = "\u02c6"


def wrap(content, kind, attributes, provenance):
    problem = attribute_keys_problem(attributes, TOKEN)
    if problem:
        raise Refusal(problem)
    if MARK in content:
        raise Refusal("content holds the data-marking character U+02C6")
    body = content.replace(" ", MARK)  # the defect: no delimiter is neutralised
    return f"<{TOKEN}{tag_attributes(kind, attributes, TOKEN, SAFE)}>\n{body}\n</{TOKEN}>"


serve(wrap)
