// Audit a JavaScript framing function with framecheck, from a test, in-process.
//
// framecheck runs its attack catalogue against `wrap` (and `read`) and judges
// every framed output at three reader levels. `audit` starts
// `framecheck run --serve-stdio`, answers its protocol requests by calling
// your functions in this process (they may be async), and resolves to the
// parsed JSON report; with `check` (the default) a failing audit rejects
// with an `AuditFailure` whose message is framecheck's one-screen summary.
//
//   import { test } from "node:test";
//   import { assertFrames } from "framecheck";
//   test("my framing holds", () => assertFrames(wrap, { read }));
//
// With no `profile`, framecheck infers it from `wrap` (and `read`) through
// the same calibration experiments as `framecheck init`, runs with it, and
// shows it in the report (`report.inferredProfile`) and in the failure
// message, ready to save as a file and pass as `profile` to pin.
//
// `wrap(content, { kind, attributes, provenance })` returns the framed text
// (a `wrap` declaring three or more parameters gets them by position instead,
// `wrap(content, kind, attributes, provenance)`, as from Python);
// `read(text)` returns the body or null; a reader that parses frames into
// messages or fields (profile `reader: { returns: "segments" }`) returns an
// array of `{ role, field, text }` segments instead (`field` null when it has
// none). A `wrap` that answers a list of messages (profile `wrap: { returns:
// "parts" }`) returns an array of `{ role, text }` parts (`role` null when it
// has none). A framing that writes several frames
// per call (a list of sources) also passes `wrapMany`, a function of an array
// of `{ content, kind, attributes, provenance }` returning one framed text
// (or, for a profile declaring parts, an array of parts: one message per
// item, say), and declares `frame: { count: "several" }` in its profile. Throw `Refusal`
// to reject an input on purpose. Any other exception from `wrap`, and a call
// of `process.exit` during it, is a bug in the framing *on that input*, as a
// crash of a subprocess adapter is: framecheck retries the case once and,
// when it fails again, reports a `target.fault` finding with the stack (and
// the exit status), then goes on. A `wrap` that returns anything but a string
// is a protocol violation of that case, shown with the value. An exception
// from `read` rejects the text (null), its stack printed on stderr, as the
// subprocess helper does. A framing that kills the process by other means
// (a signal, a native crash) cannot be reported from inside it: audit such a
// framing through a subprocess adapter.
//
// The binary: the `framecheck` option, the FRAMECHECK environment variable,
// or `framecheck` on PATH.
//
// framecheck proves structure only. Framing marks provenance; it is not a
// security boundary against an adaptive attacker.

import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import readline from "node:readline";

/** The framing rejects this input on purpose; the message says why. */
export class Refusal extends Error {}

/** framecheck could not run the audit (no binary, a bad profile, a harness error). */
export class FramecheckError extends Error {}

/** The framing failed the audit; `report` holds the evidence. */
export class AuditFailure extends Error {
  constructor(report) {
    super(describe(report));
    this.name = "AuditFailure";
    this.report = report;
  }
}

/** A parsed framecheck JSON report (schema `framecheck-report/1`). */
export class Report {
  constructor(raw, text = "", inferredProfile = null) {
    this.raw = raw;
    this.text = text;
    /** The profile YAML framecheck inferred when none was given, else null. */
    this.inferredProfile = inferredProfile;
    this.status = raw.status;
    this.exitCode = raw.exit_code;
    this.level = raw.level;
    this.summary = raw.summary;
    this.highestLevelHeld = raw.summary.highest_level_held ?? null;
  }

  get passed() {
    return this.status === "pass";
  }

  /** `{ caseId: verdict }` at the report's decision level. */
  verdicts() {
    return Object.fromEntries(this.raw.results.map((r) => [r.id, r.verdicts[this.level]]));
  }

  /** The failing cases: `{ id, verdict, checks }`. */
  failures() {
    return this.raw.results
      .filter((r) => ["fail", "fidelity-fail", "error"].includes(r.verdicts[this.level]))
      .map((r) => ({
        id: r.id,
        verdict: r.verdicts[this.level],
        checks: [...new Set((r.outcome.findings ?? [])
          .filter((f) => f.class === "fidelity" || f.levels.includes(this.level))
          .map((f) => f.check))].sort(),
      }));
  }
}

function describe(report) {
  const lines = [report.text.trimEnd() || `framecheck: ${report.status} at level ${report.level}`];
  const failing = report.failures();
  if (failing.length > 0) {
    lines.push(`${failing.length} failing cases, first ones:`);
    for (const f of failing.slice(0, 10)) {
      lines.push(`  ${f.verdict.padEnd(13)} ${f.id}  ${f.checks.join(", ")}`);
    }
  }
  if (report.inferredProfile) {
    lines.push("\nNo profile was given; framecheck inferred this one (save it as a file " +
      "and pass profile: \"that.yaml\" to pin it):\n");
    lines.push(report.inferredProfile.trimEnd());
  }
  return lines.join("\n");
}

