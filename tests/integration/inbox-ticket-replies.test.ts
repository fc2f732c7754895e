import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { db } from "../../lib/db/client";
import { startNotificationWorker, type NotificationWorker } from "../../lib/notifications/worker";
import { MAX_TICKET_REPLY_LENGTH } from "../../lib/contracts/tickets";
import { api } from "../support/api";
import { expectError } from "../support/expectations";
import { createSite, ORIGIN } from "../support/fixtures";
import { as, createStaff, type Staff } from "../support/inbox";
import { rowCounts } from "../support/row-counts";
import { fileTicket, ticket } from "../support/tickets";
import { eventually } from "../support/webhook-receiver";

// Replying to a ticket from the inbox (any signed-in member, who is the author). Without SMTP_URL
// the email to the filer lands in the outbox; tests/integration/email.test.ts sends it over SMTP.

let owner: Staff;
let agent: Staff;
let worker: NotificationWorker;
let ticketId: string;
let ticketNumber: number;

const replies = () => `/api/v1/inbox/tickets/${ticketId}/replies`;

/** Every row, once the worker has handled what was queued (the acknowledgement of the filing). */
async function settledRows() {
  return eventually(async () => {
    expect(await (await db()).notificationEvent.count()).toBe(0);
    return rowCounts();
  });
}

beforeAll(async () => {
  delete process.env.SMTP_URL;
  owner = await createStaff("owner", "Olive Owner");
  agent = await createStaff("agent", "Andy Agent");
  worker = await startNotificationWorker({ timings: { dispatchPollMs: 50 } });
  const site = await createSite();
  const filed = await fileTicket(site.id, ticket({ email: "filer@example.com", subject: "Broken zip" }));
  ticketNumber = filed.number;
  ticketId = (await api.get(`/api/v1/inbox/tickets?site=${site.id}`, as(agent))).json.result.items[0].id;
});
afterAll(() => worker?.stop());

describe("POST /api/v1/inbox/tickets/{id}/replies refuses, changing nothing", () => {
  test("without a session → 401 unauthorized", async () => {
    const before = await settledRows();
    expectError(await api.post(replies(), as(null, { body: { body: "Hi" } })), 401, "unauthorized");
    expect(await rowCounts()).toEqual(before);
  });

  test("without the inbox's Origin → 403 origin_not_allowed", async () => {
    for (const origin of [null, "https://evil.example", ORIGIN]) {
      const before = await settledRows();
      expectError(await api.post(replies(), as(agent, { origin, body: { body: "Hi" } })), 403, "origin_not_allowed");
      expect(await rowCounts()).toEqual(before);
    }
  });

  test("bad input → 400 invalid_request", async () => {
    const bad: unknown[] = [{}, { body: "" }, { body: "   " }, { body: "x".repeat(MAX_TICKET_REPLY_LENGTH + 1) }, { body: 5 }, { body: "x", author_id: owner.id }];
    for (const body of bad) {
      const before = await settledRows();
      const response = await api.post(replies(), as(agent, { body }));
      expect({ body, status: response.status, code: response.json.result.code }).toEqual({ body, status: 400, code: "invalid_request" });
      expect(await rowCounts()).toEqual(before);
    }
  });

  test("an unknown ticket → 404 not_found", async () => {
    const before = await settledRows();
    expectError(await api.post("/api/v1/inbox/tickets/no-such-ticket/replies", as(agent, { body: { body: "Hi" } })), 404, "not_found");
    expect(await rowCounts()).toEqual(before);
  });
});

test("an agent's reply is stored with the agent as author, read back in the thread, and its email is in the outbox", async () => {
  const response = await api.post(replies(), as(agent, { body: { body: "Fixed in 2.1.\nPlease try again." } }));
  expect(response.status).toBe(201);
  expect(response.json.result).toMatchObject({
    ticket_id: ticketId,
    ticket_number: ticketNumber,
    author_id: agent.id,
    author_name: "Andy Agent",
    body: "Fixed in 2.1.\nPlease try again.",
    emailed_to: "filer@example.com",
  });
  expect((await api.post(replies(), as(owner, { body: { body: "Second answer" } }))).status).toBe(201);

  const detail = (await api.get(`/api/v1/inbox/tickets/${ticketId}`, as(agent))).json.result;
  expect(detail.replies.map((reply: { author_name: string; body: string }) => [reply.author_name, reply.body])).toEqual([
    ["Andy Agent", "Fixed in 2.1.\nPlease try again."],
    ["Olive Owner", "Second answer"],
  ]);
  expect(detail.replies[0]).toMatchObject({ id: response.json.result.id, author_id: agent.id, created_at: response.json.result.created_at });

  const emails = await eventually(async () => {
    const outbox = (await api.get("/api/v1/inbox/outbox", as(owner))).json.result as { kind: string; to: string; subject: string; text: string; status: string }[];
    const replyEmails = outbox.filter((email) => email.kind === "ticket_reply");
    expect(replyEmails).toHaveLength(2);
    return replyEmails;
  });
  const first = emails.find((email) => email.text.includes("Fixed in 2.1."));
  expect(first).toMatchObject({ to: "filer@example.com", subject: `Re: [#${ticketNumber}] Broken zip`, status: "not_sent" });

  // Each reply says what became of its own email: here (no SMTP_URL) not sent, never "emailed".
  const after = (await api.get(`/api/v1/inbox/tickets/${ticketId}`, as(agent))).json.result;
  expect(after.replies.map((reply: { body: string; email_status: string }) => [reply.body, reply.email_status])).toEqual([
    ["Fixed in 2.1.\nPlease try again.", "not_sent"],
    ["Second answer", "not_sent"],
  ]);
});

test("a reply whose email is not written yet is queued, and one whose email went is sent", async () => {
  const response = await api.post(replies(), as(agent, { body: { body: "Third answer" } }));
  expect(response.status).toBe(201);
  const prisma = await db();
  const statusOf = async () =>
    ((await api.get(`/api/v1/inbox/tickets/${ticketId}`, as(agent))).json.result.replies as { id: string; email_status: string }[]).find((reply) => reply.id === response.json.result.id)!
      .email_status;
  const email = await eventually(async () => {
    const found = await prisma.email.findFirst({ where: { ticketId, kind: "ticket_reply", textBody: { contains: "> Third answer" } } });
    expect(found).not.toBeNull();
    return found!;
  });
  await prisma.email.update({ where: { id: email.id }, data: { status: "pending", lastError: null } });
  expect(await statusOf()).toBe("queued");
  await prisma.email.update({ where: { id: email.id }, data: { status: "pending", lastError: "550 refused" } });
  expect(await statusOf()).toBe("failed");
  await prisma.email.update({ where: { id: email.id }, data: { status: "sent", lastError: null, sentAt: new Date() } });
  expect(await statusOf()).toBe("sent");
});
