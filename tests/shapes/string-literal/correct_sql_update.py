"""A SQL statement, the content a standard SQL string literal, correct.

    UPDATE notes SET body = '<content, each ' doubled>' WHERE id = 1;

The only escape of a standard SQL literal is a doubled quote (`it''s`); a
backslash is an ordinary character. The framing doubles every `'`, so no
quote of the content ends the string. The reader reads the one
statement as standard SQL (sqlite3, PostgreSQL) reads its literal.
"""

import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "..", "adapters", "python"))
from framecheck_adapter import serve  # noqa: E402

STATEMENT = re.compile(r"UPDATE notes SET body = '((?:[^']|'')*)' WHERE id = 1;", re.DOTALL)


def wrap(content, kind, attributes, provenance):
    body = content.replace("'", "''")
    return "UPDATE notes SET body = '" + body + "' WHERE id = 1;"


def read(text):
    """The statement as standard SQL reads it: one UPDATE whose literal
    holds no lone quote (`''` is one quote, a backslash is text)."""
    match = STATEMENT.fullmatch(text)
    return match.group(1).replace("''", "'") if match else None


serve(wrap, read)
