import { describe, expect, test } from "vitest";
import { sqlExecutor } from "../../lib/db/client";
import { BENCH_LABEL, BENCH_PLAN, forgetScaleSeed, scaleSeed, type ScaleShape } from "../../bench/scale-seed";

// The scale benches' one seed (bench/scale-seed.ts): search, reports and retention read the same
// rows, so each conversation must be a timeline the service could have written (the reports
// measure it, the retention erases by its close), and a database holding one shape is never
// measured as another.

const SHAPE: ScaleShape = { conversations: 300, messages: 10, days: 30, articles: 20 };

describe("the scale seed", () => {
  test("writes the shape docs/performance.md describes, each conversation a consistent timeline", async () => {
    const sql = await sqlExecutor();
    expect(await scaleSeed(sql, SHAPE, false)).toEqual(SHAPE);
    const count = async (query: string) => Number((await sql.executeSql(query)).rows[0].n);
    expect(await count(`SELECT count(*) AS n FROM conversations`)).toBe(300);
    expect(await count(`SELECT count(*) AS n FROM conversations WHERE status = 'closed'`)).toBe(200);
    expect(await count(`SELECT count(*) AS n FROM conversations WHERE team_id IS NULL`)).toBe(60);
    expect(await count(`SELECT count(*) AS n FROM conversations WHERE assigned_member_id IS NOT NULL`)).toBe(225);
    expect(await count(`SELECT count(*) AS n FROM conversation_labels`)).toBe(100);
    // The bench's label and plan are on open conversations too (the list's default filter), as on closed ones.
    for (const status of ["open", "closed"]) {
      expect(await count(`SELECT count(*) AS n FROM conversation_labels l JOIN conversations c ON c.id = l.conversation_id WHERE l.label_id = '${BENCH_LABEL}' AND c.status = '${status}'`)).toBeGreaterThan(0);
      expect(await count(`SELECT count(*) AS n FROM conversations WHERE attributes ->> 'plan' = '${BENCH_PLAN}' AND status = '${status}'`)).toBeGreaterThan(0);
    }
    expect(await count(`SELECT count(*) AS n FROM tickets`)).toBe(30);
    expect(await count(`SELECT last_ticket_number AS n FROM inboxes WHERE id = 'bench-inbox'`)).toBe(30);
    expect(await count(`SELECT count(*) AS n FROM articles WHERE status = 'published'`)).toBe(20);
    // Every staff message and event by a member who exists; notes only on staff turns.
    expect(await count(`SELECT count(*) AS n FROM messages m WHERE m.member_id IS NOT NULL AND NOT EXISTS (SELECT 1 FROM members WHERE id = m.member_id)`)).toBe(0);
    expect(await count(`SELECT count(*) AS n FROM messages WHERE author_type = 'staff' AND member_id IS NULL`)).toBe(0);
    expect(await count(`SELECT count(*) AS n FROM messages WHERE kind = 'note' AND author_type <> 'staff'`)).toBe(0);
    // The conversation's columns agree with its messages: last sequence, last activity, the close.
    const inconsistent = await sql.executeSql(
      `SELECT c.id FROM conversations c
         JOIN LATERAL (SELECT max(sequence) AS last, max(created_at) AS latest,
                              max(created_at) FILTER (WHERE event = 'conversation_closed') AS closed,
                              (array_agg(event ORDER BY sequence DESC) FILTER (WHERE event IS NOT NULL))[1] AS final_event
                         FROM messages WHERE conversation_id = c.id) m ON true
        WHERE c.last_sequence <> m.last OR c.last_activity_at <> m.latest OR c.closed_at IS DISTINCT FROM m.closed
           OR (c.status = 'closed') <> (m.final_event IS NOT DISTINCT FROM 'conversation_closed')`,
    );
    expect(inconsistent.rows).toEqual([]);
    // A rating rates a close that happened.
    expect(await count(`SELECT count(*) AS n FROM conversation_ratings r JOIN conversations c ON c.id = r.conversation_id WHERE r.closed_at <> c.closed_at`)).toBe(0);
    expect(await count(`SELECT count(*) AS n FROM conversation_ratings`)).toBeGreaterThan(0);
    // The conversations span the days asked for, the newest now.
    const span = (await sql.executeSql(`SELECT extract(epoch FROM max(created_at) - min(created_at)) / 86400 AS days FROM conversations`)).rows[0];
    expect(Number(span.days)).toBeGreaterThan(29.8);
    expect(Number(span.days)).toBeLessThanOrEqual(30);
  });

  test("is reused for the same shape, refused for another, and gone once forgotten", async () => {
    const sql = await sqlExecutor();
    const before = Number((await sql.executeSql(`SELECT count(*) AS n FROM messages`)).rows[0].n);
    expect(await scaleSeed(sql, SHAPE, false)).toEqual(SHAPE);
    expect(await scaleSeed(sql, { ...SHAPE, conversations: 1 }, true)).toEqual(SHAPE);
    expect(Number((await sql.executeSql(`SELECT count(*) AS n FROM messages`)).rows[0].n)).toBe(before);
    await expect(scaleSeed(sql, { ...SHAPE, messages: 4 }, false)).rejects.toThrow(/another scale seed \(300 conversations × 10 messages/);
    await forgetScaleSeed(sql);
    await expect(scaleSeed(sql, SHAPE, true)).rejects.toThrow(/no scale seed in this database/);
    await expect(scaleSeed(sql, SHAPE, false)).rejects.toThrow(/unfinished or erased scale seed/);
  });
});
