import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { db } from "../../lib/db/client";
import { notificationsRunning } from "../../lib/prepare-service";
import { requestDeliveryRound } from "../../lib/notifications/round";
import { api } from "../support/api";
import { openConversation } from "../support/fixtures";
import { testDatabaseUrl } from "../support/postgres";
import { SmtpCapture } from "../support/smtp-capture";
import { fileTicket, ticket } from "../support/tickets";
import { eventually, WebhookReceiver } from "../support/webhook-receiver";

// On Vercel (VERCEL set) a request that changed something runs one delivery round after its
// response: events reach a real webhook receiver and a real SMTP server with no worker and no cron.
// PostgreSQL only: the configuration refuses VERCEL without DATABASE_URL (and S3_BUCKET, unused here).

const onPostgres = Boolean(testDatabaseUrl());
if (!onPostgres) console.log("vercel-after-response: skipped (VERCEL requires PostgreSQL; set TEST_DATABASE_URL)");

process.env.VERCEL = "1";
process.env.S3_BUCKET = "parley-files";
process.env.WEBHOOK_ALLOW_PRIVATE_TARGETS = "on";
const smtp = new SmtpCapture();
let receiver: WebhookReceiver;

describe.runIf(onPostgres)("delivery after the response, on Vercel", () => {
  beforeAll(async () => {
    await smtp.start();
    process.env.SMTP_URL = smtp.url;
    process.env.MAIL_FROM = "Acme Support <support@acme.example>";
    receiver = await new WebhookReceiver().start();
  });
  afterAll(async () => {
    await requestDeliveryRound(); // the last round ends before the database closes
    await receiver.stop();
    await smtp.stop();
  });

  test("a new conversation's webhooks and a ticket's acknowledgement go out after their requests", async () => {
    const created = await api.post("/api/v1/admin/webhooks", {
      admin: true,
      body: { url: receiver.url, events: ["conversation.started", "message.created", "ticket.created"] },
    });
    receiver.useSecret(created.json.result.secret);
    const started = await openConversation({ body: "Is anyone there?" });
    const delivered = await eventually(() => {
      expect(receiver.received.map((request) => request.payload.type).sort()).toEqual(["conversation.started", "message.created"]);
      return receiver.received;
    });
    expect(delivered.every((request) => request.verified && request.payload.data.conversation_id === started.conversationId)).toBe(true);

    const filed = await fileTicket(started.site.id, ticket({ email: "vercel-filer@example.com", subject: "Late parcel" }));
    const [ack] = await eventually(() => {
      const mails = smtp.to("vercel-filer@example.com");
      expect(mails).toHaveLength(1);
      return mails;
    });
    expect(ack!.parsed.subject).toBe(`[#${filed.number}] Late parcel`);
    await eventually(() => expect(receiver.received.filter((request) => request.payload.type === "ticket.created")).toHaveLength(1));
    expect(notificationsRunning()).toBe(false); // no worker: the rounds after the requests did it
    expect(await (await db()).notificationEvent.count()).toBe(0);
  });

  test("a refused request schedules nothing", async () => {
    await (await db()).notificationEvent.create({ data: { type: "conversation.closed", subjectId: "c_none" } });
    const refused = await api.post("/api/v1/admin/webhooks", { admin: true, body: { url: "nope", events: [] } });
    expect(refused.status).toBe(400);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(await (await db()).notificationEvent.count()).toBe(1); // left for the next round or the cron
  });
});
