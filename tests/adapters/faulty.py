"""A correct framing (the escaping of escape_all.py) that fails in one chosen
way, for the tests of how a run treats a target's faults.

Usage: faulty.py BEHAVIOUR. Written against the raw protocol, without the
helper, so each fault is explicit:

- ok: never fails.
- crash-on-nul: exits with status 3, after a traceback on stderr, on any
  request with a NUL character in any field (as a C framing might).
- hang-on-nul: stops answering on such a request.
- banner: writes "adapter ready" to stdout before anything else (a stray
  print, the commonest beginner's mistake), then serves correctly.
- garbage: answers every request with a line that is not JSON.
- garbage-on-nul: answers a request with a NUL in any field with a line
  that is not JSON, and every other request correctly.
- import-error: dies at start with a traceback on stderr, as an adapter
  whose import fails.
"""

import json
import sys
import time

TOKEN = "fixture-data"
ENTITIES = {"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;"}

behaviour = sys.argv[1]
out = sys.stdout


def escape(text, keep=""):
    escaped = []
    for c in text:
        if c in ENTITIES:
            escaped.append(ENTITIES[c])
        elif c in keep or " " <= c <= "~":
            escaped.append(c)
        else:
            escaped.append("&#x%X;" % ord(c))
    return "".join(escaped)


def wrap(request):
    attrs = [("kind", request.get("kind", ""))]
    attrs += sorted((request.get("attributes") or {}).items())
    tag = " ".join('%s="%s"' % (escape(k), escape(v)) for k, v in attrs)
    body = escape(request.get("content", ""), keep="\n\t")
    return "<%s %s>\n%s\n</%s>" % (TOKEN, tag, body, TOKEN)


def has_nul(request):
    fields = [request.get("content"), request.get("text"), request.get("kind"),
              request.get("provenance")]
    for key, value in (request.get("attributes") or {}).items():
        fields += [key, value]
    return any(isinstance(f, str) and "\0" in f for f in fields)


if behaviour == "import-error":
    sys.stderr.write("Traceback (most recent call last):\n"
                     "ModuleNotFoundError: No module named 'my_framing'\n")
    sys.exit(1)
if behaviour == "banner":
    print("adapter ready")
    sys.stdout.flush()

for line in sys.stdin:
    request = json.loads(line)
    if behaviour == "garbage":
        out.write("hello from the adapter, not json\n")
        out.flush()
        continue
    if has_nul(request) and behaviour == "crash-on-nul":
        sys.stderr.write("Traceback (most recent call last):\n"
                         "ValueError: embedded null byte\n")
        sys.exit(3)
    if has_nul(request) and behaviour == "garbage-on-nul":
        out.write("<fixture-data>no JSON here\n")
        out.flush()
        continue
    if has_nul(request) and behaviour == "hang-on-nul":
        while True:
            time.sleep(60)
    if request.get("op") == "wrap":
        reply = {"id": request["id"], "framed": wrap(request)}
    else:
        reply = {"id": request["id"], "error": "unsupported op"}
    out.write(json.dumps(reply) + "\n")
    out.flush()
