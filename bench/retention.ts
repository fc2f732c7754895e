// npm run bench:retention — the daily retention at scale (docs/security.md, "For how long"; issue
// #29) on the scale benches' one seed (bench/scale-seed.ts), PostgreSQL only. Gives the seed's site
// a retention of 30 days (its closed conversations older than that, about 61 % of the seed, and
// its old tickets, page views, outbox emails and expired visitor tokens are then due), then runs the
// send scenario in-process (visitors sending on live conversations: the token lookup and the
// append, no HTTP) first alone, then while `runRetention` erases and prunes. Reports sends per
// second with and without pruning (their ratio) and the longest transaction the pruning held open,
// sampled from pg_stat_activity every 20 ms. It erases what the other scale benches measure: run it
// last on a shared seed; the seed is then marked gone and a later bench refuses the database.
//
//   createdb -h 127.0.0.1 -U postgres parley_bench_scale
//   DATABASE_URL=postgresql://postgres@127.0.0.1:5432/parley_bench_scale npm run bench:retention -- --conversations 100000
//
// Flags: the seed's (--conversations, default 10,000; --messages, 10; --days, 365; --articles, 0;
// --seeded), --senders concurrent (default 8), --seconds of the baseline send run (default 20).
import { parseArgs } from "node:util";
import { closeDatabase, separatePostgresExecutor, sqlExecutor } from "../lib/db/client";
import { runRetention } from "../lib/privacy/retention";
import { forgetScaleSeed, SCALE_SEED_FLAGS, SCALE_SITE, scaleSeed, shapeOf } from "./scale-seed";
import { forSeconds, liveVisitors, sendLoop } from "./send-loop";
import { timed } from "./stats";

const { values } = parseArgs({ options: { ...SCALE_SEED_FLAGS, senders: { type: "string" }, seconds: { type: "string" } } });
const senders = Number(values.senders ?? 8);
const seconds = Number(values.seconds ?? 20);
const LIVE = 200;
if (!process.env.DATABASE_URL) throw new Error("Set DATABASE_URL to a scratch PostgreSQL database.");
process.env.ADMIN_TOKEN ??= "bench-admin-token-0123456789abcdef";
process.env.RATE_LIMITS = "off";
process.env.LOG_LEVEL ??= "warn";

await sqlExecutor(); // migrates
const bulk = separatePostgresExecutor(process.env.DATABASE_URL, 1);

/** The longest open transaction of a pruning statement, sampled until `until` resolves (ms). */
async function longestPruneTransaction(until: Promise<unknown>): Promise<number> {
  const watch = separatePostgresExecutor(process.env.DATABASE_URL!, 1);
  let done = false;
  void until.finally(() => (done = true));
  let longest = 0;
  while (!done) {
    const { rows } = await watch.executeSql(
      `SELECT max(extract(epoch FROM clock_timestamp() - xact_start) * 1000)::float8 AS ms FROM pg_stat_activity
        WHERE datname = current_database() AND pid <> pg_backend_pid() AND query ILIKE 'DELETE FROM%'`,
    );
    longest = Math.max(longest, Number(rows[0]?.ms ?? 0));
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  await watch.end();
  return longest;
}

await scaleSeed(bulk, shapeOf(values), values.seeded ?? false);
// The seed keeps everything; the sites a retention applies to erase their closed conversations after 30 days.
await bulk.executeSql(`UPDATE sites SET retention_days = 30 WHERE id = $1`, [SCALE_SITE.id]);
const tokens = await liveVisitors(bulk, SCALE_SITE, LIVE);

const baseline = await sendLoop(tokens, senders, forSeconds(seconds));
console.log(`send alone: ${baseline.rate.toFixed(1)} sends/s (${baseline.sends} in ${seconds} s, ${senders} senders)`);

const pruning = runRetention();
const [[during, longest, counts], pruneMs] = await timed(() => Promise.all([sendLoop(tokens, senders, pruning), longestPruneTransaction(pruning), pruning]));
// What the others measure is gone: a later bench refuses this database instead of measuring the rest.
await forgetScaleSeed(bulk);
console.log(`retention: ${(pruneMs / 1000).toFixed(1)} s, ${JSON.stringify(counts)}`);
console.log(`send while pruning: ${during.rate.toFixed(1)} sends/s (${during.sends}); ratio ${(during.rate / baseline.rate).toFixed(2)}`);
console.log(`longest pruning transaction seen: ${longest.toFixed(0)} ms`);
await bulk.end();
await closeDatabase();
