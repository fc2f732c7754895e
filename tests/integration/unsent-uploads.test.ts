import { randomBytes, randomUUID } from "node:crypto";
import { mkdir, stat, writeFile } from "node:fs/promises";
import path from "node:path";
import { PutObjectCommand } from "@aws-sdk/client-s3";
import { afterAll, beforeAll, expect, test } from "vitest";
import { db } from "../../lib/db/client";
import { runRetention } from "../../lib/privacy/retention";
import { pruneUnsentUploads, UNSENT_UPLOAD_HOURS } from "../../lib/uploads/prune-unsent";
import { storedFilePath } from "../../lib/uploads/local-storage";
import { api } from "../support/api";
import { openConversation, visitor, type Started } from "../support/fixtures";
import { s3ObjectExists, startS3Emulator } from "../support/personal-data";
import { PNG_BYTES } from "../support/tickets";

// A chat file uploaded but never sent is deleted with its bytes (disk or S3) once it is
// UNSENT_UPLOAD_HOURS old, by the daily retention job; a sent file and a fresh one stay.

const s3 = await startS3Emulator("parley-unsent");
afterAll(() => s3.stop());

const HOUR = 3_600_000;
const later = (hours: number) => new Date(Date.now() + hours * HOUR);
const onDisk = (key: string) => stat(storedFilePath(key)).then(() => true, () => false);

/** An uploaded file not (yet) sent, on disk or in S3, created `hoursAgo` hours ago. */
async function unsent(started: Started, storage: "local" | "s3", hoursAgo: number) {
  const hex = randomBytes(16).toString("hex");
  const key = storage === "s3" ? `attachments/${hex}` : `${hex.slice(0, 2)}/${hex}`;
  if (storage === "s3") await s3.client.send(new PutObjectCommand({ Bucket: s3.bucket, Key: key, Body: PNG_BYTES }));
  else {
    await mkdir(path.dirname(storedFilePath(key)), { recursive: true });
    await writeFile(storedFilePath(key), PNG_BYTES);
  }
  const id = `att_${randomUUID()}`;
  await (await db()).messageAttachment.create({
    data: {
      id,
      conversationId: started.conversationId,
      uploaderType: "visitor",
      name: "a.png",
      contentType: "image/png",
      bytes: PNG_BYTES.length,
      storage,
      storageKey: key,
      uploadedAt: new Date(),
      createdAt: new Date(Date.now() - hoursAgo * HOUR),
    },
  });
  return { id, key };
}

let started: Started;
beforeAll(async () => {
  started = await openConversation();
});

const rowExists = async (id: string) => Boolean(await (await db()).messageAttachment.findUnique({ where: { id } }));

test("an unsent file older than the cutoff is deleted with its bytes (disk and S3); a sent one and a fresh one stay", async () => {
  const oldOnDisk = await unsent(started, "local", UNSENT_UPLOAD_HOURS + 1);
  const oldInS3 = await unsent(started, "s3", UNSENT_UPLOAD_HOURS + 2);
  const fresh = await unsent(started, "s3", UNSENT_UPLOAD_HOURS - 1);
  const sentOld = await unsent(started, "s3", UNSENT_UPLOAD_HOURS + 3);
  const sent = await api.post("/api/v1/chat/visitor/messages", { ...visitor(started), body: { client_id: `c-${randomUUID()}`, body: "", attachments: [sentOld.id] } });
  expect(sent.status).toBe(201);

  expect(await pruneUnsentUploads()).toBe(2);
  expect(await rowExists(oldOnDisk.id)).toBe(false);
  expect(await onDisk(oldOnDisk.key)).toBe(false);
  expect(await rowExists(oldInS3.id)).toBe(false);
  expect(await s3ObjectExists(s3, oldInS3.key)).toBe(false);
  expect(await rowExists(fresh.id)).toBe(true);
  expect(await s3ObjectExists(s3, fresh.key)).toBe(true);
  expect(await rowExists(sentOld.id)).toBe(true);
  expect(await s3ObjectExists(s3, sentOld.key)).toBe(true);
  // The sent file is still the message's.
  const items = (await api.get("/api/v1/chat/visitor/messages?cursor=0", visitor(started))).json.result.items as { attachments: { id: string }[] }[];
  expect(items.flatMap((m) => m.attachments.map((a) => a.id))).toContain(sentOld.id);
  // A second run finds nothing more.
  expect(await pruneUnsentUploads()).toBe(0);
});

test("the daily retention run prunes them: a day later the fresh one goes too, and sending it then fails cleanly", async () => {
  const started = await openConversation();
  const fresh = await unsent(started, "s3", 1);
  const counts = await runRetention(later(UNSENT_UPLOAD_HOURS));
  expect(counts.unsent_uploads).toBeGreaterThanOrEqual(1);
  expect(await rowExists(fresh.id)).toBe(false);
  expect(await s3ObjectExists(s3, fresh.key)).toBe(false);
  const send = await api.post("/api/v1/chat/visitor/messages", { ...visitor(started), body: { client_id: `c-${randomUUID()}`, body: "", attachments: [fresh.id] } });
  expect([404, 409]).toContain(send.status);
});
