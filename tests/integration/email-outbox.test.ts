import { afterAll, beforeAll, expect, test } from "vitest";
import { db } from "../../lib/db/client";
import { startNotificationWorker, type NotificationWorker } from "../../lib/notifications/worker";
import { api } from "../support/api";
import { openConversation } from "../support/fixtures";
import { fileTicket, ticket } from "../support/tickets";
import { eventually } from "../support/webhook-receiver";

// Without SMTP_URL nothing is sent: every email is kept in the outbox, marked not sent.

let worker: NotificationWorker;
beforeAll(async () => {
  delete process.env.SMTP_URL;
  worker = await startNotificationWorker({ timings: { dispatchPollMs: 50 } });
});
afterAll(() => worker.stop());

test("emails land in the outbox, not sent, listed newest first by GET /api/v1/admin/outbox", async () => {
  const member = (await api.post("/api/v1/admin/members", { admin: true, body: { id: "alerted", name: "Grace" } })).json.result;
  await (await db()).member.update({ where: { id: member.id }, data: { email: "grace@acme.example" } });
  const started = await openConversation({ body: "Hello?" });
  const filed = await fileTicket(started.site.id, ticket({ email: "filer@example.com" }));

  const outbox = await eventually(async () => {
    const response = await api.get("/api/v1/admin/outbox", { admin: true });
    expect(response.status).toBe(200);
    expect(response.json.result).toHaveLength(2);
    return response.json.result;
  });
  expect(outbox.map((email: any) => email.kind).sort()).toEqual(["staff_alert", "ticket_acknowledgement"]);
  for (const email of outbox) expect(email).toMatchObject({ status: "not_sent", sent: false, sent_at: null, attempts: 0 });
  expect(outbox.find((email: any) => email.kind === "ticket_acknowledgement")).toMatchObject({
    to: "filer@example.com",
    subject: `[#${filed.number}] My order`,
    text: expect.stringContaining("It has not arrived."),
  });
  expect(outbox.find((email: any) => email.kind === "staff_alert").text).toContain(`/inbox/conversations/${started.conversationId}`);
  expect((await api.get("/api/v1/admin/outbox")).status).toBe(401);
});
