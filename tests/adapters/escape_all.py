"""A correct framing written for the tests, unlike the reference in every detail.

Everything the caller supplies is escaped so that no bracket and no non-ASCII
character reaches the framed text: `& < > "` become entities, and every
character outside printable ASCII (line feed and tab in the content aside)
becomes a numeric character reference. With no `<` and no lookalike left,
no delimiter can be live at any reader level. Attribute keys must be
identifiers and must not collide, in any case, with the framing's own `kind`
attribute or with each other; anything else is refused. Used to check that `framecheck search`
reports nothing against a correct framing it was never tuned to.
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
    out = []
    for c in text:
        if c in ENTITIES:
            out.append(ENTITIES[c])
        elif c in keep or " " <= c <= "~":
            out.append(c)
        else:
            out.append("&#x%X;" % ord(c))
    return "".join(out)


def wrap(content, kind, attributes, provenance):
    attrs = [("kind", kind)]
    for key in sorted(attributes):
        taken = [name.casefold() for name, _ in attrs]
        if not KEY.match(key) or key.casefold() in taken:
            raise Refusal("attribute key %r is not an identifier of its own" % key)
        attrs.append((key, attributes[key]))
    tag = " ".join('%s="%s"' % (k, escape(v)) for k, v in attrs)
    return "<%s %s>\n%s\n</%s>" % (TOKEN, tag, escape(content, keep="\n\t"), TOKEN)


serve(wrap)
