import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import type { SqlExecutor, SqlQuery } from "../lib/db/client";
import { seedArticles } from "./article-seed";
import { unhurried } from "./bulk-sql";
import { timed } from "./stats";

// The one data set of the scale benches (bench:search, bench:reports, bench:retention; issue 43
// item 4), written straight into a migrated database in bulk SQL. docs/performance.md, "The scale
// seed", describes the shape; bump SHAPE_VERSION when it changes, so that a database seeded with
// the old shape is refused instead of measured as if it held the new one.
//
// One site (service hours Europe/Berlin, weekdays 09:00-17:30), an owner, an agent of the first of
// four teams, three staff members who answer and a bot; conversation s starts s * spacing before
// now (`days` spread evenly) and holds `messages` messages, visitor and staff in turns, a note now
// and then, of 6..30 words from a support vocabulary; two in three are closed (one in twenty of
// those closed, reopened and closed again), a fifth of those closed rated. A fifth has no team,
// the rest are spread over the four; three in four are assigned; one in three carries a label,
// half have visitor attributes. One ticket, one expired visitor token, one page view and one sent
// outbox email per ten conversations, as old as it. The seed skips triggers
// (session_replication_role = replica: a superuser, on a scratch database only).

const SHAPE_VERSION = 2;

export const SCALE_SITE = { id: "bench-site", inbox: "bench-inbox", origin: "https://bench.example" };
export const OWNER = { id: "bench-owner", name: "Bench owner", email: "owner@bench.example", role: "owner" as const, hasPicture: false };
/** An agent of the first team: sees the conversations of that team and those of no team (two fifths). */
export const AGENT = { id: "bench-agent", name: "Bench agent", email: "agent@bench.example", role: "agent" as const, hasPicture: false };
const TEAMS = 4;
const STAFF = 3;
const LABELS = 5;
/** The first label's id (on one conversation in fifteen) and a value of the list attribute `plan` (one in six). */
export const BENCH_LABEL = "bench-label-1";
export const BENCH_PLAN = "pro";
const PLANS = ["free", BENCH_PLAN, "enterprise"];
const HOURS = JSON.stringify(Object.fromEntries(["mon", "tue", "wed", "thu", "fri"].map((day) => [day, [["09:00", "17:30"]]])));

// Words people write to support, by rough frequency: the first are common, the last rare.
export const COMMON = ["order", "delivery", "account", "password", "refund", "invoice", "shipping", "payment", "help", "problem"];
export const FILLER = ["please", "thanks", "today", "again", "still", "when", "could", "would", "like", "know", "check", "send", "email", "number", "week", "price", "size", "colour", "return", "address", "card", "login", "app", "page", "error", "working", "arrived", "wrong", "missing", "update"];
export const RARE = ["zeppelin", "quokka", "marmalade", "harpsichord", "obsidian"];

// One body of 6..30 words from the three lists, different for each row (the `0 * s` makes it per row).
const BODY = `(SELECT string_agg(CASE WHEN r < 0.0005 THEN (ARRAY['${RARE.join("','")}'])[1 + floor(random() * ${RARE.length})::int]
                                    WHEN r < 0.25 THEN (ARRAY['${COMMON.join("','")}'])[1 + floor(random() * ${COMMON.length})::int]
                                    ELSE (ARRAY['${FILLER.join("','")}'])[1 + floor(random() * ${FILLER.length})::int] END, ' ')
               FROM (SELECT random() AS r, g FROM generate_series(1, 6 + floor(random() * 25)::int + 0 * s) AS g) words)`;

const MIGRATIONS_DIR = path.resolve(import.meta.dirname, "../prisma/migrations");
/**
 * The search's indexes (the GIN indexes and the messages' created_at index), each as its latest
 * migration defines it (a later migration may redefine one: the visitors' index gained the generated
 * name in 20261205000000): dropped before the seed, built again (timed) after.
 */
