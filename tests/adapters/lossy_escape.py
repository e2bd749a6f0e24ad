"""A structurally sound framing that loses text: its failures are fidelity alone.

It escapes as escape_all.py does (`& < > "` as entities, every character
outside printable ASCII but line feed and tab as a numeric reference, so no
delimiter is live at any reader level), but strips the whitespace around the
content first, as many framings do. A case whose content starts or ends
with whitespace does not come back whole: a fidelity failure, a known one a
project accepts into its baseline. Used by the baseline-gate tests.
"""

import os
import re
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "adapters", "python"))
from framecheck_adapter import Refusal, serve  # noqa: E402

TOKEN = "fixture-data"
KEY = re.compile(r"[A-Za-z_][A-Za-z0-9_.-]*\Z")
ENTITIES = {"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;"}


def escape(text, keep=""):
    return "".join(
        ENTITIES[c] if c in ENTITIES else c if c in keep or " " <= c <= "~" else "&#x%X;" % ord(c)
        for c in text
    )


def wrap(content, kind, attributes, provenance):
    attrs = [("kind", kind)]
    for key in sorted(attributes):
        if not KEY.match(key) or key.casefold() in [name.casefold() for name, _ in attrs]:
            raise Refusal("attribute key %r is not an identifier of its own" % key)
        attrs.append((key, attributes[key]))
    tag = " ".join('%s="%s"' % (k, escape(v)) for k, v in attrs)
    body = escape(content.strip(), keep="\n\t")  # the loss: surrounding whitespace
    return "<%s %s>\n%s\n</%s>" % (TOKEN, tag, body, TOKEN)


serve(wrap)
