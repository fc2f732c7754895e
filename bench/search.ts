// npm run bench:search — search at scale (docs/performance.md, "Search"; issue #25). Seeds N
// conversations with realistic messages (10 each by default: visitor questions, staff replies,
// notes) and one ticket per ten conversations, builds the search indexes (timed), then times the
// search service (lib/search) for common words, rare words, prefixes and ticket numbers (the common
// word, the rare word and the prefix also at pages 2 and 10, through their cursors), and the
// inbox list's first page with each filter: p50/p99 in-process, no HTTP, each as an owner and as an
// agent of one of four teams (a fifth of the seed has no team: the agent sees two fifths). On a
// scratch database only: the seed skips triggers (session_replication_role = replica: a superuser,
// as the bench's own).
// Then the send scenario (in-process, bench/send-loop.ts) with and without the messages' search
// indexes, for their cost on the send path in the same run. --seeded measures a database an
// earlier run seeded and indexed.
//
//   DATABASE_URL=postgresql://postgres@127.0.0.1:5432/parley_bench_search npm run bench:search -- --conversations 1000000
//   npm run bench:search -- --conversations 2000          (embedded: PGlite in memory unless DATA_DIR is set)
//
// Flags (or SEARCH_BENCH_CONVERSATIONS, SEARCH_BENCH_MESSAGES, SEARCH_BENCH_SAMPLES):
// --conversations (default 2,000), --messages per conversation (default 10), --samples per query (default 50),
// --send-seconds per send round (default 10; 0 skips the send rounds), --seeded, --http (PostgreSQL,
// after `npm run build`: the same searches through `npm start` too, bench/search-http.ts).
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { closeDatabase, type SqlExecutor } from "../lib/db/client";
import { searchQuery } from "../lib/contracts/search";
import { conversationListQuery } from "../lib/contracts/inbox";
import { listInboxConversations } from "../lib/conversations/inbox-conversations";
import { search } from "../lib/search/search";
import { OPERATOR } from "../lib/teams/access";
import { forSeconds, liveVisitors, sendLoop } from "./send-loop";
import { bulkExecutor, unhurried } from "./bulk-sql";
import { searchOverHttp, sessionCookie, startProductionServer } from "./search-http";
import { percentiles, timed } from "./stats";

