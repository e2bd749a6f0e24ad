"""Line-prefix quoting between two headings, broken: the prefix follows LF only.

    ### Fetched article (external)

    > <first line of the content>
    > <every further line>

    ### End of fetched article

A line after a lone CR, U+2028 or another break a reader splits at (other
than LF) is written without the prefix: it leaves the quote, and a forged
`### End of fetched article` there ends the framing's section.
"""

import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "..", "adapters", "python"))
from framecheck_adapter import serve  # noqa: E402

PREFIX = "> "
BREAKS = re.compile("(\n)")  # the defect: LF is not the only line break


def quote(content):
    pieces = BREAKS.split(content)  # line, break, line, break, ..., line
    out = [PREFIX + pieces[0]]
    for at in range(1, len(pieces), 2):
        line = pieces[at + 1]
        out.append(pieces[at] + (PREFIX + line if line else PREFIX.rstrip()))
    return "".join(out)


def wrap(content, kind, attributes, provenance):
    return (
        "### Fetched article (external)\n\n"
        + quote(content)
        + "\n\n### End of fetched article"
    )


serve(wrap)
