"""A framing that takes raw bytes (the protocol's `bytes` extension) and gets them wrong.

It neutralises the exact closing tag in the raw bytes, then decodes them as
UTF-8 with invalid sequences dropped: `<\\xC0/fixture-data>` passes the
check and comes out as a live `</fixture-data>`. Given a string (no
`content_b64`), it frames it the same way.
"""

import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "adapters", "python"))
from framecheck_adapter import serve  # noqa: E402

CLOSE = b"</fixture-data>"


def wrap(content, kind, attributes, provenance):
    raw = content if isinstance(content, bytes) else content.encode("utf-8")
    raw = raw.replace(CLOSE, b"</fixture_data>")
    text = raw.decode("utf-8", errors="ignore")
    return '<fixture-data>\n%s\n</fixture-data>' % text


serve(wrap, raw_bytes=True)
