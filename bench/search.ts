// npm run bench:search — search at scale (docs/performance.md, "Search"; issue #25) on the scale
// benches' one seed (bench/scale-seed.ts: its search indexes dropped for the seed and built again,
// timed). Times the search service (lib/search) for common words, rare words, prefixes and ticket
// numbers (the common word, the rare word and the prefix also at pages 2 and 10, through their
// cursors), and the inbox list's first page with each filter: p50/p99 in-process, no HTTP, each as
// an owner and as an agent of one of four teams (the agent sees two fifths of the seed).
// Then the send scenario (in-process, bench/send-loop.ts) with and without the messages' search
// indexes, for their cost on the send path in the same run.
//
//   DATABASE_URL=postgresql://postgres@127.0.0.1:5432/parley_bench_scale npm run bench:search -- --conversations 1000000
//   npm run bench:search -- --conversations 2000          (embedded: PGlite in memory unless DATA_DIR is set)
//
// Flags: the seed's (--conversations, default 10,000; --messages per conversation, 10; --days, 365;
// --articles, 0; --seeded: the database as an earlier run seeded it), --samples per query (or
// SEARCH_BENCH_SAMPLES; default 50), --send-seconds per send round (default 10; 0 skips the send
// rounds), --http (PostgreSQL, after `npm run build`: the same searches through `npm start` too,
// bench/search-http.ts).
import { parseArgs } from "node:util";
import { closeDatabase } from "../lib/db/client";
import { searchQuery } from "../lib/contracts/search";
import { conversationListQuery } from "../lib/contracts/inbox";
import { listInboxConversations } from "../lib/conversations/inbox-conversations";
import { search } from "../lib/search/search";
import { OPERATOR } from "../lib/teams/access";
import { forgetLiveVisitors, forSeconds, liveVisitors, sendLoop } from "./send-loop";
import { bulkExecutor, endBulk, unhurried } from "./bulk-sql";
import { searchOverHttp, sessionCookie, startProductionServer } from "./search-http";
import { AGENT, BENCH_LABEL, BENCH_PLAN, COMMON, FILLER, indexName, OWNER, RARE, SCALE_SEED_FLAGS, SCALE_SITE, SEARCH_INDEXES, scaleSeed, shapeOf } from "./scale-seed";
import { percentiles, timed } from "./stats";

const { values } = parseArgs({
  options: {
    ...SCALE_SEED_FLAGS,
    samples: { type: "string" },
    "send-seconds": { type: "string" },
    http: { type: "boolean" },
  },
});
const samples = Number(values.samples ?? process.env.SEARCH_BENCH_SAMPLES ?? 50);
const sendSeconds = Number(values["send-seconds"] ?? 10);
if (!process.env.DATABASE_URL) process.env.DATA_DIR ??= "memory://";
process.env.ADMIN_TOKEN ??= "bench-admin-token-0123456789abcdef";
process.env.RATE_LIMITS = "off";
process.env.LOG_LEVEL ??= "warn";
const SENDERS = 8;
const HTTP_PORT = 3917;

// The seed and the index builds take longer than the service's client lets a query run.
const bulk = bulkExecutor();

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
  const tokens = await liveVisitors(await bulk, SCALE_SITE, 200);
  const rounds = async (label: string) => {
    for (let round = 1; round <= 3; round++) {
      const { rate, sends } = await sendLoop(tokens, SENDERS, forSeconds(sendSeconds));
      console.log(`send ${label}, round ${round}: ${rate.toFixed(1)} sends/s (${sends} in ${sendSeconds} s, ${SENDERS} senders)`);
    }
  };
  await rounds("with the messages' search indexes");
  await unhurried(await bulk, MESSAGE_INDEXES.map((index) => `DROP INDEX ${indexName(index)}`));
  await rounds("without them");
  const [, rebuildMs] = await timed(async () => unhurried(await bulk, MESSAGE_INDEXES));
  console.log(`the messages' search indexes built again in ${(rebuildMs / 1000).toFixed(1)} s`);
  await forgetLiveVisitors(await bulk);
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
  const { conversations } = await scaleSeed(await bulk, shapeOf(values), values.seeded ?? false);
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
    ["list, site", { site: SCALE_SITE.id }],
    ["list, label", { label: BENCH_LABEL }],
    ["list, attribute", { "attr.plan": BENCH_PLAN }],
    // Filters the seed gives nothing (no mentions, no SLA policy): a walk would look at every conversation.
    ["list, a label no conversation carries", { label: "bench-label-unused" }],
    ["list, mentioning me", { mentioned: "me" }],
    ["list, SLA due soon", { sla: "due_soon" }],
  ];
  for (const [label, filter] of filters) {
    for (const [who, looker] of lookers) console.log(`${label}, ${who}: ${await percentiles(() => listInboxConversations(looker, conversationListQuery.parse(filter)), samples)}`);
  }
  await sendWithAndWithoutIndexes();
  await endBulk(await bulk);
  await closeDatabase();
}

await main();
