// npm run bench:search — search at scale (docs/performance.md, "Search"; issue #25). Seeds N
// conversations with realistic messages (10 each by default: visitor questions, staff replies,
// notes) and one ticket per ten conversations, builds the search indexes (timed), then times the
// search service (lib/search) for common words, rare words, prefixes and ticket numbers, and the
// inbox list's first page with each filter: p50/p99 in-process, no HTTP. On a scratch database only:
// the seed skips triggers (session_replication_role = replica: a superuser, as the bench's own).
// Then the send scenario (in-process, bench/send-loop.ts) with and without the messages' search
// indexes, for their cost on the send path in the same run. --seeded measures a database an
// earlier run seeded and indexed.
//
//   DATABASE_URL=postgresql://postgres@127.0.0.1:5432/parley_bench_search npm run bench:search -- --conversations 1000000
//   npm run bench:search -- --conversations 2000          (embedded: PGlite in memory unless DATA_DIR is set)
//
// Flags (or SEARCH_BENCH_CONVERSATIONS, SEARCH_BENCH_MESSAGES, SEARCH_BENCH_SAMPLES):
// --conversations (default 2,000), --messages per conversation (default 10), --samples per query (default 50),
// --send-seconds per send round (default 10; 0 skips the send rounds), --seeded.
import { readFileSync } from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { performance } from "node:perf_hooks";
import { closeDatabase, separatePostgresExecutor, sqlExecutor, type SqlExecutor } from "../lib/db/client";
import { searchQuery } from "../lib/contracts/search";
import { conversationListQuery } from "../lib/contracts/inbox";
import { listInboxConversations } from "../lib/conversations/inbox-conversations";
import { search } from "../lib/search/search";
import { forSeconds, liveVisitors, sendLoop } from "./send-loop";

const { values } = parseArgs({
  options: { conversations: { type: "string" }, messages: { type: "string" }, samples: { type: "string" }, "send-seconds": { type: "string" }, seeded: { type: "boolean" } },
});
const conversations = Number(values.conversations ?? process.env.SEARCH_BENCH_CONVERSATIONS ?? 2_000);
const messagesPer = Number(values.messages ?? process.env.SEARCH_BENCH_MESSAGES ?? 10);
const samples = Number(values.samples ?? process.env.SEARCH_BENCH_SAMPLES ?? 50);
const sendSeconds = Number(values["send-seconds"] ?? 10);
if (!process.env.DATABASE_URL) process.env.DATA_DIR ??= "memory://";
process.env.ADMIN_TOKEN ??= "bench-admin-token-0123456789abcdef";
process.env.RATE_LIMITS = "off";
process.env.LOG_LEVEL ??= "warn";
const SENDERS = 8;
const SITE = { id: "bench-site", inbox: "bench-inbox", origin: "https://bench.example" };

const BATCH = 5_000;
const MIGRATIONS = ["20261127030000_search", "20261201000000_message_created_at_index"].map((name) =>
  path.resolve(import.meta.dirname, `../prisma/migrations/${name}/migration.sql`),
);
// The search's indexes (the GIN indexes and the messages' created_at index, for the wider
// windows), as written in their migrations: dropped before the seed, rebuilt (timed) after.
const SEARCH_INDEXES = MIGRATIONS.flatMap((file) => readFileSync(file, "utf8").split(/;\s*\n/))
  .map((statement) => statement.replace(/^(\s*--.*\n)*/, "").trim())
  .filter((statement) => /^CREATE INDEX "\w+_(search|created_at)_idx"/.test(statement));

// Words people write to support, by rough frequency: the first are common, the last rare.
const COMMON = ["order", "delivery", "account", "password", "refund", "invoice", "shipping", "payment", "help", "problem"];
const FILLER = ["please", "thanks", "today", "again", "still", "when", "could", "would", "like", "know", "check", "send", "email", "number", "week", "price", "size", "colour", "return", "address", "card", "login", "app", "page", "error", "working", "arrived", "wrong", "missing", "update"];
const RARE = ["zeppelin", "quokka", "marmalade", "harpsichord", "obsidian"];

