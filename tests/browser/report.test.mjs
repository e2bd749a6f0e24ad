// The HTML report and the matrix in a real browser: headless Chromium from
// the distribution's packages, driven by playwright-core (no browser
// download). Builds the pages with the framecheck binary from the committed
// JSON reports, checks that the filters show exactly the cases the JSON
// says they should, that the page makes no request, that a hostile report
// runs no script, and saves screenshots to docs/.
//
// Run: (cd tests/browser && npm ci && node --test), after `cargo build`.
// Where Chromium or the binary is missing the tests say so and skip; under
// CI=true they fail instead.

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const chromiumPath = process.env.CHROMIUM ?? "/usr/bin/chromium";
const screenshots = process.env.SCREENSHOT_DIR ?? path.join(root, "docs");
const binary = [
  process.env.FRAMECHECK_BIN,
  path.join(root, "target/release/framecheck"),
  path.join(root, "target/debug/framecheck"),
].find((p) => p && fs.existsSync(p));

function missing() {
  if (!fs.existsSync(chromiumPath)) {
    return `Chromium not found at ${chromiumPath} (apt-get install chromium, or set CHROMIUM)`;
  }
  if (!binary) return "no framecheck binary (cargo build, or set FRAMECHECK_BIN)";
  return null;
}

const why = missing();
if (why) {
  if (process.env.CI === "true") throw new Error(`browser tests cannot run: ${why}`);
  console.log(`\n*** SKIPPED browser tests: ${why} ***\n`);
}

let browser;
let dir;
const runReports = ["reference", "seed-ts-envelope", "seed-a2a-markers", "seed-go-context"];

before(async () => {
  if (why) return;
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "framecheck-browser-"));
  for (const stem of runReports) {
    fs.copyFileSync(path.join(root, "reports", `${stem}.json`), path.join(dir, `${stem}.json`));
  }
  const jsons = runReports.map((stem) => path.join(dir, `${stem}.json`));
  execFileSync(binary, ["matrix", "--html", "--out", dir, ...jsons], { stdio: "pipe" });
  const { chromium } = await import("playwright-core");
  browser = await chromium.launch({
    executablePath: chromiumPath,
    args: [
      "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
      "--disable-background-networking", "--disable-component-update", "--disable-sync",
    ],
  });
});

