import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { gunzipSync } from "node:zlib";
import { PGlite } from "@electric-sql/pglite";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { backupEmbedded } from "../../lib/backup/embedded-backup";
import { closeDatabase, db } from "../../lib/db/client";
import { eraseExpiredRecords } from "../../lib/privacy/retention";
import { api } from "../support/api";
import { createSite, ORIGIN, startConversation } from "../support/fixtures";
import { testDatabaseUrl } from "../support/postgres";
import { fileTicket, filesUnder, ticket } from "../support/tickets";

// Issue 38, defect 3: an erased person's words must leave the embedded database's files (heap,
// indexes, WAL) and the backups taken afterwards, not only its rows. Each test writes words of its
// own, erases them, stops the database gracefully and greps every byte under DATA_DIR.

const embedded = !testDatabaseUrl();
if (!embedded) console.log("erasure-leaves-no-bytes: skipped (embedded PGlite only)");
const dataDir = mkdtempSync(path.join(tmpdir(), "parley-erasure-"));
if (embedded) {
  process.env.DATA_DIR = dataDir;
  process.env.UPLOADS_DIR = path.join(dataDir, "uploads");
}
// The database on disk starts from the run's migrated dump (tests/support/global-setup.ts): an
// initdb and every migration take a minute on a busy machine.
beforeAll(async () => {
  if (!embedded) return;
  const seed = new Blob([readFileSync(process.env.EMBEDDED_SEED_FILE!)]);
  await (await PGlite.create(path.join(dataDir, "pglite"), { loadDataDir: seed })).close();
  await db();
});
afterAll(async () => {
  await closeDatabase();
  rmSync(dataDir, { recursive: true, force: true });
});

/** Which of the words some file under `dir` holds (as written, and as the search index folds them). */
function wordsUnder(dir: string, words: string[]): string[] {
  const contents = filesUnder(dir).map((file) => readFileSync(path.join(dir, file)));
  return words.filter((word) => contents.some((bytes) => bytes.includes(word) || bytes.includes(word.toLowerCase().slice(0, 7))));
}

/** One visitor's conversation (name, email, messages) and ticket, through the widget's routes. */
async function visitorWrites(siteId: string, words: { name: string; email: string; chat: string; ticket: string }) {
  const started = await startConversation(siteId, { name: words.name, email: words.email, body: `Hello, ${words.chat} here` });
  const sent = await api.post("/api/v1/chat/visitor/messages", { origin: ORIGIN, token: started.token, body: { client_id: `c-${words.chat}`, body: `My ${words.chat} arrived broken` } });
  expect(sent.status).toBe(201);
  await fileTicket(siteId, ticket({ email: words.email, name: words.name, subject: `${words.ticket} order`, body: `The ${words.ticket} never came` }));
  return started;
}

describe.runIf(embedded)("erasure leaves no bytes in DATA_DIR", () => {
  const erased = { name: "Quillonia Vexmarrow", email: "quillonia.vexmarrow@example.com", chat: "zorbulentish", ticket: "fennigrastic" };
  const kept = { name: "Ottoline Brambleway", email: "ottoline.brambleway@example.com", chat: "plinthovaric", ticket: "snorvellian" };
  const erasedWords = [erased.name, erased.email, erased.chat, erased.ticket, "Vexmarrow"];

  test("after a privacy erasure and a graceful stop, no file under DATA_DIR holds the person's words", async () => {
    const site = await createSite();
    await visitorWrites(site.id, kept);
    await visitorWrites(site.id, erased);
    const response = await api.post("/api/v1/admin/privacy/erase", { admin: true, body: { email: erased.email } });
    expect(response.status, JSON.stringify(response.json)).toBe(200);
    expect(response.json.result).toMatchObject({ conversations: 1, messages: 2, tickets: 1 });
    await closeDatabase(); // the graceful stop: PGlite writes everything to DATA_DIR

    expect(wordsUnder(dataDir, [kept.name, kept.chat, kept.ticket])).toEqual([kept.name, kept.chat, kept.ticket]); // the grep finds what is kept
    expect(wordsUnder(dataDir, erasedWords)).toEqual([]);
  });

  test("a backup taken after that erasure holds none of the person's words", async () => {
    const archive = path.join(dataDir, "..", `${path.basename(dataDir)}-backup.tar.gz`);
    try {
      await backupEmbedded({ dataDir, uploadsDir: path.join(dataDir, "uploads") }, archive);
      const unpacked = gunzipSync(readFileSync(archive));
      expect(unpacked.includes(kept.chat)).toBe(true);
      expect(erasedWords.filter((word) => unpacked.includes(word) || unpacked.includes(word.toLowerCase().slice(0, 7)))).toEqual([]);
    } finally {
      rmSync(archive, { force: true });
    }
  });

  test("after retention erases expired conversations, no file under DATA_DIR holds their words", async () => {
    const site = await createSite();
    const expired = { name: "Drusilla Quenchmoor", email: "drusilla.quenchmoor@example.com", chat: "grumbletonic", ticket: "wheezlebark" };
    const started = await visitorWrites(site.id, expired);
    const prisma = await db();
    const longAgo = new Date(Date.now() - 40 * 86_400_000);
    await prisma.site.update({ where: { id: site.id }, data: { retentionDays: 30 } });
    await prisma.conversation.update({ where: { id: started.conversationId }, data: { status: "closed", closedAt: longAgo } });
    await prisma.ticket.updateMany({ where: { siteId: site.id }, data: { createdAt: longAgo } });

    expect(await eraseExpiredRecords()).toEqual({ conversations: 1, tickets: 1 });
    await closeDatabase();

    expect(wordsUnder(dataDir, [expired.name, expired.email, expired.chat, expired.ticket, "Quenchmoor"])).toEqual([]);
  });
});
