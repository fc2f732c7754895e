import { afterAll, expect, test } from "vitest";
import { notificationsRunning, prepareServerStart, stopNotificationsInBackground } from "../../lib/prepare-service";
import { api } from "../support/api";
import { openConversation } from "../support/fixtures";
import { eventually, WebhookReceiver } from "../support/webhook-receiver";

// The server's start path starts the notification worker in the background: startup does not
// wait for it, and events are delivered once it runs.
process.env.WEBHOOK_ALLOW_PRIVATE_TARGETS = "on";

const receiver = await new WebhookReceiver().start();
afterAll(async () => {
  await stopNotificationsInBackground();
  await receiver.stop();
});

test("the server start runs the worker without waiting for it; it can be stopped", async () => {
  const created = await api.post("/api/v1/admin/webhooks", { admin: true, body: { url: receiver.url, events: ["conversation.started"] } });
  receiver.useSecret(created.json.result.secret);
  await prepareServerStart();
  expect(notificationsRunning()).toBe(false); // started after, in the background
  const started = await openConversation();
  await eventually(() => expect(receiver.received.map((request) => request.payload.data.conversation_id)).toEqual([started.conversationId]), 20_000);
  expect(receiver.received[0]!.verified).toBe(true);
  expect(notificationsRunning()).toBe(true);
  await stopNotificationsInBackground();
  expect(notificationsRunning()).toBe(false);
});
