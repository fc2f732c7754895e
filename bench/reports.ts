// npx tsx bench/reports.ts — reports read from the precomputed cycles (docs/reports.md, "Precomputed";
// issue #27, "Bench") on the scale benches' one seed (bench/scale-seed.ts: conversations spread
// evenly over --days on one site with service hours, bot replies, closes, reopens and ratings).
// Measures every conversation's cycles (the backfill: the seed skips the triggers that mark them)
// and times GET /inbox/reports' service (buildReport) for a 30-day range ending today (day, week,
// member) and the CSV once: p50/p99 in-process, no HTTP.
//
//   DATABASE_URL=postgresql://postgres@127.0.0.1:5432/parley_bench_scale npx tsx bench/reports.ts --conversations 100000
//   npx tsx bench/reports.ts --conversations 5000        (embedded: PGlite in memory unless DATA_DIR is set)
//
// Flags: the seed's (--conversations, default 10,000; --messages, 10; --days, 365; --articles, 0;
// --seeded), --samples (default 10).
import { parseArgs } from "node:util";
import { closeDatabase } from "../lib/db/client";
import { reportQuery } from "../lib/contracts/reports";
import { buildReport } from "../lib/reports/report";
import { reportCsv } from "../lib/reports/report-csv";
import { measureStaleConversations } from "../lib/reports/cycles";
import { bulkExecutor, endBulk, unhurried } from "./bulk-sql";
import { SCALE_SEED_FLAGS, scaleSeed, shapeOf } from "./scale-seed";
import { percentiles, timed } from "./stats";

const { values } = parseArgs({ options: { ...SCALE_SEED_FLAGS, samples: { type: "string" } } });
const samples = Number(values.samples ?? 10);
if (!process.env.DATABASE_URL) process.env.DATA_DIR ??= "memory://";
process.env.ADMIN_TOKEN ??= "bench-admin-token-0123456789abcdef";

async function main(): Promise<void> {
  const bulk = await bulkExecutor();
  const { conversations, days } = await scaleSeed(bulk, shapeOf(values), values.seeded ?? false);
  console.log(`about ${Math.round((conversations * 30) / days).toLocaleString("en")} conversations in the 30 days measured`);
  await unhurried(bulk, ["INSERT INTO report_stale_conversations (conversation_id) SELECT id FROM conversations ON CONFLICT DO NOTHING"]);
  const [measured, measureMs] = await timed(() => measureStaleConversations((done) => process.stdout.write(`\rmeasured ${done.toLocaleString("en")}`)));
  console.log(`\nbackfill: ${measured.toLocaleString("en")} conversations measured in ${(measureMs / 1000).toFixed(1)} s`);
  for (const group of ["day", "week", "member"]) {
    console.log(`report, 30 days, by ${group}: ${await percentiles(() => buildReport(reportQuery.parse({ group })), samples, 0)}`);
  }
  const [csv, csvMs] = await timed(() => reportCsv(reportQuery.parse({})));
  console.log(`CSV, 30 days: ${csv.split("\r\n").length - 2} cycles in ${csvMs.toFixed(0)} ms`);
  await endBulk(bulk);
  await closeDatabase();
}

await main();
