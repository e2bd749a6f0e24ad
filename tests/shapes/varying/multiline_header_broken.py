"""Another header for multi-line content, broken: the multi-line branch leaves the closer live.

<tool_output>
Source: PROVENANCE

ONE LINE OF CONTENT, DEFANGED
</tool_output>

<tool_output>
Source: PROVENANCE
Note: several lines follow; only the closing tag ends them.

CONTENT OVER
SEVERAL LINES, DEFANGED
</tool_output>

The frame of multiline_header_correct.py, except that content with a line
break in it, the branch that writes the notice, is written as it is: a
closing tag on a line of its own in such content ends the frame (one-line
content is still defanged).
"""

import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "lib"))
sys.path.insert(0, os.path.join(HERE, "..", "..", "..", "adapters", "python"))
from fcshape import defang, one_line  # noqa: E402
from framecheck_adapter import serve  # noqa: E402

TOKEN = "tool_output"
SAFE = "tool-output"
NOTE = "Note: several lines follow; only the closing tag ends them."


def body(content):
    if "\n" in content:
        return content  # the defect: the multi-line branch writes the closer through
    return defang(content, TOKEN, SAFE)


def wrap(content, kind, attributes, provenance):
    source = one_line(defang(provenance, TOKEN, SAFE))
    notice = f"{NOTE}\n" if "\n" in content else ""
    return f"<{TOKEN}>\nSource: {source}\n{notice}\n{body(content)}\n</{TOKEN}>"


serve(wrap)
