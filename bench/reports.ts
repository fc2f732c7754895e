// npx tsx bench/reports.ts — reports read from the precomputed cycles (docs/reports.md, "Precomputed";
// issue #27, "Bench"). Seeds N conversations spread evenly over D days on one site with service
// hours (Europe/Berlin, weekdays 09:00-17:30): each a visitor message, a bot reply for one in ten, a
// person's reply, a second exchange, a close for two in three, a reopen and second close for one in
// twenty, a rating for one in five closes. Then measures every conversation's cycles (the backfill:
// the seed skips the triggers that mark them) and times GET /inbox/reports' service (buildReport) for
// a 30-day range ending today (day, week, member) and the CSV once: p50/p99 in-process, no HTTP.
// On a scratch database only: the seed skips triggers (session_replication_role = replica).
//
//   DATABASE_URL=postgresql://postgres@127.0.0.1:5432/parley_bench_reports npx tsx bench/reports.ts --conversations 100000
//   npx tsx bench/reports.ts --conversations 5000        (embedded: PGlite in memory unless DATA_DIR is set)
//
// Flags: --conversations (default 5,000), --days the seed spans (default 365), --samples (default 10).
import { parseArgs } from "node:util";
import { closeDatabase } from "../lib/db/client";
import { reportQuery } from "../lib/contracts/reports";
import { buildReport } from "../lib/reports/report";
import { reportCsv } from "../lib/reports/report-csv";
import { measureStaleConversations } from "../lib/reports/cycles";
import { bulkExecutor } from "./bulk-sql";
import { percentiles, timed } from "./stats";

const { values } = parseArgs({ options: { conversations: { type: "string" }, days: { type: "string" }, samples: { type: "string" } } });
const conversations = Number(values.conversations ?? 5_000);
const days = Number(values.days ?? 365);
const samples = Number(values.samples ?? 10);
if (!process.env.DATABASE_URL) process.env.DATA_DIR ??= "memory://";
process.env.ADMIN_TOKEN ??= "bench-admin-token-0123456789abcdef";

const BATCH = 10_000;
const HOURS = JSON.stringify(Object.fromEntries(["mon", "tue", "wed", "thu", "fri"].map((day) => [day, [["09:00", "17:30"]]])));

const bulk = bulkExecutor();

// Conversation s starts `s * spacing` seconds before now; its messages follow over minutes to hours.
const START = `now() - ((s::float8 * $3::float8) || ' seconds')::interval`;

async function seed(): Promise<void> {
  const sql = await bulk;
  const spacing = (days * 86_400) / conversations;
  await sql.executeSql(`INSERT INTO inboxes (id, name) VALUES ('bench-inbox', 'Bench') ON CONFLICT DO NOTHING`);
  await sql.executeSql(
    `INSERT INTO sites (id, name, inbox_id, origins, timezone, hours) VALUES ('bench-site', 'Bench', 'bench-inbox', ARRAY['https://bench.example'], 'Europe/Berlin', $1::jsonb) ON CONFLICT DO NOTHING`,
    [HOURS],
  );
  await sql.executeSql(`INSERT INTO members (id, name, bot) VALUES ('bench-bot', 'Bot', true), ('bench-agent', 'Agent', false) ON CONFLICT DO NOTHING`);
  for (let from = 0; from < conversations; from += BATCH) {
    const to = Math.min(conversations, from + BATCH) - 1;
    await sql.transaction(async (tx) => {
      await tx.executeSql("SET LOCAL session_replication_role = replica");
      await tx.executeSql("SET LOCAL statement_timeout = 0");
      await tx.executeSql(
        `INSERT INTO conversations (id, site_id, inbox_id, status, origin, visitor_id, last_sequence, assigned_member_id, created_at, last_activity_at)
         SELECT 'rc' || s, 'bench-site', 'bench-inbox', CASE WHEN s % 3 = 0 THEN 'open' ELSE 'closed' END, 'https://bench.example', 'v' || s, 8,
                CASE WHEN s % 4 = 0 THEN NULL ELSE 'bench-agent' END, ${START}, ${START} + interval '6 hours'
           FROM generate_series($1::int, $2::int) AS s`,
        [from, to, spacing],
      );
      // n: 1 visitor, 2 bot (one in ten) or nothing, 3 person, 4 visitor, 5 person, 6 closed, 7 reopened, 8 closed.
      await tx.executeSql(
        `INSERT INTO messages (id, conversation_id, sequence, client_id, author_type, author_id, member_id, kind, body, event, created_at)
         SELECT 'rm' || s || '_' || n, 'rc' || s, n, 'c' || n,
                CASE WHEN n IN (1, 4) THEN 'visitor' WHEN n IN (2, 3, 5) THEN 'staff' ELSE 'system' END, 'a',
                CASE WHEN n = 2 THEN 'bench-bot' WHEN n IN (3, 5) THEN 'bench-agent' END, 'message', 'x',
                CASE WHEN n IN (6, 8) THEN 'conversation_closed' WHEN n = 7 THEN 'conversation_reopened' END,
                ${START} + ((n * (60 + s % 3600)) || ' seconds')::interval
           FROM generate_series($1::int, $2::int) AS s, generate_series(1, 8) AS n
          WHERE (n <> 2 OR s % 10 = 0) AND (n <> 6 OR s % 3 <> 0) AND (n NOT IN (7, 8) OR (s % 20 = 1))`,
        [from, to, spacing],
      );
      await tx.executeSql(
        `INSERT INTO conversation_ratings (id, conversation_id, closed_at, score, created_at)
         SELECT 'rr' || s, 'rc' || s, ${START} + interval '6 hours', 1 + s % 5, ${START} + interval '6 hours'
           FROM generate_series($1::int, $2::int) AS s WHERE s % 3 <> 0 AND s % 5 = 0`,
        [from, to, spacing],
      );
    });
    process.stdout.write(`\rseeded ${Math.min(conversations, to + 1).toLocaleString("en")} conversations`);
  }
  await sql.transaction(async (tx) => {
    await tx.executeSql("SET LOCAL statement_timeout = 0");
    await tx.executeSql("ANALYZE");
  });
  console.log();
}


async function main(): Promise<void> {
  const [, seedMs] = await timed(seed);
  const inRange = Math.round((conversations * 30) / days);
  console.log(`${conversations.toLocaleString("en")} conversations over ${days} days (about ${inRange.toLocaleString("en")} in 30 days): seed ${(seedMs / 1000).toFixed(1)} s`);
  await (await bulk).transaction(async (tx) => {
    await tx.executeSql("SET LOCAL statement_timeout = 0");
    await tx.executeSql("INSERT INTO report_stale_conversations (conversation_id) SELECT id FROM conversations ON CONFLICT DO NOTHING");
  });
  const [measured, measureMs] = await timed(() => measureStaleConversations((done) => process.stdout.write(`\rmeasured ${done.toLocaleString("en")}`)));
  console.log(`\nbackfill: ${measured.toLocaleString("en")} conversations measured in ${(measureMs / 1000).toFixed(1)} s`);
  for (const group of ["day", "week", "member"]) {
    console.log(`report, 30 days, by ${group}: ${await percentiles(() => buildReport(reportQuery.parse({ group })), samples, 0)}`);
  }
  const [csv, csvMs] = await timed(() => reportCsv(reportQuery.parse({})));
  console.log(`CSV, 30 days: ${csv.split("\r\n").length - 2} cycles in ${csvMs.toFixed(0)} ms`);
  const executor = await bulk;
  if ("end" in executor) await (executor as { end(): Promise<void> }).end();
  await closeDatabase();
}

await main();
