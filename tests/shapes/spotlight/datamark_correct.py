"""Spotlighting by data-marking, correct.

<marked-data kind="…" key="…">
Everyˆwordˆofˆtheˆcontentˆjoinedˆbyˆtheˆmarker
</marked-data>

Each space of the content becomes U+02C6 (ˆ), so the model sees the marker
all through the data. Data-marking alone does not stop a closing tag (tags
hold no spaces), so every reading of the token is defanged first. Content
already holding the marker is refused: it could not be told apart from a
space when the body is decoded.
"""

import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "lib"))
sys.path.insert(0, os.path.join(HERE, "..", "..", "..", "adapters", "python"))
from fcshape import attribute_keys_problem, defang, tag_attributes  # noqa: E402
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
    body = defang(content, TOKEN, SAFE).replace(" ", MARK)
    return f"<{TOKEN}{tag_attributes(kind, attributes, TOKEN, SAFE)}>\n{body}\n</{TOKEN}>"


serve(wrap)
