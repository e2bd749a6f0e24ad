"""Two rule lines that name nothing, correct: `<<<` before, `>>>` after.

    Content:
    <<<
    <content>
    >>>

Each rule is live only alone on its line, so only such lines are
neutralised: every content line that reads as a run of three or more `<`
or `>` at the unicode level (folded, after any line break a reader takes,
blank around it) gets a backslash before it. `Vec<Option<String>>>` in
a line of code comes through as written.
"""

import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "lib"))
sys.path.insert(0, os.path.join(HERE, "..", "..", "..", "adapters", "python"))
from fcshape import defang_marker_lines  # noqa: E402
from framecheck_adapter import serve  # noqa: E402

RULE_LINE = re.compile(r"\s*(<{3,}|>{3,})\s*$")


def wrap(content, kind, attributes, provenance):
    body = defang_marker_lines(content, RULE_LINE)
    return f"Content:\n<<<\n{body}\n>>>"


serve(wrap)