after(async () => {
  await browser?.close();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

/** Opens a page and records every request that is not the page itself. */
async function open(file) {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  const requests = [];
  const url = pathToFileURL(file).href;
  page.on("request", (r) => { if (r.url().split("#")[0] !== url) requests.push(r.url()); });
  const errors = [];
  page.on("pageerror", (e) => errors.push(String(e)));
  page.on("console", (m) => { if (m.type() === "error") errors.push(m.text()); });
  await page.goto(url);
  return { page, requests, errors };
}

const visible = (page) =>
  page.locator("details.case").evaluateAll((all) => all.filter((d) => !d.hidden).length);
const shownCount = async (page) => Number(await page.locator("#shown").textContent());

/** What the JSON report itself says, computed here and not by the page. */
function expected(stem) {
  const report = JSON.parse(fs.readFileSync(path.join(dir, `${stem}.json`), "utf8"));
  const level = report.level;
  const reported = (r) =>
    r.outcome.status === "judged"
      ? r.outcome.findings.filter((f) => f.class === "fidelity" || f.levels.includes(level))
      : [];
  return { report, level, reported };
}

test("report filters show exactly the cases the JSON report names", { skip: why ?? false }, async () => {
  const stem = "seed-ts-envelope";
  const { report, level, reported } = expected(stem);
  const { page, requests, errors } = await open(path.join(dir, `${stem}.html`));
  const total = report.results.length;
  assert.equal(await visible(page), total);
  assert.equal(await shownCount(page), total);

  // The page leads with each weakness in plain words: a severity badge, a
  // title that is not the machine id, and the text that shows it.
  const lead = page.locator("#lead li");
  assert.equal(await lead.count(), report.weaknesses.length);
  for (let i = 0; i < report.weaknesses.length; i++) {
    const item = lead.nth(i);
    const w = report.weaknesses[i];
    assert.equal(await item.locator(`.badge.sev-${w.severity}`).count(), 1);
    // The example is the representative case's attacked text, when it has one.
    const r = report.results.find((x) => x.id === w.representative);
    const wrap = r.case.input.wrap ?? {};
    const attacked = {
      content: wrap.content,
      kind: wrap.kind,
      provenance: wrap.provenance,
      attributes: Object.entries(wrap.attributes ?? {}).map(([k, v]) => `${k}=${v}`).join("\n"),
      "reader-input": r.evidence.read_text,
    }[w.field] ?? "";
    assert.equal(await item.locator("pre.example").count(), attacked === "" ? 0 : 1, w.id);
    const title = await item.locator("b").first().innerText();
    assert.ok(!report.weaknesses.some((w) => title.includes(w.id)), title);
  }

  const fails = report.results.filter((r) => r.verdicts[level] === "fail");
  assert.ok(fails.length > 0, "the seed style is expected to fail somewhere");
  await page.selectOption("#filter-verdict", "fail");
  assert.equal(await visible(page), fails.length);
  assert.equal(await shownCount(page), fails.length);

  // A heatmap row sets the category filter; the verdict filter stays.
  await page.click('#heatmap button[data-value="breakout"]');
  const breakoutFails = fails.filter((r) => r.case.category === "breakout").length;
  assert.equal(await visible(page), breakoutFails);

  await page.selectOption("#filter-check", "canary.containment");
  const withCheck = fails.filter(
    (r) => r.case.category === "breakout" && reported(r).some((f) => f.check === "canary.containment"),
  ).length;
  assert.equal(await visible(page), withCheck);

  await page.click("#reset");
  assert.equal(await visible(page), total);

  // A verdict chip is a filter too.
  await page.click('#filters button[data-value="fidelity-fail"]');
  const fidelity = report.results.filter((r) => r.verdicts[level] === "fidelity-fail").length;
  assert.equal(await visible(page), fidelity);

  // The offending span is marked inside the framed output.
  await page.selectOption("#filter-verdict", "fail");
  const first = page.locator("details.case:not([hidden])").first();
  await first.locator("summary").click();
  assert.ok((await first.locator("pre.evidence mark").count()) > 0, "no highlighted span");
  await page.locator("#status").scrollIntoViewIfNeeded();
  await page.evaluate(() => window.scrollTo(0, 0));
  fs.mkdirSync(screenshots, { recursive: true });
  await page.screenshot({ path: path.join(screenshots, "report-screenshot.png") });

  assert.deepEqual(requests, [], "the report fetched something");
  assert.deepEqual(errors, [], "script errors (a CSP hash mismatch shows here)");
  await page.close();
});

test("matrix colours every case per target and links into each report", { skip: why ?? false }, async () => {
  const { page, requests, errors } = await open(path.join(dir, "index.html"));
  const ids = new Set();
  for (const stem of runReports) {
    for (const r of expected(stem).report.results) ids.add(r.case.id);
  }
  const rows = await page.locator("#matrix tr:not(.category)").count();
  assert.equal(rows, ids.size);
  const fails = await page.locator("#matrix td.v-fail").count();
  const jsonFails = runReports
    .map((stem) => expected(stem))
    .reduce((n, e) => n + e.report.results.filter((r) => r.verdicts[e.level] === "fail").length, 0);
  assert.equal(fails, jsonFails);
  await page.screenshot({ path: path.join(screenshots, "matrix-screenshot.png") });

  // A failing cell opens that case in the target's report.
  const cell = page.locator("#matrix td.v-fail a").first();
  const href = await cell.getAttribute("href");
  await cell.click();
  await page.waitForURL((u) => u.href.includes("#case-"));
  const fragment = decodeURIComponent(new URL(page.url()).hash.slice(1));
  assert.ok(href.endsWith(`#${fragment}`));
  assert.equal(await page.locator(`[id="${fragment}"]`).getAttribute("data-verdict"), "fail");
  assert.deepEqual(requests.filter((u) => !u.startsWith("file:")), [], "the matrix fetched something");
  assert.deepEqual(errors, []);
  await page.close();
});

test("a hostile report runs no script and shows the payload as text", { skip: why ?? false }, async () => {
  const hostile = "</textarea></pre><script>window.pwned=1</script><img src=x onerror=\"window.pwned=2\">" +
    "\"><svg onload='window.pwned=3'>\u200B\u202E";
  const { report } = expected("reference");
  // A target's name is validated when a report is read (letters, digits, '-', '_'),
  // so the hostile text goes into its free-text description.
  report.target.description = `reference ${hostile}`;
  report.results = report.results.slice(0, 3);
  for (const r of report.results) {
    r.case.title = hostile;
    r.case.why = hostile;
    r.evidence.framed = hostile;
  }
  const file = path.join(dir, "hostile.json");
  fs.writeFileSync(file, JSON.stringify(report));
  execFileSync(binary, ["matrix", "--html", "--out", dir, file], { stdio: "pipe" });
  const { page, requests } = await open(path.join(dir, "hostile.html"));
  let dialogs = 0;
  page.on("dialog", (d) => { dialogs += 1; d.dismiss(); });
  await page.locator("details.case summary").first().click();
  assert.equal(await page.evaluate(() => window.pwned), undefined);
  assert.equal(dialogs, 0);
  assert.equal(await page.locator("details.case img, details.case svg, body script").count(), 1);
  const text = await page.locator("details.case").first().textContent();
  assert.ok(text.includes("</textarea></pre><script>window.pwned=1</script>"), "payload not shown as text");
  assert.ok(text.includes("\\u{200B}\\u{202E}"), "invisible characters not made visible");
  assert.deepEqual(requests, []);
  await page.close();
});
