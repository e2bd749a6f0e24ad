"""A subprocess target that breaks the protocol in one chosen way.

Usage: misbehave.py BEHAVIOUR. It answers wrap with "<<content>>" and read
with the text itself, except when the content or text is "trigger", where it
misbehaves as BEHAVIOUR says. Written against the raw protocol on purpose
(no helper), so every fault is explicit.
"""

import json
import os
import signal
import subprocess
import sys
import time

behaviour = sys.argv[1]
out = sys.stdout.buffer


def send(obj):
    out.write((json.dumps(obj) + "\n").encode())
    out.flush()


def hang():
    while True:
        time.sleep(60)


if behaviour == "no-read":
    # The first process never reads stdin; later ones (marker file present)
    # behave.
    marker = os.environ["MISBEHAVE_STATE"]
    if not os.path.exists(marker):
        open(marker, "w").close()
        hang()

for count, raw in enumerate(sys.stdin.buffer, start=1):
    request = json.loads(raw)
    rid = request["id"]
    argument = request.get("content", request.get("text"))
    trigger = argument == "trigger"
    if behaviour == "flood-stderr":
        sys.stderr.write("noise " * (4 * 1024 * 1024 // 6) + "\nend of noise\n")
        sys.stderr.flush()
    if trigger and behaviour == "crash":
        sys.stderr.write("fatal: simulated crash\n")
        sys.stderr.flush()
        sys.exit(3)
    if trigger and behaviour == "kill9":
        os.kill(os.getpid(), signal.SIGKILL)
    if trigger and behaviour == "hang":
        hang()
    if trigger and behaviour == "wrong-id":
        send({"id": rid + 1000, "framed": "late"})
        continue
    if trigger and behaviour == "not-json":
        out.write(b"this is not json\n")
        out.flush()
        continue
    if trigger and behaviour == "partial":
        out.write(b'{"id": ')
        out.flush()
        hang()
    if trigger and behaviour == "huge":
        send({"id": rid, "framed": "x" * (10 * 1024 * 1024)})
        continue
    if trigger and behaviour == "grandchild":
        # The grandchild inherits stdout and stderr and outlives this process,
        # so stdout never reaches end of file until its group is killed.
        sleeper = subprocess.Popen(["sleep", "600"])
        sys.stderr.write(f"grandchild {sleeper.pid}\n")
        sys.stderr.flush()
        os._exit(0)
    if request["op"] == "wrap":
        send({"id": rid, "framed": f"<<{argument}>>"})
    else:
        send({"id": rid, "body": argument})
    if behaviour == "exit-after-first" and count == 1:
        sys.exit(0)
