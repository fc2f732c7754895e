import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { sqlExecutor } from "../../lib/db/client";
import { addSuppression } from "../../lib/email/suppression/suppressions";
import { startNotificationWorker, type NotificationWorker } from "../../lib/notifications/worker";
import { api } from "../support/api";
import { createMember, createSite } from "../support/fixtures";
import { SmtpCapture } from "../support/smtp-capture";
import { listTickets, postTicket, ticket } from "../support/tickets";
import { eventually } from "../support/webhook-receiver";

// Issue 28: automatic emails to an address on the suppression list are kept in the outbox as
// `suppressed` with the list's reason and never reach SMTP; an unsubscribe holds for its site only,
// a hard bounce for every site; staff replies still go. Real SMTP server.

const smtp = new SmtpCapture();
let worker: NotificationWorker;

beforeAll(async () => {
  await smtp.start();
  process.env.SMTP_URL = smtp.url;
  process.env.MAIL_FROM = "Acme Support <support@acme.example>";
  worker = await startNotificationWorker({ timings: { dispatchPollMs: 50 } });
}, 180_000);
afterAll(async () => {
  await worker?.stop();
  await smtp.stop();
});

const address = () => `visitor-${randomUUID().slice(0, 8)}@example.com`;
const mailsTo = (to: string) => smtp.mails.filter((mail) => mail.to.some((recipient) => recipient.toLowerCase() === to));

interface OutboxRow {
  kind: string;
  to: string;
  status: string;
  suppressed_reason: string | null;
}

/** Waits until `count` emails to the address are stored and none is pending. */
const settledOutbox = (to: string, count: number) =>
  eventually(async () => {
    const response = await api.get("/api/v1/admin/outbox", { admin: true });
    expect(response.status).toBe(200);
    const rows = (response.json.result as OutboxRow[]).filter((email) => email.to.toLowerCase() === to);
    expect(rows).toHaveLength(count);
    expect(rows.filter((row) => row.status === "pending")).toEqual([]);
    return rows;
  }, 20_000);

async function file(siteId: string, email: string): Promise<number> {
  const response = await postTicket(siteId, ticket({ email }));
  expect(response.status).toBe(201);
  return (response.json.result as { number: number }).number;
}

const suppress = async (...args: Parameters<typeof addSuppression>[1][]) => {
  const sql = await sqlExecutor();
  for (const entry of args) await addSuppression(sql, entry);
};

describe("the suppression list", { timeout: 60_000 }, () => {
  test("an unsubscribe stops that site's next acknowledgement, not another site's; staff replies still go", async () => {
    const site = await createSite();
    const other = await createSite();
    const visitor = address();
    await suppress({ address: visitor.toUpperCase(), reason: "unsubscribe", siteId: site.id });

    // The widget's answer is the only place a suppressed filer learns the ticket's number.
    const number = await file(site.id, visitor);
    const [acknowledgement] = await settledOutbox(visitor, 1);
    expect(acknowledgement).toMatchObject({ kind: "ticket_acknowledgement", status: "suppressed", suppressed_reason: "unsubscribe" });
    expect((await listTickets(site.id))[0]).toMatchObject({ number });

    await file(other.id, visitor);
    await eventually(() => expect(mailsTo(visitor)).toHaveLength(1), 15_000);

    const member = await createMember();
    const ticketId = (await listTickets(site.id))[0]!.id;
    const reply = await api.post(`/api/v1/admin/tickets/${ticketId}/replies`, {
      admin: true,
      body: { author_id: member.id, body: "We are on it." },
    });
    expect(reply.status).toBe(201);
    await eventually(() => expect(mailsTo(visitor).filter((mail) => mail.parsed.text?.includes("We are on it"))).toHaveLength(1), 15_000);
    const rows = await settledOutbox(visitor, 3);
    expect(rows.find((row) => row.kind === "ticket_reply")).toMatchObject({ status: "sent", suppressed_reason: null });
  });

  test("a hard bounce holds for every site; adding it twice stores one entry", async () => {
    const visitor = address();
    await suppress({ address: visitor, reason: "hard_bounce" }, { address: ` ${visitor} `, reason: "hard_bounce" });
    const { rows } = await (await sqlExecutor()).executeSql(`SELECT "site_id" FROM "email_suppressions" WHERE "address_key" = $1`, [visitor]);
    expect(rows).toEqual([{ site_id: null }]);

    const [first, second] = [await createSite(), await createSite()];
    await file(first.id, visitor);
    await file(second.id, visitor);
    const outbox = await settledOutbox(visitor, 2);
    expect(outbox.map((row) => row.suppressed_reason)).toEqual(["hard_bounce", "hard_bounce"]);
    expect(mailsTo(visitor)).toEqual([]);
  });
});
