"""Another header for multi-line content, correct: a notice only above several lines.

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

The framing adds a header line for content with a line break in it (a
published pattern: a warning only where the content could pass for more
than one message). Both branches write the provenance on one line and
defang every reading of the tag, in the provenance and in the content, at
the Unicode level.
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
    return defang(content, TOKEN, SAFE)


def wrap(content, kind, attributes, provenance):
    source = one_line(defang(provenance, TOKEN, SAFE))
    notice = f"{NOTE}\n" if "\n" in content else ""
    return f"<{TOKEN}>\nSource: {source}\n{notice}\n{body(content)}\n</{TOKEN}>"


serve(wrap)
