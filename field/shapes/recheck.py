"""Re-run three failing cases of an audit through its adapter (the
published package) and compare the output with the report's evidence."""
import json, subprocess, sys
report, cwd, *command = sys.argv[1:]
r = json.load(open(report))
failing = [x for x in r["results"] if x["verdicts"].get("unicode") in ("fail", "fidelity-fail")]
picked = [failing[0], failing[len(failing) // 2], failing[-1]]
p = subprocess.Popen(command, cwd=cwd, stdin=subprocess.PIPE, stdout=subprocess.PIPE)
for n, x in enumerate(picked, 1):
    w = x["case"]["input"]["wrap"]
    req = {"id": n, "op": "wrap", "content": w["content"], "kind": w.get("kind"),
           "attributes": w.get("attributes") or {}, "provenance": w.get("provenance")}
    p.stdin.write((json.dumps(req) + "\n").encode()); p.stdin.flush()
    reply = json.loads(p.stdout.readline())
    same = reply.get("framed") == x["evidence"]["framed"]
    print(f"{x['id']}\t{'identical' if same else 'DIFFERENT'}")
p.stdin.close(); p.wait()
