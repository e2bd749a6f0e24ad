"""No newline between the markers and the body, correct.

<inline-data kind="…" key="…">CONTENT</inline-data>

Content, kind and attribute values are defanged at the Unicode level and
values escaped; nothing else is added, so the body is the content itself.
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
    return f"<{TOKEN}{attrs}>{defang(content, TOKEN, SAFE)}</{TOKEN}>"


serve(wrap)