// One message body of 6..30 words, from the three lists ($1: a seed for the choice of words).
const BODY = `(SELECT string_agg(CASE WHEN r < 0.0005 THEN (ARRAY['${RARE.join("','")}'])[1 + floor(random() * ${RARE.length})::int]
                                    WHEN r < 0.25 THEN (ARRAY['${COMMON.join("','")}'])[1 + floor(random() * ${COMMON.length})::int]
                                    ELSE (ARRAY['${FILLER.join("','")}'])[1 + floor(random() * ${FILLER.length})::int] END, ' ')
               FROM (SELECT random() AS r, g FROM generate_series(1, 6 + floor(random() * 25)::int + 0 * s) AS g) words)`;

async function timed<T>(work: () => Promise<T>): Promise<[T, number]> {
  const started = performance.now();
  const result = await work();
  return [result, performance.now() - started];
}

// The seed and the index builds take longer than the service's client lets a query run (its query
// watch ends it): on PostgreSQL they go through a pool of their own.
const bulk: Promise<SqlExecutor> = process.env.DATABASE_URL ? sqlExecutor().then(() => separatePostgresExecutor(process.env.DATABASE_URL!, 1)) : sqlExecutor();

/** Statements without the service's statement timeout (an index build at scale). */
async function unhurried(statements: string[]): Promise<void> {
  const sql = await bulk;
  await sql.transaction(async (tx) => {
    await tx.executeSql("SET LOCAL statement_timeout = 0");
    await tx.executeSql("SET LOCAL maintenance_work_mem = '256MB'");
    for (const statement of statements) await tx.executeSql(statement);
  });
}

async function seed(): Promise<void> {
  const sql = await bulk;
  for (const index of SEARCH_INDEXES) await sql.executeSql(`DROP INDEX IF EXISTS ${/"(\w+)"/.exec(index)![1]}`);
  await sql.executeSql(`INSERT INTO inboxes (id, name, daily_allowance) VALUES ('bench-inbox', 'Bench', 100000000) ON CONFLICT DO NOTHING`);
  await sql.executeSql(`INSERT INTO sites (id, name, inbox_id, origins) VALUES ('bench-site', 'Bench', 'bench-inbox', ARRAY['https://bench.example']) ON CONFLICT DO NOTHING`);
  for (let from = 0; from < conversations; from += BATCH) {
    const to = Math.min(conversations, from + BATCH) - 1;
    await sql.transaction(async (tx) => {
      await tx.executeSql("SET LOCAL session_replication_role = replica");
      await tx.executeSql("SET LOCAL statement_timeout = 0");
      await tx.executeSql(
        `INSERT INTO conversations (id, site_id, inbox_id, status, origin, visitor_id, visitor_name, visitor_email, last_sequence, created_at, last_activity_at)
         SELECT 'bc' || s, 'bench-site', 'bench-inbox', CASE WHEN s % 3 = 0 THEN 'closed' ELSE 'open' END, 'https://bench.example', 'v' || s,
                CASE WHEN s % 2 = 0 THEN 'Visitor ' || s END, CASE WHEN s % 4 = 0 THEN 'person' || s || '@mail.example' END, $3::int,
                now() - (s || ' minutes')::interval, now() - (s || ' minutes')::interval + interval '30 seconds'
           FROM generate_series($1::int, $2::int) AS s`,
        [from, to, messagesPer],
      );
      await tx.executeSql(
        `INSERT INTO messages (id, conversation_id, sequence, note_number, client_id, author_type, author_id, kind, body, created_at)
         SELECT 'bm' || s || '_' || n, 'bc' || s, CASE WHEN n % 7 = 6 THEN n - 1 ELSE n END, CASE WHEN n % 7 = 6 THEN 1 ELSE 0 END, 'c' || n,
                CASE WHEN n % 2 = 1 THEN 'visitor' ELSE 'staff' END, 'a' || s, CASE WHEN n % 7 = 6 THEN 'note' ELSE 'message' END,
                ${BODY}, now() - (s || ' minutes')::interval + (n || ' seconds')::interval
           FROM generate_series($1::int, $2::int) AS s, generate_series(1, $3::int) AS n`,
        [from, to, messagesPer],
      );
      await tx.executeSql(
        `INSERT INTO tickets (id, site_id, inbox_id, number, origin, email, subject, body, created_at)
         SELECT 'bt' || s, 'bench-site', 'bench-inbox', s / 10 + 1, 'https://bench.example', 'filer' || s || '@mail.example',
                ${BODY}, ${BODY}, now() - (s || ' minutes')::interval
           FROM generate_series($1::int, $2::int) AS s WHERE s % 10 = 0`,
        [from, to],
      );
    });
    process.stdout.write(`\rseeded ${Math.min(conversations, to + 1).toLocaleString("en")} conversations`);
  }
  await sql.executeSql(`UPDATE inboxes SET last_ticket_number = (SELECT coalesce(max(number), 0) FROM tickets WHERE inbox_id = 'bench-inbox') WHERE id = 'bench-inbox'`);
  console.log();
}

