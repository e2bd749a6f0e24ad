r"""A Lua long string, broken: the level counts ASCII equals signs only.

    body = [=[
    <content>
    ]=]

The level is one more than the longest run of `=` as written, which keeps
every ASCII closer inside; a fullwidth `＝` or `］`, or a lookalike of the
bracket, is not counted, so a reader that folds them (the `unicode` level)
reads a closer of the string's level in the content.
"""

import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "..", "adapters", "python"))
from framecheck_adapter import serve  # noqa: E402


def wrap(content, kind, attributes, provenance):
    runs = [len(r) for r in re.findall("=+", content)]  # the defect
    eq = "=" * (max(runs, default=0) + 1)
    return "body = [" + eq + "[\n" + content + "\n]" + eq + "]"


serve(wrap)
