"""Empty content yields no output at all, correct.

"" frames to "". Any other content, whitespace only included, is framed:

<retrieved-text kind="…" key="…">
CONTENT
</retrieved-text>

Content, kind and attribute values are defanged at the Unicode level;
values escaped.
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
    if content == "":
        return ""
    problem = attribute_keys_problem(attributes, TOKEN)
    if problem:
        raise Refusal(problem)
    attrs = tag_attributes(kind, attributes, TOKEN, SAFE)
    return f"<{TOKEN}{attrs}>\n{defang(content, TOKEN, SAFE)}\n</{TOKEN}>"


serve(wrap)
