#!/usr/bin/env python3
"""How often `framecheck init`, given only an adapter's command, proposes a
profile whose run agrees with the hand-written one (issue 31).

For every profile given (default: the shape fixtures of tests/shapes), the
adapter command is taken from the hand profile, `framecheck init --out` is
run with it alone in the profile's `cwd`, and both profiles are run over
the whole catalogue. One fact of the hand profile goes to `init` besides
the command, because it is the deployment's and no output shows it (see
docs/profile-v2.md, "Who reads the output"): who reads the output, the
consumers a hand profile's `reader:` names (`--consumer`), and, for a
parser consumer the adapter does not answer `read` for, its line rule
(`--parser-lines`; a reader the adapter ships shows its own, which `init`
observes). Nothing else of the hand profile reaches `init`; with
--adapter-only not even that, to measure `init`'s own default (a model
reads the output, and a parser where the framing's reader shows one). Agreement: the same verdict, the same level held, and
failing case ids within 2% of the hand profile's. Prints a Markdown table
and exits 1 when fewer than --min-agree of the profiles agree.

Usage: compare.py [--bin PATH] [--min-agree 0.9] [--adapter-only] [PROFILE ...]
"""
import argparse
import glob
import json
import os
import re
import subprocess
import sys
import tempfile

import yaml

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))


def run(bin_, profile, out):
    subprocess.run([bin_, "run", "--target", profile, "--out", out, "--format", "json"],
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=900)
    name = yaml.safe_load(open(profile))["name"]
    path = os.path.join(out, f"{name}.json")
    if not os.path.exists(path):
        return None
    report = json.load(open(path))
    failing = {r["id"] for r in report["results"]
               if r["verdicts"].get("unicode") in ("fail", "fidelity-fail")}
    return {"status": report["status"], "level": report["summary"].get("highest_level_held"),
            "failing": failing, "error": report.get("harness_error")}


def mcp_options(mcp):
    """`init --mcp` options naming the tool and where its content is planted:
    what a user auditing an MCP server must say, since no output shows it."""
    if not mcp:
        return []
    options = ["--mcp", "--tool", mcp["tool"], "--plant", mcp["plant"]]
    # The endpoint of a Streamable HTTP server is part of how to reach it,
    # as the command is: a user says it, no output shows it.
    for key in ("url", "plant_name", "plant_body", "content_type"):
        if mcp.get(key) is not None:
            options += ["--" + key.replace("_", "-"), mcp[key]]
    for key, value in (mcp.get("arguments") or {}).items():
        if isinstance(value, str):
            options += ["--arg", f"{key}={value}"]
        else:
            options += ["--arg-json", f"{key}={json.dumps(value)}"]
    return options


def audience_options(hand):
    """`init` options saying who reads the output, from the hand profile's
    `reader:`: the deployment's fact, which no experiment shows. Only what
    the hand profile declares is passed; the line rule only for a parser
    the adapter ships no reader for."""
    reader = hand.get("reader") or {}
    named = reader.get("consumers") or ([reader["consumer"]] if "consumer" in reader else [])
    options = [word for consumer in named for word in ("--consumer", consumer)]
    reads = "read" in (hand.get("capabilities") or [])
    if "parser" in named and not reads and "lines" in reader:
        options += ["--parser-lines", reader["lines"]]
    return options


def compare(bin_, profile, work, adapter_only=False):
    hand = yaml.safe_load(open(profile))
    adapter = hand["adapter"]
    proposed = os.path.join(work, os.path.basename(profile))
    mcp = adapter.get("mcp")
    source = mcp if mcp else adapter
    cwd = os.path.normpath(os.path.join(os.path.dirname(profile), source.get("cwd") or "."))
    init = subprocess.run([bin_, "init", "--out", proposed, *mcp_options(mcp),
                           *([] if adapter_only else audience_options(hand)),
                           "--", *source["command"]],
                          cwd=cwd, capture_output=True, text=True, timeout=300)
    if init.returncode != 0:
        return {"agree": False, "why": "init: " + init.stderr.strip().splitlines()[-1][:160]}
    # The proposal is named after the hand profile so both reports compare.
    text = re.sub(r"^name: .*$", f"name: {hand['name']}-init", open(proposed).read(),
                  count=1, flags=re.M)
    open(proposed, "w").write(text)
    a = run(bin_, profile, os.path.join(work, "hand"))
    b = run(bin_, proposed, os.path.join(work, "init"))
    if a is None or b is None:
        return {"agree": False, "why": "a run wrote no report"}
    diff = len(a["failing"] ^ b["failing"])
    within = diff <= max(0.02 * max(len(a["failing"]), 1), 0)
    agree = a["status"] == b["status"] and a["level"] == b["level"] and within
    why = f"hand {a['status']}/{a['level']}/{len(a['failing'])} failing, " \
          f"init {b['status']}/{b['level']}/{len(b['failing'])} failing, {diff} differ"
    if b["error"]:
        why += f"; init's run: {b['error'][:120]}"
    return {"agree": agree, "why": why}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--bin", default=os.path.join(ROOT, "target", "debug", "framecheck"))
    parser.add_argument("--min-agree", type=float, default=0.9)
    parser.add_argument("--adapter-only", action="store_true",
                        help="pass init no consumer of the hand profile either")
    parser.add_argument("profiles", nargs="*")
    args = parser.parse_args()
    # init runs in each adapter's directory: the binary is named absolutely.
    args.bin = os.path.abspath(args.bin)
    profiles = args.profiles or sorted(glob.glob(os.path.join(ROOT, "tests/shapes/*/*.yaml")))
    rows = []
    with tempfile.TemporaryDirectory() as work:
        for i, profile in enumerate(profiles):
            sub = os.path.join(work, str(i))
            os.makedirs(sub)
            result = compare(args.bin, os.path.abspath(profile), sub, args.adapter_only)
            rows.append((os.path.relpath(profile, ROOT), result))
            print(f"| `{rows[-1][0]}` | {'yes' if result['agree'] else '**no**'} | {result['why']} |",
                  flush=True)
    agreed = sum(r["agree"] for _, r in rows)
    print(f"\n{agreed} of {len(rows)} agree ({100 * agreed / max(len(rows), 1):.0f}%)")
    return 0 if agreed >= args.min_agree * len(rows) else 1


if __name__ == "__main__":
    sys.exit(main())
