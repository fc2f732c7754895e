// npm run bench:profile — runs one scenario against `npm start`'s server under `--cpu-prof` and
// prints the functions with the most self time. BENCH_SCENARIO (a name from bench/scenarios.ts,
// default "idle poll"), BENCH_SECONDS (default 10). Build first (`npm run build`).
import { readdirSync, readFileSync, rmSync } from "node:fs";
import path from "node:path";
import { randomBytes } from "node:crypto";
import pg from "pg";
import { closedLoop } from "./load";
import { startProcess, stopProcess, waitForHttp } from "./processes";
import { scenarios } from "./scenarios";
import { seedBench } from "./seed";

const root = path.resolve(import.meta.dirname, "..");
const server = process.env.BENCH_DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres";
const profileDir = path.join(root, "bench/results/profile");
const port = Number(process.env.BENCH_PORT ?? 3310);

async function onServer(sql: string) {
  const client = new pg.Client({ connectionString: server });
  await client.connect();
  await client.query(sql).finally(() => client.end());
}

const name = `parley_profile_${Date.now()}`;
await onServer(`CREATE DATABASE "${name}"`);
const url = Object.assign(new URL(server), { pathname: `/${name}` }).toString();
rmSync(profileDir, { recursive: true, force: true });
const service = startProcess(
  process.execPath,
  ["--cpu-prof", `--cpu-prof-dir=${profileDir}`, path.join(root, "scripts/start.mjs")],
  { PORT: String(port), DATABASE_URL: url, ADMIN_TOKEN: `p-${randomBytes(12).toString("hex")}`, RATE_LIMITS: "off", LOG_LEVEL: "error", NODE_ENV: "production" },
);
try {
  await waitForHttp(port);
  const scenarioName = process.env.BENCH_SCENARIO ?? "idle poll";
  const next = scenarios(await seedBench(url, 2100))[scenarioName];
  if (!next) throw new Error(`no scenario named ${scenarioName}`);
  const warmUp = await closedLoop({ port, connections: 64, durationMs: 3_000, next });
  const result = await closedLoop({ port, connections: 64, durationMs: Number(process.env.BENCH_SECONDS ?? 10) * 1000, next });
  console.log({ warmUp: warmUp.requests, ...result });
} finally {
  await stopProcess(service);
  await onServer(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
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
