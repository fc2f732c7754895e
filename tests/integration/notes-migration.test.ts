import { cpSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { describe, expect, test } from "vitest";
import { APPEND_MESSAGE, PUBLIC_MESSAGES_AFTER } from "../../lib/conversations/statements";
import { defaultMigrationsDir, pgliteSession, runMigrations } from "../../lib/db/migrations";

// Issue 9, item 10: the migration that takes notes out of the public sequence. Conversations
// written before it keep their public numbers (old gaps stay), so a visitor's cursor still means
// what it meant; old notes keep their place in the staff timeline; new notes make no gap.

const NOTES_MIGRATION = "20261123010000_notes_outside_public_sequence";

/** A folder with the migrations before `name` only. */
function migrationsBefore(name: string): string {
  const dir = mkdtempSync(path.join(tmpdir(), "parley-migrations-"));
  for (const entry of readdirSync(defaultMigrationsDir()).filter((entry) => entry < name)) {
    cpSync(path.join(defaultMigrationsDir(), entry), path.join(dir, entry), { recursive: true });
  }
  return dir;
}

describe("the notes-outside-the-public-sequence migration", () => {
  test("an existing conversation's cursor still works, old notes keep their place, new notes leave no gap", async () => {
    const database = await PGlite.create("memory://");
    const older = migrationsBefore(NOTES_MIGRATION);
    try {
      await runMigrations(pgliteSession(database), older);
      // As the old code wrote it: message 1, reply 2, note 3, reply 4, note 5, note 6 (last_sequence 6).
      await database.exec(`
        INSERT INTO inboxes (id, name) VALUES ('inbox-1', 'Shop');
        INSERT INTO sites (id, name, inbox_id, origins) VALUES ('site-1', 'Shop', 'inbox-1', ARRAY['https://shop.example']);
        INSERT INTO members (id, name) VALUES ('sam', 'Sam');
        INSERT INTO conversations (id, site_id, inbox_id, origin, visitor_id, last_sequence)
          VALUES ('conv-1', 'site-1', 'inbox-1', 'https://shop.example', 'v-1', 6);
        INSERT INTO messages (id, conversation_id, sequence, client_id, author_type, author_id, member_id, kind, body) VALUES
          ('m1', 'conv-1', 1, 'c1', 'visitor', 'v-1', NULL, 'message', 'hello'),
          ('m2', 'conv-1', 2, 's2', 'staff', 'sam', 'sam', 'message', 'hi there'),
          ('m3', 'conv-1', 3, 's3', 'staff', 'sam', 'sam', 'note', 'old note A'),
          ('m4', 'conv-1', 4, 's4', 'staff', 'sam', 'sam', 'message', 'answer'),
          ('m5', 'conv-1', 5, 's5', 'staff', 'sam', 'sam', 'note', 'old note B'),
          ('m6', 'conv-1', 6, 's6', 'staff', 'sam', 'sam', 'note', 'old note C');
      `);
      // Before: the list's query as the old code ran it. After: the service's own statement.
      const pageBefore = async (cursor: number) =>
        (await database.query<{ sequence: number; body: string }>(
          `SELECT sequence, body FROM messages WHERE conversation_id = $1 AND kind = 'message' AND sequence > $2 ORDER BY sequence LIMIT $3`,
          ["conv-1", cursor, 50],
        )).rows.map((row) => [row.sequence, row.body]);
      const page = async (cursor: number) =>
        (await database.query<{ sequence: number; body: string }>(PUBLIC_MESSAGES_AFTER.text, ["conv-1", cursor, 50])).rows.map((row) => [row.sequence, row.body]);
      const cursorsBefore = { 0: await pageBefore(0), 2: await pageBefore(2), 4: await pageBefore(4) };
      expect(cursorsBefore[2]).toEqual([[4, "answer"]]);

      // This migration first, then whichever came after it.
      expect(await runMigrations(pgliteSession(database))).toEqual(readdirSync(defaultMigrationsDir()).filter((entry) => entry >= NOTES_MIGRATION).sort());

      // Every cursor a visitor could hold answers exactly as before.
      expect({ 0: await page(0), 2: await page(2), 4: await page(4) }).toEqual(cursorsBefore);
      expect(await page(2)).toEqual([[4, "answer"]]);
      // Old notes: keyed by the public message they follow, numbered in order; the timeline holds.
      const timeline = async () =>
        (await database.query<{ body: string; sequence: number; note_number: number }>(
          `SELECT body, sequence, note_number FROM messages WHERE conversation_id = 'conv-1' ORDER BY sequence, note_number`,
        )).rows.map((row) => [row.body, row.sequence, row.note_number]);
      expect(await timeline()).toEqual([
        ["hello", 1, 0],
        ["hi there", 2, 0],
        ["old note A", 2, 1],
        ["answer", 4, 0],
        ["old note B", 4, 2],
        ["old note C", 4, 3],
      ]);
      const { rows } = await database.query<{ last_sequence: number; last_note_number: number }>(
        `SELECT last_sequence, last_note_number FROM conversations WHERE id = 'conv-1'`,
      );
      expect(rows).toEqual([{ last_sequence: 6, last_note_number: 3 }]);

      // After the migration, with the service's own statement: a note takes no public number.
      const append = (id: string, kind: string) =>
        database.query(APPEND_MESSAGE.text, [id, "conv-1", `client-${id}`, "staff", "sam", "sam", kind, id, false, null]);
      await append("new note", "note");
      await append("new reply", "message");
      expect(await page(4)).toEqual([[7, "new reply"]]);
      expect((await timeline()).slice(-2)).toEqual([
        ["new note", 6, 4],
        ["new reply", 7, 0],
      ]);
    } finally {
      rmSync(older, { recursive: true, force: true });
      await database.close();
    }
  });
});
