"""HTML-entity body, broken writer: attribute values escaped with quote=False.

The body is escaped correctly. Attribute values are kept on one line and
passed through the same `html.escape(value, quote=False)` as the body, so a
`"` in a value ends the attribute and the rest of the value writes new
attributes into the tag.
"""

import html
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "lib"))
sys.path.insert(0, os.path.join(HERE, "..", "..", "..", "adapters", "python"))
from fcshape import attribute_keys_problem, one_line  # noqa: E402
from framecheck_adapter import Refusal, serve  # noqa: E402

TOKEN = "document"


def value(text):
    return html.escape(one_line(text), quote=False)  # the defect: `"` stays raw


def wrap(content, kind, attributes, provenance):
    problem = attribute_keys_problem(attributes, TOKEN)
    if problem:
        raise Refusal(problem)
    attrs = f' kind="{value(kind)}"' + "".join(
        f' {k}="{value(attributes[k])}"' for k in sorted(attributes)
    )
    return f"<{TOKEN}{attrs}>\n{html.escape(content, quote=False)}\n</{TOKEN}>"


serve(wrap)