/** `audit` with `check: true`: rejects with `AuditFailure` unless the framing passes. */
export function assertFrames(wrap, options = {}) {
  return audit(wrap, { ...options, check: true });
}

/**
 * Runs framecheck against `wrap` (and `options.read`) in this process.
 *
 * Options: `profile` (a profile file path, or an object of profile fields
 * with at least `delimiters`; without it the profile is inferred from the
 * framing, `framecheck run --serve-stdio --infer`), `read`, `level` ("unicode"), `only` (case
 * ids, categories or globs), `check` (true), `framecheck` (the binary),
 * `out` (a directory to keep the JSON and HTML reports in), `wrapMany`
 * (answers `wrap-many` for a profile declaring `frame: { count: "several" }`).
 */
export async function audit(wrap, options = {}) {
  const { read = null, wrapMany = null, profile, level = "unicode", only = [], check = true, out = null } = options;
  const binary = findBinary(options.framecheck);
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "framecheck-"));
  try {
    const outDir = path.join(scratch, "reports");
    const args = ["run", "--serve-stdio", "--level", level, "--out", outDir, "--format", "json",
      ...targetArguments(profile, read !== null, scratch)];
    if (out) args.push("--format", "html");
    for (const pattern of only) args.push("--only", pattern);
    const { code, stderr } = await serve(binary, args, { wrap, read, wrapMany });
    const written = fs.existsSync(outDir) ? fs.readdirSync(outDir).sort() : [];
    const reports = written.filter((name) => name.endsWith(".json"));
    if ((code !== 0 && code !== 1) || reports.length !== 1) {
      throw new FramecheckError(`framecheck exited ${code}:\n${stderr.trim()}`);
    }
    const inferred = written.find((name) => name.endsWith(".profile.yaml"));
    const report = new Report(JSON.parse(fs.readFileSync(path.join(outDir, reports[0]), "utf8")), stderr,
      inferred ? fs.readFileSync(path.join(outDir, inferred), "utf8") : null);
    if (out) {
      fs.mkdirSync(out, { recursive: true });
      for (const name of written) fs.copyFileSync(path.join(outDir, name), path.join(out, name));
    }
    if (check && !report.passed) throw new AuditFailure(report);
    return report;
  } finally {
    fs.rmSync(scratch, { recursive: true, force: true });
  }
}

/** Starts framecheck and answers its requests until it exits. */
function serve(binary, args, framing) {
  return new Promise((resolve, reject) => {
    const child = spawn(binary, args, { stdio: ["pipe", "pipe", "pipe"] });
    let stderr = "";
    let failure = null;
    child.stderr.setEncoding("utf8");
    child.stderr.on("data", (chunk) => { stderr += chunk; });
    // framecheck gone mid-reply (EPIPE): its exit code and stderr say why.
    child.stdin.on("error", () => {});
    child.on("error", (e) => reject(new FramecheckError(`cannot start ${binary}: ${e.message}`)));
    child.on("close", (code) => (failure ? reject(failure) : resolve({ code, stderr })));
    // A request is answered before the next is read: framecheck sends one at a time.
    const lines = readline.createInterface({ input: child.stdout, crlfDelay: Infinity });
    (async () => {
      for await (const line of lines) {
        if (failure) break;
        try {
          const reply = await answer(JSON.parse(line), framing);
          child.stdin.write(JSON.stringify(reply) + "\n");
        } catch (error) {
          // A bug in this module (the framing's own errors are faults of
          // their inputs): stop serving; framecheck ends the run.
          failure = error;
          child.stdin.end();
        }
      }
      if (!failure) child.stdin.end();
    })();
  });
}

async function answer(request, { wrap, read, wrapMany }) {
  const { id, op } = request;
  if (op === "wrap-many" && wrapMany) {
    const items = request.items.map(({ content, kind = "", attributes = {}, provenance = "" }) =>
      ({ content, kind, attributes, provenance }));
    return framed(id, "wrapMany", () => wrapMany(items));
  }
  if (op === "wrap") {
    const { kind = "", attributes = {}, provenance = "" } = request;
    // A wrap declaring three or more parameters takes the fields by position,
    // as Python's helper passes them: given the object, it would read its
    // provenance as undefined and silently write none.
    const call = wrap.length >= 3
      ? () => wrap(request.content, kind, attributes, provenance)
      : () => wrap(request.content, { kind, attributes, provenance });
    return framed(id, "wrap", call);
  }
  if (op === "read" && read) return readReply(id, read, request.text);
  return { id, error: `unsupported op ${JSON.stringify(op)}` };
}

/** Thrown in place of exiting by `process.exit` while the framing runs. */
class ExitCalled extends Error {
  constructor(code) {
    super(`process.exit(${code ?? ""}) called by the framing`);
    this.code = code ?? 0;
  }
}

/**
 * The reply to a wrap: the framed text, a refusal, or the fault the framing
 * made on this input (it threw, called `process.exit`, or returned no string).
 */
