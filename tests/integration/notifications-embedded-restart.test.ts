import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, test } from "vitest";
import { closeDatabase, db } from "../../lib/db/client";
import { startNotificationWorker } from "../../lib/notifications/worker";
import { api } from "../support/api";
import { openConversation } from "../support/fixtures";
import { testDatabaseUrl } from "../support/postgres";
import { eventually, WebhookReceiver } from "../support/webhook-receiver";

// Embedded mode keeps its jobs on disk: a PGlite database closed between two attempts (a
// restart of the whole service) still delivers the retry when it is opened again.
process.env.WEBHOOK_ALLOW_PRIVATE_TARGETS = "on";

const embedded = !testDatabaseUrl();
if (!embedded) console.log("notifications-embedded-restart: skipped (embedded PGlite only)");
const dataDir = mkdtempSync(path.join(tmpdir(), "parley-notify-restart-"));
if (embedded) process.env.DATA_DIR = dataDir;

afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

describe.runIf(embedded)("embedded PGlite on disk", () => {
  test("a retry scheduled before a full restart is delivered after it, same webhook-id", async () => {
    const receiver = await new WebhookReceiver().start();
    try {
      const created = await api.post("/api/v1/admin/webhooks", { admin: true, body: { url: receiver.url, events: ["conversation.started"] } });
      receiver.useSecret(created.json.result.secret);
      receiver.answer(500);
      const timings = { webhookRetryScheduleMs: [2_000], dispatchPollMs: 50 };
      let worker = await startNotificationWorker({ timings });
      await openConversation();
      await eventually(() => expect(receiver.received).toHaveLength(1));
      await worker.stop();
      await closeDatabase(); // the process is gone; only the files remain

      worker = await startNotificationWorker({ timings }); // opens the same DATA_DIR again
      try {
        await eventually(() => expect(receiver.received).toHaveLength(2), 20_000);
        expect(receiver.received[1]!.id).toBe(receiver.received[0]!.id);
        expect(receiver.received.every((request) => request.verified)).toBe(true);
        await eventually(async () =>
          expect(await (await db()).webhookDelivery.findFirst()).toMatchObject({ status: "succeeded", attempt: 2 }),
        );
      } finally {
        await worker.stop();
      }
    } finally {
      await receiver.stop();
    }
  });
});
