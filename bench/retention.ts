// npm run bench:retention — the daily retention at scale (docs/security.md, "For how long"; issue
// #29). Seeds N closed conversations past their site's retention (2 messages each) and N/10 old
// page views, outbox emails and expired visitor tokens on a scratch PostgreSQL database, then runs
// the send scenario in-process (visitors sending on live conversations: the token lookup and the
// append, no HTTP) first alone, then while `runRetention` erases and prunes. Reports sends per
// second with and without pruning (their ratio) and the longest transaction the pruning held open,
// sampled from pg_stat_activity every 20 ms.
//
//   createdb -h 127.0.0.1 -U postgres parley_bench_retention
//   DATABASE_URL=postgresql://postgres@127.0.0.1:5432/parley_bench_retention npm run bench:retention -- --conversations 100000
//
// Flags: --conversations (default 100,000), --senders concurrent (default 8), --seconds of the
// baseline send run (default 20).
import { parseArgs } from "node:util";
import { performance } from "node:perf_hooks";
import { closeDatabase, separatePostgresExecutor, sqlExecutor } from "../lib/db/client";
import { runRetention } from "../lib/privacy/retention";
import { forSeconds, liveVisitors, sendLoop } from "./send-loop";

const { values } = parseArgs({ options: { conversations: { type: "string" }, senders: { type: "string" }, seconds: { type: "string" } } });
const conversations = Number(values.conversations ?? 100_000);
const senders = Number(values.senders ?? 8);
const seconds = Number(values.seconds ?? 20);
const LIVE = 200;
const BATCH = 10_000;
if (!process.env.DATABASE_URL) throw new Error("Set DATABASE_URL to a scratch PostgreSQL database.");
process.env.ADMIN_TOKEN ??= "bench-admin-token-0123456789abcdef";
process.env.RATE_LIMITS = "off";
process.env.LOG_LEVEL ??= "warn";

await sqlExecutor(); // migrates
const bulk = separatePostgresExecutor(process.env.DATABASE_URL, 1);

async function seed(): Promise<string[]> {
  await bulk.executeSql(`INSERT INTO inboxes (id, name, daily_allowance) VALUES ('ret-inbox', 'Retention', 100000000) ON CONFLICT DO NOTHING`);
  await bulk.executeSql(`INSERT INTO sites (id, name, inbox_id, origins, retention_days) VALUES ('ret-old', 'Old', 'ret-inbox', ARRAY['https://old.example'], 30), ('ret-live', 'Live', 'ret-inbox', ARRAY['https://live.example'], 30) ON CONFLICT DO NOTHING`);
  for (let from = 0; from < conversations; from += BATCH) {
    const to = Math.min(conversations, from + BATCH) - 1;
    await bulk.transaction(async (tx) => {
      await tx.executeSql("SET LOCAL statement_timeout = 0");
      await tx.executeSql(
        `INSERT INTO conversations (id, site_id, inbox_id, status, origin, visitor_id, last_sequence, created_at, closed_at)
         SELECT 'rc' || s, 'ret-old', 'ret-inbox', 'closed', 'https://old.example', 'v' || s, 2, now() - interval '70 days', now() - interval '60 days'
           FROM generate_series($1::int, $2::int) AS s`,
        [from, to],
      );
      await tx.executeSql(
        `INSERT INTO messages (id, conversation_id, sequence, client_id, author_type, author_id, kind, body, created_at)
         SELECT 'rm' || s || '_' || n, 'rc' || s, n, 'c' || n, 'visitor', 'v' || s, 'message', 'Where is my order?', now() - interval '70 days'
           FROM generate_series($1::int, $2::int) AS s, generate_series(1, 2) AS n`,
        [from, to],
      );
      await tx.executeSql(
        `INSERT INTO visitor_tokens (id, hash, conversation_id, origin, expires_at)
         SELECT 'rt' || s, 'h' || s, 'rc' || s, 'https://old.example', now() - interval '69 days' FROM generate_series($1::int, $2::int) AS s WHERE s % 10 = 0`,
        [from, to],
      );
      await tx.executeSql(
        `INSERT INTO page_views (id, site_id, origin, page_url, created_at)
         SELECT 'rp' || s, 'ret-old', 'https://old.example', 'https://old.example/', now() - interval '100 days' FROM generate_series($1::int, $2::int) AS s WHERE s % 10 = 0`,
        [from, to],
      );
      await tx.executeSql(
        `INSERT INTO emails (id, kind, recipient, recipient_key, subject, text_body, html_body, status, created_at)
         SELECT 're' || s, 'visitor_follow_up', 'x@mail.example', 'x@mail.example', 's', 't', 'h', 'sent', now() - interval '100 days'
           FROM generate_series($1::int, $2::int) AS s WHERE s % 10 = 0`,
        [from, to],
      );
    });
  }
  await bulk.transaction(async (tx) => {
    await tx.executeSql("SET LOCAL statement_timeout = 0");
    await tx.executeSql("ANALYZE");
  });
  return liveVisitors(bulk, { id: "ret-live", inbox: "ret-inbox", origin: "https://live.example" }, LIVE);
}

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

const seedStarted = performance.now();
const tokens = await seed();
console.log(`seeded ${conversations} closed conversations (+ ${conversations / 10} each of tokens, page views, emails) in ${((performance.now() - seedStarted) / 1000).toFixed(0)} s`);

const baseline = await sendLoop(tokens, senders, forSeconds(seconds));
console.log(`send alone: ${baseline.rate.toFixed(1)} sends/s (${baseline.sends} in ${seconds} s, ${senders} senders)`);

const pruneStarted = performance.now();
const pruning = runRetention();
const [during, longest, counts] = await Promise.all([sendLoop(tokens, senders, pruning), longestPruneTransaction(pruning), pruning]);
const pruneSeconds = (performance.now() - pruneStarted) / 1000;
console.log(`retention: ${pruneSeconds.toFixed(1)} s, ${JSON.stringify(counts)}`);
console.log(`send while pruning: ${during.rate.toFixed(1)} sends/s (${during.sends}); ratio ${(during.rate / baseline.rate).toFixed(2)}`);
console.log(`longest pruning transaction seen: ${longest.toFixed(0)} ms`);
await bulk.end();
await closeDatabase();
