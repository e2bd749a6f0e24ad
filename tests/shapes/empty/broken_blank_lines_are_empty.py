"""Empty content yields no output, broken: line breaks alone count as empty.

The emptiness test runs on the content with its line ends stripped
(`content.strip("\\r\\n")`, meant to ignore a tool's trailing newline), so
content made only of line breaks produces no output instead of a frame.
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
    if content.strip("\r\n") == "":  # the defect: "\n\n" is not empty content
        return ""
    problem = attribute_keys_problem(attributes, TOKEN)
    if problem:
        raise Refusal(problem)
    attrs = tag_attributes(kind, attributes, TOKEN, SAFE)
    return f"<{TOKEN}{attrs}>\n{defang(content, TOKEN, SAFE)}\n</{TOKEN}>"


serve(wrap)
