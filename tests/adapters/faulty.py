"""A correct framing (the escaping of escape_all.py) that fails in one chosen
way, for the tests of how a run treats a target's faults.

Usage: faulty.py BEHAVIOUR. Written against the raw protocol, without the
helper, so each fault is explicit:

- ok: never fails.
- crash-on-nul: exits with status 3, after a traceback on stderr, on any
  request with a NUL character in any field (as a C framing might).
- hang-on-nul: stops answering on such a request.
- slow-on-nul STATE_DIR: slow on such a request, as a framing on a loaded
  machine is: the first attempt at each request never answers (it sleeps far
  past any timeout), every later attempt answers after SLOW_SECONDS. Which
  attempt it is comes from a file per request in STATE_DIR, not from the
  clock, so a retry under the request timeout (a second or less in the
  tests) always times out and one under a budget well past SLOW_SECONDS
  always answers.
- hang-on-empty, slow-on-empty STATE_DIR: the same on a request whose
  content is empty (an experiment of `framecheck init`).
- banner: writes "adapter ready" to stdout before anything else (a stray
  print, the commonest beginner's mistake), then serves correctly.
- garbage: answers every request with a line that is not JSON.
- garbage-on-nul: answers a request with a NUL in any field with a line
  that is not JSON, and every other request correctly.
- import-error: dies at start with a traceback on stderr, as an adapter
  whose import fails.
"""

import hashlib
import json
import os
import sys
import time

TOKEN = "fixture-data"
ENTITIES = {"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;"}

behaviour = sys.argv[1]
state_dir = sys.argv[2] if len(sys.argv) > 2 else None
out = sys.stdout

# How long a slow request takes on every attempt after its first.
SLOW_SECONDS = 2


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


def is_empty(request):
    return request.get("op") == "wrap" and request.get("content") == ""


def triggered(request):
    """Whether this request is the one the behaviour fails on."""
    if behaviour.endswith("-on-empty"):
        return is_empty(request)
    return has_nul(request)


def first_attempt(line):
    """True the first time this request (without its id) is seen, recorded
    in a file named after its digest, so a fresh process knows it too."""
    request = json.loads(line)
    request.pop("id", None)
    digest = hashlib.sha256(json.dumps(request, sort_keys=True).encode()).hexdigest()
    path = os.path.join(state_dir, digest)
    if os.path.exists(path):
        return False
    with open(path, "w") as f:
        f.write(line)
    return True


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
    if triggered(request) and behaviour.startswith("hang-on-"):
        while True:
            time.sleep(60)
    if triggered(request) and behaviour.startswith("slow-on-"):
        if first_attempt(line):
            while True:
                time.sleep(60)
        time.sleep(SLOW_SECONDS)
    if request.get("op") == "wrap":
        reply = {"id": request["id"], "framed": wrap(request)}
    else:
        reply = {"id": request["id"], "error": "unsupported op"}
    out.write(json.dumps(reply) + "\n")
    out.flush()