async function percentiles(work: (i: number) => Promise<unknown>): Promise<string> {
  await work(0); // a first run plans and warms the cache
  const times: number[] = [];
  for (let i = 0; i < samples; i++) times.push((await timed(() => work(i)))[1]);
  times.sort((a, b) => a - b);
  const at = (p: number) => times[Math.min(times.length - 1, Math.floor(p * times.length))]!.toFixed(1);
  return `p50 ${at(0.5)} ms, p99 ${at(0.99)} ms`;
}

// The messages' search indexes (their cost on the send path); the other tables' are not written by a send.
const MESSAGE_INDEXES = SEARCH_INDEXES.filter((statement) => /ON "messages"/.test(statement));

/**
 * The send path with and without the messages' search indexes, after the searches: three rounds
 * with, then three without (dropped), then the indexes are built again. Not before the build: a
 * build's checkpoint and the new index's cold pages slowed the next minutes' sends by up to half.
 */
async function sendWithAndWithoutIndexes(): Promise<void> {
  if (sendSeconds <= 0) return;
  const tokens = await liveVisitors(await bulk, SITE, 200);
  const rounds = async (label: string) => {
    for (let round = 1; round <= 3; round++) {
      const { rate, sends } = await sendLoop(tokens, SENDERS, forSeconds(sendSeconds));
      console.log(`send ${label}, round ${round}: ${rate.toFixed(1)} sends/s (${sends} in ${sendSeconds} s, ${SENDERS} senders)`);
    }
  };
  await rounds("with the messages' search indexes");
  await unhurried(MESSAGE_INDEXES.map((index) => `DROP INDEX ${/"(\w+)"/.exec(index)![1]}`));
  await rounds("without them");
  const [, rebuildMs] = await timed(() => unhurried(MESSAGE_INDEXES));
  console.log(`the messages' search indexes built again in ${(rebuildMs / 1000).toFixed(1)} s`);
}

async function main(): Promise<void> {
  if (!values.seeded) {
    const [, seedMs] = await timed(seed);
    const [, indexMs] = await timed(() => unhurried(SEARCH_INDEXES));
    await unhurried(["ANALYZE"]);
    console.log(`${conversations.toLocaleString("en")} conversations, ${(conversations * messagesPer).toLocaleString("en")} messages: seed ${(seedMs / 1000).toFixed(1)} s, search indexes ${(indexMs / 1000).toFixed(1)} s`);
  }
  const tickets = Math.max(1, Math.floor((conversations - 1) / 10) + 1);
  const queries: [string, (i: number) => string][] = [
    ["common word", (i) => COMMON[i % COMMON.length]!],
    ["two common words", (i) => `${COMMON[i % COMMON.length]} ${COMMON[(i + 3) % COMMON.length]}`],
    ["rare word", (i) => RARE[i % RARE.length]!],
    ["prefix", (i) => FILLER[i % FILLER.length]!.slice(0, 3)],
    ["ticket number", (i) => `#${1 + ((i * 7919) % tickets)}`],
  ];
  for (const [label, q] of queries) console.log(`search, ${label}: ${await percentiles((i) => search(searchQuery.parse({ q: q(i) })))}`);
  const member = { id: "bench-member", name: "Bench", email: "bench@example.com", role: "owner" as const, hasPicture: false };
  const filters: [string, Record<string, string>][] = [
    ["list first page", {}],
    ["list, status closed", { status: "closed" }],
    ["list, unassigned", { assigned: "unassigned" }],
    ["list, site", { site: "bench-site" }],
  ];
  for (const [label, filter] of filters) console.log(`${label}: ${await percentiles(() => listInboxConversations(member, conversationListQuery.parse(filter)))}`);
  await sendWithAndWithoutIndexes();
  const executor = await bulk;
  if ("end" in executor) await (executor as { end(): Promise<void> }).end();
  await closeDatabase();
}

await main();
