import { afterAll, describe, expect, test } from "vitest";
import { db, separatePostgresExecutor } from "../../lib/db/client";
import { startNotificationWorker, type NotificationWorker } from "../../lib/notifications/worker";
import { api } from "../support/api";
import { openConversation } from "../support/fixtures";
import { testDatabaseUrl } from "../support/postgres";
import { eventually, WebhookReceiver } from "../support/webhook-receiver";

// Several service instances on one PostgreSQL database: each with its own connection pool, its
// own dispatcher and its own pg-boss workers. Every event must reach a healthy receiver once.
process.env.WEBHOOK_ALLOW_PRIVATE_TARGETS = "on";

const onPostgres = Boolean(testDatabaseUrl());
if (!onPostgres) console.log("notifications-postgres: skipped (PostgreSQL only; set TEST_DATABASE_URL)");

describe.runIf(onPostgres)("two instances on one PostgreSQL database", () => {
  const workers: NotificationWorker[] = [];
  const pools: { end(): Promise<void> }[] = [];
  let receiver: WebhookReceiver;

  afterAll(async () => {
    await Promise.all(workers.map((worker) => worker.stop()));
    await Promise.all(pools.map((pool) => pool.end()));
    await receiver?.stop();
  });

  test("deliver each event exactly once to a healthy receiver", async () => {
    receiver = await new WebhookReceiver().start();
    const created = await api.post("/api/v1/admin/webhooks", {
      admin: true,
      body: { url: receiver.url, events: ["message.created", "conversation.started"] },
    });
    receiver.useSecret(created.json.result.secret);
    await db(); // migrated
    for (let i = 0; i < 2; i++) {
      const executor = separatePostgresExecutor(process.env.DATABASE_URL!);
      pools.push(executor);
      workers.push(await startNotificationWorker({ executor, timings: { dispatchPollMs: 20 } }));
    }
    const conversations = await Promise.all(Array.from({ length: 20 }, (_, i) => openConversation({ body: `hello ${i}` })));
    for (const started of conversations) {
      for (let i = 0; i < 4; i++) {
        await api.post("/api/v1/chat/visitor/messages", {
          origin: started.origin,
          token: started.token,
          body: { body: `message ${i}`, client_id: crypto.randomUUID() },
        });
      }
    }
    const expected = 20 * (1 + 1 + 4); // started, first message, four more
    await eventually(() => expect(receiver.received.length).toBeGreaterThanOrEqual(expected), 30_000);
    await new Promise((resolve) => setTimeout(resolve, 1_000)); // anything extra would show up now
    const ids = receiver.received.map((request) => request.id);
    expect(ids).toHaveLength(expected);
    expect(new Set(ids).size).toBe(expected);
    expect(receiver.received.every((request) => request.verified)).toBe(true);
    await eventually(async () => {
      const log = await (await db()).webhookDelivery.groupBy({ by: ["status", "attempt"], _count: true });
      expect(log).toEqual([{ status: "succeeded", attempt: 1, _count: expected }]);
    });
  });
});
