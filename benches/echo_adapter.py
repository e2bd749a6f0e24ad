"""A trivial framecheck subprocess target for benchmarks: it frames nothing.

wrap answers the content as the framed text and read answers the text as
the body, so a benchmark through it measures the protocol and process
overhead of the subprocess path and nothing else.
"""
import json
import sys


def main():
    for line in sys.stdin:
        request = json.loads(line)
        if request.get("op") == "wrap":
            reply = {"id": request["id"], "framed": request.get("content", "")}
        else:
            reply = {"id": request["id"], "body": request.get("text")}
        sys.stdout.write(json.dumps(reply) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
