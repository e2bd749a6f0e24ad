"""What each way of starting a case clean costs on a real store server
(issue 52, item 3): the reference memory MCP server of
``field/mcp-server-memory-open-nodes``, its profile run over the whole
catalogue once per ``clean`` strategy, one run after the other in one
invocation, so that the ratios compare like with like on a loaded machine.

Strategies (``docs/profile-v2.md``): ``tool`` (the audit's own:
``delete_entities`` after each read), ``workdir`` (a fresh work directory
and the server restarted in it, before each plant but the first),
``restart`` (the server restarted, its graph file kept) and ``none``. The
server keeps its graph in ``{workdir}/memory.jsonl``, and its
``create_entities`` ignores an entity it already holds, so ``restart`` and
``none`` do not clean it: their reads answer the first plant's content,
which the run refuses (the case is an error, never judged); the figures
say how many cases that was.

For each strategy: the run's wall-clock, the cases sent, the cases in
error, the failing cases and how many failing ids differ from ``tool``'s
(a strategy that cleans fails the same cases), and the median and mean of
the per-case ``elapsed_us`` the report records (a case's wrap request:
clean, plant, read, clean up).

    python3 field/clean_cost.py --bin target/debug/framecheck [--only GLOB ...]
"""

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
AUDIT = ROOT / "field" / "mcp-server-memory-open-nodes"
STRATEGIES = ("tool", "workdir", "restart", "none")
# The audit profile's own clean lines, replaced per strategy.
CLEAN_TOOL = (
    "    clean: tool\n"
    "    clean_tool: { tool: delete_entities, arguments: { entityNames: [framecheck] } }\n"
)


def profile_for(strategy, directory):
    """The memory audit's profile with `strategy` as its ``clean``, written
    in `directory`, its command made absolute (the profile's own is
    relative to the audit's directory). The text is edited, not parsed and
    dumped again: a YAML 1.1 dump would turn the `on:` key into `true:`."""
    text = (AUDIT / "profile.yaml").read_text(encoding="utf-8")
    clean = CLEAN_TOOL if strategy == "tool" else f"    clean: {strategy}\n"
    if CLEAN_TOOL not in text or "../.cache/" not in text:
        sys.exit(f"{AUDIT}/profile.yaml no longer has the clean lines this script replaces")
    text = text.replace(CLEAN_TOOL, clean).replace("../.cache/", f"{AUDIT.parent}/.cache/")
    text = text.replace("name: mcp-server-memory-open-nodes", f"name: memory-clean-{strategy}")
    path = Path(directory) / f"{strategy}.yaml"
    path.write_text(text, encoding="utf-8")
    return path


def measure(binary, strategy, only, directory):
    profile = profile_for(strategy, directory)
    out = Path(directory) / strategy
    argv = [binary, "run", "--target", str(profile), "--out", str(out), "--format", "json"]
    for pattern in only:
        argv += ["--only", pattern]
    start = time.monotonic()
    subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=7200)
    wall = time.monotonic() - start
    report = json.loads((out / f"memory-clean-{strategy}.json").read_text(encoding="utf-8"))
    results = report["results"]
    sent = [r for r in results if r["outcome"]["status"] not in ("skipped",)]
    errors = [r for r in sent if r["verdicts"].get("unicode") == "error"]
    elapsed = [r["elapsed_us"] for r in sent if r.get("elapsed_us")]
    failing = sorted(r["id"] for r in sent if r["verdicts"].get("unicode") in ("fail", "fidelity-fail"))
    return {
        "strategy": strategy,
        "wall_s": wall,
        "sent": len(sent),
        "errors": len(errors),
        "failing": failing,
        "median_ms": statistics.median(elapsed) / 1000 if elapsed else None,
        "mean_ms": statistics.fmean(elapsed) / 1000 if elapsed else None,
        "status": report["status"],
        "harness_error": report.get("harness_error"),
    }


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bin", default=str(ROOT / "target" / "debug" / "framecheck"))
    parser.add_argument("--only", action="append", default=[], help="passed to `framecheck run --only`")
    parser.add_argument("strategies", nargs="*", default=list(STRATEGIES))
    args = parser.parse_args()
    binary = str(Path(args.bin).resolve())
    rows = []
    with tempfile.TemporaryDirectory() as directory:
        for strategy in args.strategies:
            rows.append(measure(binary, strategy, args.only, directory))
            shown = {k: v for k, v in rows[-1].items() if k != "failing"}
            print(json.dumps({**shown, "failing": len(rows[-1]["failing"])}), flush=True)
    base = next((r for r in rows if r["strategy"] == "tool" and r["mean_ms"]), None)
    print("\n| clean | cases sent | in error (an earlier case's content read) | failing | failing ids not `tool`'s | wall-clock | per case, median | per case, mean | mean / `tool`'s |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    for r in rows:
        ratio = f"{r['mean_ms'] / base['mean_ms']:.1f}" if base and r["mean_ms"] else "-"
        median = f"{r['median_ms']:.1f} ms" if r["median_ms"] is not None else "-"
        mean = f"{r['mean_ms']:.1f} ms" if r["mean_ms"] is not None else "-"
        differ = len(set(r["failing"]) ^ set(base["failing"])) if base else "-"
        print(f"| `{r['strategy']}` | {r['sent']} | {r['errors']} | {len(r['failing'])} | {differ} | {r['wall_s']:.0f} s | {median} | {mean} | {ratio} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
