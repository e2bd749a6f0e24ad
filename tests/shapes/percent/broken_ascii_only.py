"""Percent-encoded body, broken: a hand-written escaper that knows ASCII only.

<untrusted encoding="percent">
Hello%2C world %3Cb%3Ehi%3C%2Fb%3E%0Anext line ＜／untrusted＞
</untrusted>

Every ASCII character but letters, digits, `-._~` and the space is written
as `%XX`, as `quote` would; characters past ASCII are left as they are, to
keep non-English text readable. The content's `</untrusted>` spelled with
fullwidth brackets and solidus stays raw: a reader that folds Unicode
compatibility forms (the unicode level) reads the frame's closer there.
"""

import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "..", "adapters", "python"))
from framecheck_adapter import serve  # noqa: E402

KEPT = set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~ ")


def escape(content):
    out = []
    for c in content:
        if c in KEPT or ord(c) > 0x7F:  # the defect
            out.append(c)
        else:
            out.append(f"%{ord(c):02X}")
    return "".join(out)


def wrap(content, kind, attributes, provenance):
    return f'<untrusted encoding="percent">\n{escape(content)}\n</untrusted>'


serve(wrap)
