r"""A SQL statement, the content quoted MySQL-style, broken: read as standard SQL.

    UPDATE notes SET body = '<content, ' written \' and \ written \\>' WHERE id = 1;

The framing escapes the quote with a backslash, but the reader (standard
SQL, as sqlite3 or PostgreSQL reads it) reads no backslash escape: `\'` is a backslash, then the
string's end, and what follows is SQL's own text (content
`', body = 'x` rewrites the row). The output alone looks like a backslash
literal; the reader rejects it and reads the quote doubled, so the frame's
marks are read as standard SQL reads them (`escape: doubled`).
"""

import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "..", "adapters", "python"))
from framecheck_adapter import serve  # noqa: E402

STATEMENT = re.compile(r"UPDATE notes SET body = '((?:[^']|'')*)' WHERE id = 1;", re.DOTALL)


def wrap(content, kind, attributes, provenance):
    body = content.replace("\\", "\\\\").replace("'", "\\'")  # the defect
    return "UPDATE notes SET body = '" + body + "' WHERE id = 1;"


def read(text):
    """The statement as standard SQL reads it: one UPDATE whose literal
    holds no lone quote (`''` is one quote, a backslash is text)."""
    match = STATEMENT.fullmatch(text)
    return match.group(1).replace("''", "'") if match else None


serve(wrap, read)
