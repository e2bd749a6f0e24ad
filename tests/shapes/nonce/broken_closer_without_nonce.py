"""Nonce in the tag name, broken: the closer has no nonce.

The opener carries a fresh uuid, but the closer is a plain
</untrusted-data>. Nothing in the closing tag is secret, so the nonce buys
nothing against content that writes that closer itself.
"""

import os
import secrets
import sys
import uuid

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "lib"))
sys.path.insert(0, os.path.join(HERE, "..", "..", "..", "adapters", "python"))
from fcshape import attribute_keys_problem, defang, tag_attributes  # noqa: E402
from framecheck_adapter import Refusal, serve  # noqa: E402

STEM = "untrusted-data"
SAFE = "untrusted_data"


def wrap(content, kind, attributes, provenance):
    problem = attribute_keys_problem(attributes, STEM)
    if problem:
        raise Refusal(problem)
    tag = f"{STEM}-{uuid.UUID(bytes=secrets.token_bytes(16), version=4)}"
    attrs = tag_attributes(kind, attributes, STEM, SAFE)
    return f"<{tag}{attrs}>\n{defang(content, STEM, SAFE)}\n</{STEM}>"  # the defect


serve(wrap)