const { values } = parseArgs({
  options: {
    conversations: { type: "string" },
    messages: { type: "string" },
    samples: { type: "string" },
    "send-seconds": { type: "string" },
    seeded: { type: "boolean" },
    http: { type: "boolean" },
  },
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
const HTTP_PORT = 3917;
const SITE = { id: "bench-site", inbox: "bench-inbox", origin: "https://bench.example" };

const BATCH = 5_000;
const MIGRATIONS_DIR = path.resolve(import.meta.dirname, "../prisma/migrations");
// The search's indexes (the GIN indexes and the messages' created_at index, for the wider
// windows), each as its latest migration defines it (a later migration may redefine one: the
// visitors' index gained the generated name in 20261205000000), dropped before the seed and
// rebuilt (timed) after.
const SEARCH_INDEXES = [
  ...new Map(
    readdirSync(MIGRATIONS_DIR)
      .sort()
      .flatMap((name) => readFileSync(path.join(MIGRATIONS_DIR, name, "migration.sql"), "utf8").split(/;\s*\n/))
      .map((statement) => statement.replace(/^(\s*--.*\n)*/, "").trim())
      .flatMap((statement) => {
        const name = /^CREATE INDEX "(\w+_search_idx|messages_created_at_idx)"/.exec(statement)?.[1];
        return name ? [[name, statement] as const] : [];
      }),
  ).values(),
];

// Words people write to support, by rough frequency: the first are common, the last rare.
const COMMON = ["order", "delivery", "account", "password", "refund", "invoice", "shipping", "payment", "help", "problem"];
const FILLER = ["please", "thanks", "today", "again", "still", "when", "could", "would", "like", "know", "check", "send", "email", "number", "week", "price", "size", "colour", "return", "address", "card", "login", "app", "page", "error", "working", "arrived", "wrong", "missing", "update"];
const RARE = ["zeppelin", "quokka", "marmalade", "harpsichord", "obsidian"];

// One message body of 6..30 words, from the three lists ($1: a seed for the choice of words).
const BODY = `(SELECT string_agg(CASE WHEN r < 0.0005 THEN (ARRAY['${RARE.join("','")}'])[1 + floor(random() * ${RARE.length})::int]
                                    WHEN r < 0.25 THEN (ARRAY['${COMMON.join("','")}'])[1 + floor(random() * ${COMMON.length})::int]
                                    ELSE (ARRAY['${FILLER.join("','")}'])[1 + floor(random() * ${FILLER.length})::int] END, ' ')
               FROM (SELECT random() AS r, g FROM generate_series(1, 6 + floor(random() * 25)::int + 0 * s) AS g) words)`;

// Teams (issue 41's speed point): a fifth of the conversations and tickets has no team, the rest
// are spread over four; the bench's agent belongs to the first, so it sees two fifths of them.
const TEAMS = 4;
const TEAM_OF = `CASE WHEN s % 5 = 0 THEN NULL ELSE 'bench-team-' || (1 + s % ${TEAMS}) END`;
const OWNER = { id: "bench-owner", name: "Bench owner", email: "owner@bench.example", role: "owner" as const, hasPicture: false };
const AGENT = { id: "bench-agent", name: "Bench agent", email: "agent@bench.example", role: "agent" as const, hasPicture: false };

async function seedTeams(sql: SqlExecutor): Promise<void> {
  for (const member of [OWNER, AGENT]) {
    await sql.executeSql(`INSERT INTO members (id, name, email, role) VALUES ($1, $2, $3, $4) ON CONFLICT DO NOTHING`, [member.id, member.name, member.email, member.role]);
  }
  for (let team = 1; team <= TEAMS; team++) {
    await sql.executeSql(`INSERT INTO teams (id, name, name_key) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING`, [`bench-team-${team}`, `Team ${team}`, `team ${team}`]);
  }
  await sql.executeSql(`INSERT INTO team_members (team_id, member_id) VALUES ('bench-team-1', $1) ON CONFLICT DO NOTHING`, [AGENT.id]);
}

// The seed and the index builds take longer than the service's client lets a query run.
const bulk = bulkExecutor();

async function seed(): Promise<void> {
  const sql = await bulk;
  for (const index of SEARCH_INDEXES) await sql.executeSql(`DROP INDEX IF EXISTS ${/"(\w+)"/.exec(index)![1]}`);
  await sql.executeSql(`INSERT INTO inboxes (id, name, daily_allowance) VALUES ('bench-inbox', 'Bench', 100000000) ON CONFLICT DO NOTHING`);
  await sql.executeSql(`INSERT INTO sites (id, name, inbox_id, origins) VALUES ('bench-site', 'Bench', 'bench-inbox', ARRAY['https://bench.example']) ON CONFLICT DO NOTHING`);
  await seedTeams(sql);
  for (let from = 0; from < conversations; from += BATCH) {
    const to = Math.min(conversations, from + BATCH) - 1;
    await sql.transaction(async (tx) => {
      await tx.executeSql("SET LOCAL session_replication_role = replica");
      await tx.executeSql("SET LOCAL statement_timeout = 0");
      await tx.executeSql(
        `INSERT INTO conversations (id, site_id, inbox_id, status, origin, visitor_id, visitor_name, visitor_email, last_sequence, created_at, last_activity_at, team_id)
         SELECT 'bc' || s, 'bench-site', 'bench-inbox', CASE WHEN s % 3 = 0 THEN 'closed' ELSE 'open' END, 'https://bench.example', 'v' || s,
                CASE WHEN s % 2 = 0 THEN 'Visitor ' || s END, CASE WHEN s % 4 = 0 THEN 'person' || s || '@mail.example' END, $3::int,
                now() - (s || ' minutes')::interval, now() - (s || ' minutes')::interval + interval '30 seconds', ${TEAM_OF}
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
        `INSERT INTO tickets (id, site_id, inbox_id, number, origin, email, subject, body, created_at, team_id)
         SELECT 'bt' || s, 'bench-site', 'bench-inbox', s / 10 + 1, 'https://bench.example', 'filer' || s || '@mail.example',
                ${BODY}, ${BODY}, now() - (s || ' minutes')::interval, ${TEAM_OF}
           FROM generate_series($1::int, $2::int) AS s WHERE s % 10 = 0`,
        [from, to],
      );
    });
    process.stdout.write(`\rseeded ${Math.min(conversations, to + 1).toLocaleString("en")} conversations`);
  }
  await sql.executeSql(`UPDATE inboxes SET last_ticket_number = (SELECT coalesce(max(number), 0) FROM tickets WHERE inbox_id = 'bench-inbox') WHERE id = 'bench-inbox'`);
  console.log();
}

/** The cursor that opens page `page` of q ("" for the first page; null when there is no such page). */
async function cursorOf(q: string, page: number): Promise<string | null> {
  let cursor = "";
  for (let at = 1; at < page; at++) {
    const next = (await search(OPERATOR, searchQuery.parse({ q, ...(cursor ? { cursor } : {}) }))).next_cursor;
    if (next === null) return null;
    cursor = next;
  }
  return cursor;
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
  await unhurried(await bulk, MESSAGE_INDEXES.map((index) => `DROP INDEX ${/"(\w+)"/.exec(index)![1]}`));
  await rounds("without them");
  const [, rebuildMs] = await timed(async () => unhurried(await bulk, MESSAGE_INDEXES));
  console.log(`the messages' search indexes built again in ${(rebuildMs / 1000).toFixed(1)} s`);
}

type SearchParams = { q: string; cursor?: string };

/** The same searches through `npm start` on the same database, as the same members with a session each. */
async function overHttp(measured: { label: string; params: (i: number) => SearchParams }[], lookers: readonly (readonly [string, { id: string }])[]) {
  const url = process.env.DATABASE_URL;
  if (!url) throw new Error("--http needs DATABASE_URL (PostgreSQL: the server and this process share the database)");
  const server = await startProductionServer(url, HTTP_PORT);
  try {
    const sql = await bulk;
    const askers = await Promise.all(lookers.map(async ([who, looker]) => [who, searchOverHttp(HTTP_PORT, await sessionCookie(sql, looker.id))] as const));
    for (const { label, params } of measured) {
      for (const [who, ask] of askers) console.log(`search over HTTP, ${label}, ${who}: ${await percentiles((i) => ask(params(i)), samples)}`);
    }
  } finally {
    await server.stop();
  }
}

async function main(): Promise<void> {
  if (!values.seeded) {
    const [, seedMs] = await timed(seed);
    const [, indexMs] = await timed(async () => unhurried(await bulk, SEARCH_INDEXES));
    await unhurried(await bulk, ["ANALYZE"]);
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
  // Every page, not only the first (issue 43): pages 2 and 10 continue from the cursor of the page
  // before, found once beforehand (not timed).
  const measured: { label: string; params: (i: number) => SearchParams }[] = queries.map(([label, q]) => ({ label, params: (i) => ({ q: q(i) }) }));
  for (const page of [1, 2, 10]) {
    for (const [label, q] of queries.filter(([label]) => ["common word", "rare word", "prefix"].includes(label))) {
      const cursors = await Promise.all(Array.from({ length: Math.min(samples, 10) }, (_, i) => cursorOf(q(i), page)));
      const reached = cursors.flatMap((cursor, i) => (cursor === null ? [] : [[q(i), cursor] as const]));
      if (!reached.length) {
        console.log(`search, ${label}, page ${page}: no page ${page} at this size`);
        continue;
      }
      measured.push({
        label: `${label}, page ${page}`,
        params: (i) => {
          const [word, cursor] = reached[i % reached.length]!;
          return { q: word, ...(cursor ? { cursor } : {}) };
        },
      });
    }
  }
  // Each as an owner (the rule folds away) and as an agent of one team (the rule's probes run).
  const lookers = [["owner", OWNER], ["agent", AGENT]] as const;
  for (const { label, params } of measured) {
    for (const [who, looker] of lookers) console.log(`search, ${label}, ${who}: ${await percentiles((i) => search(looker, searchQuery.parse(params(i))), samples)}`);
  }
  if (values.http) await overHttp(measured, lookers);
  const filters: [string, Record<string, string>][] = [
    ["list first page", {}],
    ["list, status closed", { status: "closed" }],
    ["list, unassigned", { assigned: "unassigned" }],
    ["list, site", { site: "bench-site" }],
  ];
  for (const [label, filter] of filters) {
    for (const [who, looker] of lookers) console.log(`${label}, ${who}: ${await percentiles(() => listInboxConversations(looker, conversationListQuery.parse(filter)), samples)}`);
  }
  await sendWithAndWithoutIndexes();
  const executor = await bulk;
  if ("end" in executor) await (executor as { end(): Promise<void> }).end();
  await closeDatabase();
}

await main();
