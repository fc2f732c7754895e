import { randomBytes, randomUUID } from "node:crypto";
import { performance } from "node:perf_hooks";
import { setImmediate as nextTurn } from "node:timers/promises";
import type { SqlQuery } from "../lib/db/client";
import { authenticateVisitor, hashToken } from "../lib/tokens/visitor-token";
import { sendVisitorMessage } from "../lib/conversations/visitor-messages";

// The send scenario in-process (the token lookup and the append, no HTTP), for the scale benches
// that ask whether something beside it (an index, the retention job) slows it down.

/** `count` open conversations on `site` (of `inbox`, allowed `origin`), each with a live visitor token. */
export async function liveVisitors(sql: SqlQuery, site: { id: string; inbox: string; origin: string }, count: number): Promise<string[]> {
  const tokens: string[] = [];
  for (let i = 0; i < count; i++) {
    const id = `live-${randomUUID()}`;
    const token = `vt_${randomBytes(32).toString("base64url")}`;
    await sql.executeSql(`INSERT INTO conversations (id, site_id, inbox_id, origin, visitor_id) VALUES ($1, $2, $3, $4, $1) ON CONFLICT DO NOTHING`, [
      id,
      site.id,
      site.inbox,
      site.origin,
    ]);
    await sql.executeSql(`INSERT INTO visitor_tokens (id, hash, conversation_id, origin, expires_at) VALUES ($1, $2, $3, $4, now() + interval '1 day')`, [
      randomUUID(),
      hashToken(token),
      id,
      site.origin,
    ]);
    tokens.push(token);
  }
  return tokens;
}

/**
 * Deletes the conversations liveVisitors made, with what the sends wrote, so the scale seed is left
 * as its marker describes: a later run's first window of recent conversations would otherwise be
 * these few, holding a hundred thousand messages that match nothing the searches ask.
 */
export async function forgetLiveVisitors(sql: SqlQuery): Promise<void> {
  const live = `SELECT id FROM conversations WHERE id LIKE 'live-%'`;
  for (const table of ["message_attachments", "messages", "visitor_tokens", "presence"]) await sql.executeSql(`DELETE FROM ${table} WHERE conversation_id IN (${live})`);
  await sql.executeSql(`DELETE FROM conversations WHERE id LIKE 'live-%'`);
}

/** `senders` visitors send in a closed loop until `until` resolves; answers sends per second. */
export async function sendLoop(tokens: string[], senders: number, until: Promise<unknown>): Promise<{ rate: number; sends: number }> {
  let done = false;
  void until.then(() => (done = true));
  let sends = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: senders }, async (_, worker) => {
      for (let i = 0; !done; i++) {
        const visitor = await authenticateVisitor(`Bearer ${tokens[(worker + i * senders) % tokens.length]}`);
        await sendVisitorMessage(visitor, { body: "Is anyone there?", clientId: randomUUID(), kind: "message" });
        sends++;
        // PGlite answers in microtasks: without a turn of the event loop, the timer that ends the loop never fires.
        await nextTurn();
      }
    }),
  );
  return { rate: (sends * 1000) / (performance.now() - started), sends };
}

export const forSeconds = (seconds: number) => new Promise((resolve) => setTimeout(resolve, seconds * 1000));
