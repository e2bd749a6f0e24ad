"""Line-prefix quoting between two headings, correct.

    ### Fetched article (external)

    > <first line of the content>
    > <every further line>

    ### End of fetched article

The opening heading's text has punctuation in it (`(external)`): a
Markdown heading is named by its whole text. A blank line sets the quote
apart from each heading. Every line of the content is written after `> `,
after every line break any reader level splits at (LF, CRLF, a lone CR,
VT, FF, NEL, U+2028, U+2029, and FS, GS and RS, which `str.splitlines()`
splits at too), the breaks kept as written; an empty line after the first
is `>` alone. A content line `### End of fetched article` is quoted like
any other, so it is no heading.
"""

import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "..", "adapters", "python"))
from framecheck_adapter import serve  # noqa: E402

PREFIX = "> "
BREAKS = re.compile("(\r\n|[\n\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029])")


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
