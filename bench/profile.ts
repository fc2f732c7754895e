// npm run bench:profile — runs one scenario against `npm start`'s server under `--cpu-prof` and
// prints the functions with the most self time. BENCH_SCENARIO (a name from bench/scenarios.ts,
// default "idle poll"), BENCH_SECONDS (default 10), BENCH_DATABASE (postgres or embedded),
// BENCH_PROFILE_NOTIFICATIONS=on (webhooks and email configured, as in the bench's second part),
// BENCH_PROFILE_TARGET=baseline (load the bare baseline instead; both processes are profiled),
// BENCH_PORT. Build first (`npm run build`).
import { readdirSync, readFileSync, rmSync } from "node:fs";
import path from "node:path";
import { deploy } from "./deployments";
import { closedLoop } from "./load";
import { readOptions } from "./options";
import { scenarios } from "./scenarios";

const root = path.resolve(import.meta.dirname, "..");
const profileDir = path.join(root, "bench/results/profile");
const options = readOptions();
const database = options.databases[0]!;
rmSync(profileDir, { recursive: true, force: true });
const deployment = await deploy(
  { ...options, nodeArgs: ["--cpu-prof", `--cpu-prof-dir=${profileDir}`] },
  { database, notifications: process.env.BENCH_PROFILE_NOTIFICATIONS === "on", seed: 2100, port: options.port },
);
try {
  const scenarioName = process.env.BENCH_SCENARIO ?? "idle poll";
  const next = scenarios(deployment.widgets)[scenarioName];
  if (!next) throw new Error(`no scenario named ${scenarioName}`);
  const port = process.env.BENCH_PROFILE_TARGET === "baseline" ? deployment.baselinePort : deployment.port;
  if (!port) throw new Error("the baseline runs on PostgreSQL only");
  const warmUp = await closedLoop({ port, connections: 64, durationMs: 3_000, next });
  const result = await closedLoop({ port, connections: 64, durationMs: options.seconds * 1000, next });
  console.log({ database, warmUp: warmUp.requests, ...result });
} finally {
  await deployment.stop();
}

interface Node { id: number; callFrame: { functionName: string; url: string; lineNumber: number }; hitCount?: number }
for (const file of readdirSync(profileDir)) {
  const profile = JSON.parse(readFileSync(path.join(profileDir, file), "utf8")) as { nodes: Node[] };
  const total = profile.nodes.reduce((sum, node) => sum + (node.hitCount ?? 0), 0);
  if (total < 100) continue;
  const self = new Map<string, number>();
  for (const node of profile.nodes) {
    const where = `${node.callFrame.functionName || "(anonymous)"} ${node.callFrame.url.replace(/^.*node_modules\//, "")}:${node.callFrame.lineNumber}`;
    self.set(where, (self.get(where) ?? 0) + (node.hitCount ?? 0));
  }
  console.log(`\n${file}: ${total} samples`);
  for (const [where, hits] of [...self].sort((a, b) => b[1] - a[1]).slice(0, 25)) {
    console.log(`${((hits / total) * 100).toFixed(1).padStart(5)}%  ${where}`);
  }
}
