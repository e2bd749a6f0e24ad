r"""A Lua chunk with the content as a long string, broken: a fixed level.

    return [==[
    <content>]==]

A long string has no escape and ends at the first `]==]`; the framing
always writes level two, so content holding `]==]` ends the string and
what follows is Lua code.
"""

import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "..", "adapters", "python"))
from framecheck_adapter import serve  # noqa: E402


def wrap(content, kind, attributes, provenance):
    return "return [==[\n" + content + "]==]"  # the defect


serve(wrap)
