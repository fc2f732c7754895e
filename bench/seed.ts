import { createHash, randomBytes, randomUUID } from "node:crypto";
import pg from "pg";
import { DEMO_AVATAR_PNG_BASE64 } from "../lib/seed/demo-avatar";
import { hashToken } from "../lib/tokens/visitor-token";

// Bench data, written straight into the (already migrated) database: one site, one staff
// member with a picture, and `count` conversations each with a visitor token and one message.
// The first HISTORY_CONVERSATIONS conversations get HISTORY_LENGTH messages for the history scenario,
// a minute apart (at one instant, the SLA sweep failed on them: docs/performance.md, "Rules and SLA").

export const BENCH_SITE = "bench";
export const BENCH_ORIGIN = "http://bench.example";
export const BENCH_MEMBER = "agent";
export const HISTORY_CONVERSATIONS = 50;
const HISTORY_LENGTH = 60;
const BATCH = 500;

export interface Widget {
  conversationId: string;
  token: string;
  cursor: number;
}

/** What seeding needs of a database: a pg.Client or a PGlite (embedded mode, before the server opens it). */
export interface Sql {
  query(text: string, values?: unknown[]): Promise<{ rows: any[] }>;
}

/** Runs `work` on a client of the PostgreSQL database at `url`. */
export async function onPostgres<T>(url: string, work: (sql: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

export async function seedBench(database: string | Sql, count: number): Promise<Widget[]> {
  if (typeof database === "string") return onPostgres(database, (client) => seedBench(client, count));
  const client = database;
  await client.query(`INSERT INTO inboxes (id, name, daily_allowance) VALUES ('bench-inbox', 'Bench', 100000000)`);
  await client.query(`INSERT INTO sites (id, name, inbox_id, origins) VALUES ($1, 'Bench', 'bench-inbox', $2)`, [
    BENCH_SITE,
    [BENCH_ORIGIN],
  ]);
  const picture = Buffer.from(DEMO_AVATAR_PNG_BASE64, "base64");
  await client.query(
    `INSERT INTO members (id, name, avatar_bytes, avatar_content_type, avatar_tag) VALUES ($1, 'Bench Agent', $2, 'image/png', $3)`,
    [BENCH_MEMBER, picture, createHash("sha256").update(picture).digest("hex")],
  );
  const widgets: Widget[] = [];
  for (let start = 0; start < count; start += BATCH) {
    const batch = Array.from({ length: Math.min(BATCH, count - start) }, (_, i) => {
      const index = start + i;
      const messages = index < HISTORY_CONVERSATIONS ? HISTORY_LENGTH : 1;
      return { index, id: randomUUID(), token: `vt_${randomBytes(32).toString("base64url")}`, messages };
    });
    await insertBatch(client, batch);
    widgets.push(...batch.map((row) => ({ conversationId: row.id, token: row.token, cursor: row.messages })));
  }
  // The seed is a fixture, not activity: its ~7,000 outbox rows (one per message) would otherwise be
  // dispatched by the notification worker during the first scenario, which then measured that.
  await client.query(`DELETE FROM notification_events`);
  // As autovacuum would within a minute of such a write: without statistics the planner guessed a
  // few dozen conversations and chose per-row index probes for agents' unread count (docs/performance.md).
  await client.query("ANALYZE");
  return widgets;
}

async function insertBatch(client: Sql, rows: { id: string; token: string; messages: number }[]): Promise<void> {
  await client.query("BEGIN");
  await client.query(
    `INSERT INTO conversations (id, site_id, inbox_id, origin, visitor_id, visitor_name, last_sequence)
     SELECT id, $1, 'bench-inbox', $2, 'visitor_' || id, 'Bench Visitor', n FROM unnest($3::text[], $4::int[]) AS t(id, n)`,
    [BENCH_SITE, BENCH_ORIGIN, rows.map((r) => r.id), rows.map((r) => r.messages)],
  );
  await client.query(
    `INSERT INTO visitor_tokens (id, hash, conversation_id, origin, expires_at)
     SELECT gen_random_uuid()::text, hash, id, $1, now() + interval '24 hours' FROM unnest($2::text[], $3::text[]) AS t(hash, id)`,
    [BENCH_ORIGIN, rows.map((r) => hashToken(r.token)), rows.map((r) => r.id)],
  );
  await client.query(
    `INSERT INTO messages (id, conversation_id, sequence, client_id, author_type, author_id, member_id, kind, body, created_at)
     SELECT gen_random_uuid()::text, c.id, s,
            'seed-' || s, CASE WHEN s % 2 = 0 THEN 'staff' ELSE 'visitor' END,
            CASE WHEN s % 2 = 0 THEN $2 ELSE 'visitor_' || c.id END,
            CASE WHEN s % 2 = 0 THEN $2 ELSE NULL END,
            'message', 'Seeded message number ' || s, now() - (c.n - s) * interval '1 minute'
     FROM unnest($1::text[], $3::int[]) AS c(id, n), generate_series(1, c.n) AS s`,
    [rows.map((r) => r.id), BENCH_MEMBER, rows.map((r) => r.messages)],
  );
  await client.query("COMMIT");
}
