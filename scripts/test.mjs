#!/usr/bin/env node
// `npm test`: the vitest suite, then the browser suite, whatever the first one's result, so one
// failing test never hides the other half (`vitest run && playwright test` skipped all browser
// tests when vitest failed). Each runner prints its own report as usual; this adds one summary line
// per half and exits non-zero when either failed. Arguments are not forwarded: run one half with
// `npm run test:unit` or `npm run test:e2e` to pick files.
import { spawnSync } from "node:child_process";

const halves = [
  { name: "vitest (unit, integration, contract)", script: "test:unit" },
  { name: "playwright (browser)", script: "test:e2e" },
];

const results = halves.map(({ name, script }) => {
  const startedAt = Date.now();
  const run = spawnSync("npm", ["run", "--silent", script], { stdio: "inherit", env: process.env });
  const code = run.status ?? (run.signal ? 1 : 0);
  return { name, code, seconds: Math.round((Date.now() - startedAt) / 1000) };
});

console.log("\nnpm test summary:");
for (const { name, code, seconds } of results) {
  console.log(`  ${code === 0 ? "passed" : `FAILED (exit ${code})`}  ${name}  ${seconds} s`);
}
process.exit(results.some(({ code }) => code !== 0) ? 1 : 0);
