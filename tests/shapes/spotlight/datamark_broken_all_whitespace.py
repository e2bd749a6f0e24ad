"""Spotlighting by data-marking, broken: every whitespace run becomes one marker.

`re.sub(r"\\s+", MARK, content)`, as often written from the paper's
description: line breaks, tabs and runs of spaces all collapse into one ˆ,
so the body no longer decodes to the content (a table, code, a poem).
"""

import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "lib"))
sys.path.insert(0, os.path.join(HERE, "..", "..", "..", "adapters", "python"))
from fcshape import attribute_keys_problem, defang, tag_attributes  # noqa: E402
from framecheck_adapter import Refusal, serve  # noqa: E402

TOKEN = "marked-data"
SAFE = "marked_data"
MARK = "\u02c6"
WHITESPACE = re.compile(r"\s+")


def wrap(content, kind, attributes, provenance):
    problem = attribute_keys_problem(attributes, TOKEN)
    if problem:
        raise Refusal(problem)
    if MARK in content:
        raise Refusal("content holds the data-marking character U+02C6")
    body = WHITESPACE.sub(MARK, defang(content, TOKEN, SAFE))  # the defect
    return f"<{TOKEN}{tag_attributes(kind, attributes, TOKEN, SAFE)}>\n{body}\n</{TOKEN}>"


serve(wrap)