async function framed(id, name, call) {
  const exit = process.exit;
  // A framing that exits on an input would end this process and the test
  // with it; a subprocess adapter doing so is a crash of that input.
  process.exit = (code) => { throw new ExitCalled(code); };
  let value;
  try {
    value = await call();
  } catch (error) {
    if (error instanceof Refusal) return { id, error: error.message || "refused" };
    if (error instanceof ExitCalled) {
      return fault(id, "crash", `${name} called process.exit(${error.code})`,
        { exit_status: `exit status: ${error.code}`, stderr: error.stack ?? "" });
    }
    const stack = error instanceof Error ? (error.stack ?? String(error)) : String(error);
    return fault(id, "crash", `${name} threw ${error?.name ?? typeof error}: ${error?.message ?? error}`,
      { stderr: stack });
  } finally {
    process.exit = exit;
  }
  if (Array.isArray(value)) {
    const parts = asParts(value);
    if (parts === null) {
      return fault(id, "protocol-violation",
        `${name} returned an array that is not of parts ({ role: string or null, text: string })`,
        { offending_line: shown(value) });
    }
    return { id, parts };
  }
  if (typeof value !== "string") {
    return fault(id, "protocol-violation", `${name} returned ${typeof value}, not a string`,
      { offending_line: shown(value) });
  }
  return { id, framed: value };
}

/** `items` as protocol parts, or null when one is malformed. */
function asParts(items) {
  const parts = [];
  for (const item of items) {
    if (item === null || typeof item !== "object") return null;
    const { role = null, text } = item;
    if ((role !== null && typeof role !== "string") || typeof text !== "string") return null;
    parts.push({ role, text });
  }
  return parts;
}

/** The reply to a read: a reader that throws rejects the text. */
async function readReply(id, read, text) {
  let body;
  try {
    body = (await read(text)) ?? null;
  } catch (error) {
    if (error instanceof Refusal) return { id, error: error.message || "refused" };
    // Readers in the field throw on a malformed frame.
    process.stderr.write(`${error?.stack ?? error}\n`);
    return { id, body: null };
  }
  if (Array.isArray(body)) {
    const segments = asSegments(body);
    if (segments === null) {
      return fault(id, "protocol-violation",
        "read returned an array that is not of segments ({ role: string, field: string or null, text: string })",
        { offending_line: shown(body) });
    }
    return { id, segments };
  }
  if (body !== null && typeof body !== "string") {
    return fault(id, "protocol-violation", `read returned ${typeof body}, not a string, null or an array of segments`,
      { offending_line: shown(body) });
  }
  return { id, body };
}

/** `items` as protocol segments, or null when one is malformed. */
function asSegments(items) {
  const segments = [];
  for (const item of items) {
    if (item === null || typeof item !== "object") return null;
    const { role, field = null, text } = item;
    if (typeof role !== "string" || typeof text !== "string") return null;
    if (field !== null && typeof field !== "string") return null;
    segments.push({ role, field, text });
  }
  return segments;
}

/** A value as the user would write it, cut: `undefined`, `42`, `{"a":1}`. */
function shown(value) {
  let text;
  try {
    text = JSON.stringify(value) ?? String(value);
  } catch {
    text = String(value);
  }
  return text.slice(0, 400);
}

/** A `fault` reply (docs/protocol.md, "The calling process as the target"). */
function fault(id, kind, reason, facts) {
  return { id, fault: { kind, reason, ...facts } };
}

/**
 * The arguments naming the profile: `--target` and a file, or, with no
 * profile, `--infer` (framecheck infers it from the framing).
 */
function targetArguments(profile, hasRead, scratch) {
  if (profile === undefined || profile === null) {
    return ["--infer", "node-audit", "--language", "javascript"];
  }
  return ["--target", profileFile(profile, hasRead, scratch)];
}

/** A profile path for `--target`: the given one, or an object written as JSON (which is YAML). */
function profileFile(profile, hasRead, scratch) {
  if (typeof profile === "string") return profile;
  const capabilities = ["wrap", "attributes", "provenance", "kind", ...(hasRead ? ["read"] : [])];
  const merged = { name: "node-audit", language: "javascript", adapter: { builtin: "caller" },
    capabilities, ...profile };
  const file = path.join(scratch, "profile.yaml");
  fs.writeFileSync(file, JSON.stringify(merged));
  return file;
}

/** The binary's file name: `framecheck.exe` on Windows, whose PATH search needs the extension. */
export function binaryName(platform = process.platform) {
  return platform === "win32" ? "framecheck.exe" : "framecheck";
}

function findBinary(explicit) {
  const onPath = (process.env.PATH ?? "").split(path.delimiter).map((d) => path.join(d, binaryName()));
  for (const candidate of [explicit, process.env.FRAMECHECK, ...onPath]) {
    if (!candidate) continue;
    try {
      fs.accessSync(candidate, fs.constants.X_OK);
      if (fs.statSync(candidate).isFile()) return candidate;
    } catch {
      // not this one
    }
  }
  throw new FramecheckError("no framecheck binary: cargo install --path <checkout>, " +
    "the prompt-framecheck wheel, or set FRAMECHECK=/path/to/framecheck");
}
