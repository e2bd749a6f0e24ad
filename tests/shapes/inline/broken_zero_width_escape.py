"""No newline between the markers and the body, broken: a zero-width escape.

Tags in content are "broken up" by splicing a zero-width space into the tag
name, found with an ASCII case-insensitive pattern. A byte matcher no longer
sees the tag, but a reader that drops invisible characters reads it again,
and fullwidth or lookalike spellings are never matched at all.
"""

import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "lib"))
sys.path.insert(0, os.path.join(HERE, "..", "..", "..", "adapters", "python"))
from fcshape import attribute_keys_problem, escape_attribute  # noqa: E402
from framecheck_adapter import Refusal, serve  # noqa: E402

TOKEN = "inline-data"
TAG_NAME = re.compile(r"(inline)(-data)", re.IGNORECASE | re.ASCII)


def hide(text):
    return TAG_NAME.sub("\\1\u200b\\2", text)  # the defect: invisible to bytes only


def wrap(content, kind, attributes, provenance):
    problem = attribute_keys_problem(attributes, TOKEN)
    if problem:
        raise Refusal(problem)
    attrs = f' kind="{escape_attribute(hide(kind))}"' + "".join(
        f' {k}="{escape_attribute(hide(attributes[k]))}"' for k in sorted(attributes)
    )
    return f"<{TOKEN}{attrs}>{hide(content)}</{TOKEN}>"


serve(wrap)
