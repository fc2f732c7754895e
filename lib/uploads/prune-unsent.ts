import { db } from "../db/client";
import { storageOf } from "./storage";
import { paced } from "../core/paced";

// A file uploaded into a conversation but never sent (the visitor or member cancelled, closed the
// tab, or the send failed for good) is deleted with its bytes once it is UNSENT_UPLOAD_HOURS old.
// Runs with the daily retention job (lib/privacy/retention.ts), so at most a day later than that.

export const UNSENT_UPLOAD_HOURS = 24;
const BATCH_SIZE = 500;
const HOUR_MS = 3_600_000;

/** Deletes unsent chat files created before `now - hours`, bytes then row, a batch per transaction; answers how many. */
export async function pruneUnsentUploads(now = new Date(), hours = UNSENT_UPLOAD_HOURS): Promise<number> {
  const prisma = await db();
  const cutoff = new Date(now.getTime() - hours * HOUR_MS);
  // Files in a storage that is not configured now cannot be removed: they wait (and are not picked again and again).
  const kinds = ["local", "s3"].filter((kind) => storageOf(kind));
  let pruned = 0;
  for (;;) {
    const removed = await paced(() => prisma.$transaction(
      async (tx) => {
        // Locked: a send claiming one of them meanwhile waits, then finds it gone (409 upload_incomplete).
        const files = await tx.$queryRaw<{ id: string; storage: string; storage_key: string }[]>`
          SELECT "id", "storage", "storage_key" FROM "message_attachments"
           WHERE "message_id" IS NULL AND "created_at" < ${cutoff} AND "storage" = ANY(${kinds}::text[])
           LIMIT ${BATCH_SIZE} FOR UPDATE SKIP LOCKED`;
        for (const file of files) await storageOf(file.storage)!.remove(file.storage_key);
        await tx.$executeRaw`DELETE FROM "message_attachments" WHERE "id" = ANY(${files.map((f) => f.id)}::text[])`;
        return files.length;
      },
      { timeout: 60_000 },
    ));
    pruned += removed;
    if (removed < BATCH_SIZE) return pruned;
  }
}
