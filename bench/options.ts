import { parseArgs } from "node:util";

// The knobs of `npm run bench`, as flags (`npm run bench -- --only start --sizes 10000`) or the
// environment (BENCH_ONLY=start …); a flag wins. `--only suggestions --articles 10000 --visitors 200`:
// the widget's article suggestions over HTTP (docs/performance.md, "Help center"), each visitor one
// lookup per pause in typing, drawn from `--pause-ms 250-1750`. `--only send --rules 50 --sla`: the
// send scenario again with 50 enabled rules and an SLA policy, and how soon a rule acts
// (docs/performance.md, "Rules and SLA").

export const PARTS = ["soak", "idle poll", "presence poll", "send", "start", "history", "open widgets", "inbox", "suggestions", "host page score"] as const;
export type Part = (typeof PARTS)[number];
export type DatabaseKind = "postgres" | "embedded";

export interface BenchOptions {
  /** The parts to run (default: all). */
  only: Set<Part>;
  databases: DatabaseKind[];
  /** Also run idle poll, send and start with webhooks and email configured (PostgreSQL). */
  notifications: boolean;
  seconds: number;
  soakSeconds: number;
  /** Open widgets on PostgreSQL, and on PGlite. */
  sizes: number[];
  embeddedSizes: number[];
  /** Suggestions (PostgreSQL): published articles on the bench site, and visitors typing at once (connections). */
  articles: number;
  visitors: number;
  /** Suggestions: each visitor's wait between two lookups, drawn evenly from [min, max] ms. */
  pauseMs: [min: number, max: number];
  /** Enabled rules installed before a second send scenario (0: none), and an SLA policy with them. */
  rules: number;
  sla: boolean;
  /** A server to create scratch databases on. */
  postgresServer: string;
  /** The first of ten ports the bench's servers listen on. */
  port: number;
  skipBuild: boolean;
  verbose: boolean;
  /** `next-start`: measure Next's own server instead of `npm start`'s front. */
  server: "front" | "next-start";
  /** Node options for the service (the profiler's). */
  nodeArgs: string[];
}

const list = (value: string | undefined) => (value ?? "").split(",").map((item) => item.trim()).filter((item) => item && item !== "none");
const numbers = (value: string | undefined) => list(value).map(Number);

export function readOptions(argv = process.argv.slice(2), env = process.env): BenchOptions {
  const { values } = parseArgs({
    args: argv,
    options: {
      only: { type: "string" },
      database: { type: "string" },
      notifications: { type: "string" },
      seconds: { type: "string" },
      soak: { type: "string" },
      sizes: { type: "string" },
      "embedded-sizes": { type: "string" },
      articles: { type: "string" },
      visitors: { type: "string" },
      "pause-ms": { type: "string" },
      rules: { type: "string" },
      sla: { type: "boolean" },
      port: { type: "string" },
      "skip-build": { type: "boolean" },
      verbose: { type: "boolean" },
    },
  });
  const only = list(values.only ?? env.BENCH_ONLY);
  for (const part of only) if (!(PARTS as readonly string[]).includes(part)) throw new Error(`--only: unknown part "${part}" (one of: ${PARTS.join(", ")})`);
  const databases = list(values.database ?? env.BENCH_DATABASE ?? "postgres,embedded");
  const pauseMs = (values["pause-ms"] ?? env.BENCH_PAUSE_MS ?? "250-1750").split("-").map(Number);
  if (pauseMs.length !== 2 || !pauseMs.every((ms) => Number.isFinite(ms) && ms >= 0) || pauseMs[0]! > pauseMs[1]!) throw new Error(`--pause-ms: "${values["pause-ms"]}" is not min-max in ms (e.g. 250-1750)`);
  for (const kind of databases) if (kind !== "postgres" && kind !== "embedded") throw new Error(`--database: "${kind}" is neither postgres nor embedded`);
  return {
    only: new Set((only.length ? only : PARTS) as Part[]),
    databases: databases as DatabaseKind[],
    notifications: (values.notifications ?? env.BENCH_NOTIFICATIONS ?? "on") !== "off",
    seconds: Number(values.seconds ?? env.BENCH_SECONDS ?? 10),
    soakSeconds: Number(values.soak ?? env.BENCH_SOAK_SECONDS ?? 60),
    sizes: numbers(values.sizes ?? env.BENCH_WIDGETS ?? "10000,25000,50000"),
    embeddedSizes: numbers(values["embedded-sizes"] ?? env.BENCH_EMBEDDED_WIDGETS ?? "1000,2500,5000"),
    articles: Number(values.articles ?? env.BENCH_ARTICLES ?? 10_000),
    visitors: Number(values.visitors ?? env.BENCH_VISITORS ?? 200),
    pauseMs: pauseMs as [number, number],
    rules: Number(values.rules ?? env.BENCH_RULES ?? 0),
    sla: Boolean(values.sla || env.BENCH_SLA),
    postgresServer: env.BENCH_DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres",
    port: Number(values.port ?? env.BENCH_PORT ?? 7300),
    skipBuild: Boolean(values["skip-build"] || env.BENCH_SKIP_BUILD),
    verbose: Boolean(values.verbose || env.BENCH_VERBOSE),
    server: env.BENCH_SERVER === "next-start" ? "next-start" : "front",
    nodeArgs: process.env.BENCH_NODE_ARGS ? process.env.BENCH_NODE_ARGS.split(" ") : [],
  };
}