export const SEARCH_INDEXES = [
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
export const indexName = (statement: string) => /"(\w+)"/.exec(statement)![1]!;

export interface ScaleShape {
  conversations: number;
  /** Messages per conversation (visitor and staff in turns), besides the close and reopen events. */
  messages: number;
  /** The days the conversations span, the newest now. */
  days: number;
  /** Published help center articles on the site (bench/article-seed.ts). */
  articles: number;
}

/** The flags every scale bench takes for the seed (parseArgs options). */
export const SCALE_SEED_FLAGS = {
  conversations: { type: "string" },
  messages: { type: "string" },
  days: { type: "string" },
  articles: { type: "string" },
  seeded: { type: "boolean" },
} as const;

/** The shape the flags ask for. */
export function shapeOf(values: { conversations?: string; messages?: string; days?: string; articles?: string }): ScaleShape {
  const shape = {
    conversations: Number(values.conversations ?? 10_000),
    messages: Number(values.messages ?? 10),
    days: Number(values.days ?? 365),
    articles: Number(values.articles ?? 0),
  };
  for (const [flag, value] of Object.entries(shape)) {
    if (!Number.isInteger(value) || value < 0) throw new Error(`--${flag}: "${value}" is not a whole number`);
  }
  if (shape.conversations < 1 || shape.messages < 2 || shape.days < 1) throw new Error("--conversations ≥ 1, --messages ≥ 2 (a question and a reply) and --days ≥ 1");
  return shape;
}

const describe = (shape: ScaleShape) =>
  `${shape.conversations.toLocaleString("en")} conversations × ${shape.messages} messages over ${shape.days} days, ${shape.articles.toLocaleString("en")} articles`;
const sameShape = (a: ScaleShape, b: ScaleShape) => a.conversations === b.conversations && a.messages === b.messages && a.days === b.days && a.articles === b.articles;

// Which shape the database holds: one row, written when a seed finished; a bench that changes the
// seed beyond what the others measure (the retention erases) deletes it.
const MARKER = "bench_scale_seed";

async function markedShape(sql: SqlQuery): Promise<ScaleShape | null> {
  await sql.executeSql(
    `CREATE TABLE IF NOT EXISTS ${MARKER} (version int NOT NULL, conversations int NOT NULL, messages int NOT NULL, days int NOT NULL, articles int NOT NULL, seeded_at timestamptz NOT NULL DEFAULT now())`,
  );
  const { rows } = await sql.executeSql(`SELECT version, conversations, messages, days, articles FROM ${MARKER}`);
  const row = rows[0];
  if (!row) return null;
  if (row.version !== SHAPE_VERSION) throw new Error(`This database holds version ${row.version} of the scale seed, not ${SHAPE_VERSION}: seed a fresh database.`);
  return { conversations: row.conversations, messages: row.messages, days: row.days, articles: row.articles };
}

/** Forgets the seed's shape: a later bench refuses the database (the retention bench erased part of it). */
export async function forgetScaleSeed(sql: SqlQuery): Promise<void> {
  await sql.executeSql(`DELETE FROM ${MARKER}`);
}

/**
 * The database seeded with `wanted`, or as it already is: with `reuse` (--seeded) whatever shape an
 * earlier run seeded; without, the one wanted, seeded now unless an earlier run seeded exactly it.
 * Answers the shape measured.
 */
export async function scaleSeed(sql: SqlExecutor, wanted: ScaleShape, reuse: boolean): Promise<ScaleShape> {
  const marked = await markedShape(sql);
  if (marked && (reuse || sameShape(marked, wanted))) {
    console.log(`reusing the scale seed: ${describe(marked)}`);
    return marked;
  }
  if (reuse) throw new Error("--seeded: no scale seed in this database (run once without --seeded, or it was erased by bench:retention).");
  if (marked) throw new Error(`This database holds another scale seed (${describe(marked)}): ask for that shape, pass --seeded, or seed a fresh database.`);
  const { rows } = await sql.executeSql(`SELECT 1 FROM sites WHERE id = $1`, [SCALE_SITE.id]);
  if (rows.length) throw new Error("This database holds an unfinished or erased scale seed: seed a fresh database (dropdb, createdb).");
  for (const index of SEARCH_INDEXES) await sql.executeSql(`DROP INDEX IF EXISTS ${indexName(index)}`);
  const [, seedMs] = await timed(() => seedRows(sql, wanted));
  const [, indexMs] = await timed(() => unhurried(sql, SEARCH_INDEXES));
  await unhurried(sql, ["ANALYZE"]);
  await sql.executeSql(`INSERT INTO ${MARKER} (version, conversations, messages, days, articles) VALUES ($1, $2, $3, $4, $5)`, [
    SHAPE_VERSION,
    wanted.conversations,
    wanted.messages,
    wanted.days,
    wanted.articles,
  ]);
  console.log(`seeded ${describe(wanted)}: seed ${(seedMs / 1000).toFixed(1)} s, search indexes ${(indexMs / 1000).toFixed(1)} s`);
  return wanted;
}

const BATCH = 5_000;

async function seedRows(sql: SqlExecutor, shape: ScaleShape): Promise<void> {
  await seedPeople(sql);
  // $1..$2: the batch's conversations; $3: seconds between two conversations' starts; $4: messages each.
  const spacing = (shape.days * 86_400) / shape.conversations;
  for (let from = 0; from < shape.conversations; from += BATCH) {
    const to = Math.min(shape.conversations, from + BATCH) - 1;
    await sql.transaction(async (tx) => {
      await tx.executeSql("SET LOCAL session_replication_role = replica");
      await tx.executeSql("SET LOCAL statement_timeout = 0");
      for (const statement of BATCH_STATEMENTS) await tx.executeSql(statement, [from, to, spacing, shape.messages].slice(0, parametersOf(statement)));
    });
    process.stdout.write(`\rseeded ${(to + 1).toLocaleString("en")} conversations`);
  }
  console.log();
  await sql.executeSql(`UPDATE inboxes SET last_ticket_number = (SELECT coalesce(max(number), 0) FROM tickets WHERE inbox_id = $1) WHERE id = $1`, [SCALE_SITE.inbox]);
  if (shape.articles) await seedArticles((text, values) => sql.executeSql(text, values), SCALE_SITE.id, shape.articles);
}

async function seedPeople(sql: SqlQuery): Promise<void> {
  await sql.executeSql(`INSERT INTO inboxes (id, name, daily_allowance) VALUES ($1, 'Bench', 100000000)`, [SCALE_SITE.inbox]);
  await sql.executeSql(
    `INSERT INTO sites (id, name, inbox_id, origins, timezone, hours, help_center_enabled) VALUES ($1, 'Bench', $2, ARRAY[$3], 'Europe/Berlin', $4::jsonb, true)`,
    [SCALE_SITE.id, SCALE_SITE.inbox, SCALE_SITE.origin, HOURS],
  );
  for (const member of [OWNER, AGENT]) await sql.executeSql(`INSERT INTO members (id, name, email, role) VALUES ($1, $2, $3, $4)`, [member.id, member.name, member.email, member.role]);
  await sql.executeSql(
    `INSERT INTO members (id, name, role, bot) SELECT 'bench-staff-' || n, 'Staff ' || n, 'agent', false FROM generate_series(1, ${STAFF}) AS n
     UNION ALL SELECT 'bench-bot', 'Bot', 'agent', true`,
  );
  await sql.executeSql(`INSERT INTO teams (id, name, name_key) SELECT 'bench-team-' || n, 'Team ' || n, 'team ' || n FROM generate_series(1, ${TEAMS}) AS n`);
  await sql.executeSql(`INSERT INTO team_members (team_id, member_id) VALUES ('bench-team-1', $1)`, [AGENT.id]);
  await sql.executeSql(`INSERT INTO labels (id, name, name_key, color) SELECT 'bench-label-' || n, 'Label ' || n, 'label ' || n, '#3366cc' FROM generate_series(1, ${LABELS}) AS n`);
  await sql.executeSql(
    `INSERT INTO attribute_definitions (key, label, type, options) VALUES ('plan', 'Plan', 'list', $1), ('seats', 'Seats', 'number', ARRAY[]::text[])`,
    [PLANS],
  );
}

// Conversation s: its start, the gap between two of its messages (a minute to an hour), the time of
// its k-th entry, its staff member, whether it is closed and reopened, and its number of events.
const START = `(now() - s * $3::float8 * interval '1 second')`;
const AT = (k: string) => `(${START} + (${k}) * (60 + s % 3600) * interval '1 second')`;
const STAFF_OF = `'bench-staff-' || (1 + s % ${STAFF})`;
const CLOSED = `s % 3 <> 0`;
const REOPENED = `(s % 3 <> 0 AND s % 20 = 1)`;
const EVENTS = `CASE WHEN ${REOPENED} THEN 3 WHEN ${CLOSED} THEN 1 ELSE 0 END`;
const TEAM_OF = `CASE WHEN s % 5 = 0 THEN NULL ELSE 'bench-team-' || (1 + s % ${TEAMS}) END`;
// A note every fourteenth message from the sixth (always a staff turn), beside the message before it.
const NOTE = `n % 14 = 6`;
const SERIES = `generate_series($1::int, $2::int) AS s`;
// Labels and plans are spread over open and closed conversations alike (CLOSED is s % 3 <> 0). In
// version 1 they followed s % 3 too, so no open conversation carried the bench's label or plan, and
// the list's default (open) filtered by them walked every conversation for an empty page.
const LABELLED = `(s + s / 3) % 3 = 1`; // one in each three, which of the three changing
const PLAN_INDEX = `s / 6 % ${PLANS.length}`;
const { id: SITE, inbox: INBOX, origin: ORIGIN } = SCALE_SITE;

// PostgreSQL refuses a parameter a statement does not use (it cannot tell its type).
const parametersOf = (statement: string) => Math.max(...[...statement.matchAll(/\$(\d)/g)].map((match) => Number(match[1])));

const BATCH_STATEMENTS = [
  `INSERT INTO conversations (id, site_id, inbox_id, status, origin, visitor_id, visitor_name, visitor_email, last_sequence,
                              created_at, last_activity_at, closed_at, assigned_member_id, team_id, attributes)
   SELECT 'sc' || s, '${SITE}', '${INBOX}', CASE WHEN ${CLOSED} THEN 'closed' ELSE 'open' END, '${ORIGIN}', 'v' || s,
          CASE WHEN s % 2 = 0 THEN 'Visitor ' || s END, CASE WHEN s % 4 = 0 THEN 'person' || s || '@mail.example' END, $4::int + ${EVENTS},
          ${START}, ${AT(`$4::int + ${EVENTS}`)}, CASE WHEN ${CLOSED} THEN ${AT(`$4::int + ${EVENTS}`)} END,
          CASE WHEN s % 4 = 0 THEN NULL ELSE ${STAFF_OF} END, ${TEAM_OF},
          CASE WHEN s % 2 = 0 THEN jsonb_build_object('plan', (ARRAY['${PLANS.join("','")}'])[1 + ${PLAN_INDEX}], 'seats', s % 100) ELSE '{}'::jsonb END
     FROM ${SERIES}`,
  `INSERT INTO messages (id, conversation_id, sequence, note_number, client_id, author_type, author_id, member_id, kind, body, created_at)
   SELECT 'sm' || s || '_' || n, 'sc' || s, CASE WHEN ${NOTE} THEN n - 1 ELSE n END, CASE WHEN ${NOTE} THEN 1 ELSE 0 END, 'c' || n,
          CASE WHEN n % 2 = 1 THEN 'visitor' ELSE 'staff' END, CASE WHEN n % 2 = 1 THEN 'v' || s ELSE staff END,
          CASE WHEN n % 2 = 0 THEN staff END, CASE WHEN ${NOTE} THEN 'note' ELSE 'message' END, ${BODY}, ${AT("n")}
     FROM ${SERIES}, generate_series(1, $4::int) AS n,
          LATERAL (SELECT CASE WHEN n = 2 AND s % 10 = 0 THEN 'bench-bot' ELSE ${STAFF_OF} END AS staff) AS who`,
  // The closes and the reopen, after the messages.
  `INSERT INTO messages (id, conversation_id, sequence, client_id, author_type, author_id, member_id, kind, body, event, created_at)
   SELECT 'sm' || s || '_' || ($4::int + e), 'sc' || s, $4::int + e, 'c' || ($4::int + e), 'system', 'system', ${STAFF_OF}, 'message',
          CASE e WHEN 2 THEN 'This conversation was reopened.' ELSE 'This conversation was closed.' END,
          CASE e WHEN 2 THEN 'conversation_reopened' ELSE 'conversation_closed' END, ${AT("$4::int + e")}
     FROM ${SERIES}, generate_series(1, 3) AS e
    WHERE e <= ${EVENTS}`,
  `INSERT INTO conversation_ratings (id, conversation_id, closed_at, score, created_at)
   SELECT 'sr' || s, 'sc' || s, ${AT(`$4::int + ${EVENTS}`)}, 1 + s / 5 % 5, ${AT(`$4::int + ${EVENTS}`)}
     FROM ${SERIES} WHERE ${CLOSED} AND s % 5 = 2`,
  `INSERT INTO conversation_labels (conversation_id, label_id)
   SELECT 'sc' || s, 'bench-label-' || (1 + s % ${LABELS}) FROM ${SERIES} WHERE ${LABELLED}`,
  `INSERT INTO tickets (id, site_id, inbox_id, number, origin, email, subject, body, created_at, team_id)
   SELECT 'st' || s, '${SITE}', '${INBOX}', s / 10 + 1, '${ORIGIN}', 'filer' || s || '@mail.example', ${BODY}, ${BODY}, ${START}, ${TEAM_OF}
     FROM ${SERIES} WHERE s % 10 = 0`,
  `INSERT INTO visitor_tokens (id, hash, conversation_id, origin, expires_at, created_at)
   SELECT 'sk' || s, 'seed-hash-' || s, 'sc' || s, '${ORIGIN}', ${START} + interval '1 day', ${START} FROM ${SERIES} WHERE s % 10 = 0`,
  `INSERT INTO page_views (id, site_id, origin, page_url, created_at)
   SELECT 'sp' || s, '${SITE}', '${ORIGIN}', '${ORIGIN}/', ${START} FROM ${SERIES} WHERE s % 10 = 0`,
  `INSERT INTO emails (id, kind, recipient, recipient_key, subject, text_body, html_body, status, created_at)
   SELECT 'se' || s, 'visitor_follow_up', 'x@mail.example', 'x@mail.example', 's', 't', 'h', 'sent', ${START} FROM ${SERIES} WHERE s % 10 = 0`,
];
