r"""A Lua chunk with the content as a long string, correct.

    local text = [=[
    <content>
    ]=]
    return text

A long string has no escape and ends at the first closing long bracket of
its opener's level (`]`, as many `=` as the opener, `]`). The framing picks
the level per content: one more than the longest run of characters that
could read as `=`, where a character outside ASCII counts as many `=` as
its compatibility form holds (at least one), since a reader may fold it to
`=` (fullwidth `＝`, `⩵`) or read it as nothing. No closer of the chosen
level, however a reader folds the content, fits inside it.
"""

import os
import sys
import unicodedata

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "..", "adapters", "python"))
from framecheck_adapter import serve  # noqa: E402


def weight(c):
    if c == "=":
        return 1
    if c.isascii():
        return 0
    folded = unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", c).casefold())
    return max(1, len(folded))


def level(content):
    longest = run = 0
    for c in content:
        w = weight(c)
        run = run + w if w else 0
        longest = max(longest, run)
    return longest + 1


def wrap(content, kind, attributes, provenance):
    eq = "=" * level(content)
    return "local text = [" + eq + "[\n" + content + "\n]" + eq + "]\nreturn text"


serve(wrap)
