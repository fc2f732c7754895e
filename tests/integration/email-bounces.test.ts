import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import nodemailer from "nodemailer";
import { db } from "../../lib/db/client";
import { startInboundSmtpListener, type InboundSmtpListener } from "../../lib/email/inbound/smtp-listener";
import type { NotificationTimings } from "../../lib/jobs/timings";
import { startNotificationWorker, type NotificationWorker } from "../../lib/notifications/worker";
import { api, type ApiResponse } from "../support/api";
import { createSite } from "../support/fixtures";
import { as, createStaff, type Staff } from "../support/inbox";
import { SmtpCapture, type CapturedMail } from "../support/smtp-capture";
import { fileTicket, ticket } from "../support/tickets";
import { eventually } from "../support/webhook-receiver";

// Bounces and complaints (issue #28, docs/notifications.md "Bounces and complaints"), end to end:
// outgoing mail goes to a real SMTP server with the VERP envelope sender b+<token>@domain; the
// recipient's server's delivery report (a real RFC 3464 multipart/report) or spam complaint (RFC
// 5965 ARF) comes back to that address through the SMTP listener and through the provider route;
// the owners read and edit the suppression list and the inbound counts over the inbox API.

const DOMAIN = "reply.acme.example";
const SECRET = "inbound-secret-for-tests-0123456789";
process.env.MAIL_REPLY_DOMAIN = DOMAIN;
process.env.INBOUND_EMAIL_SECRET = SECRET;
process.env.MAIL_FROM = "Acme Support <support@acme.example>";

const smtp = new SmtpCapture();
const TIMINGS: Partial<NotificationTimings> = { emailRetryDelaySeconds: 1, dispatchPollMs: 50, jobExpirySeconds: 10, maintenanceSeconds: 1 };
let worker: NotificationWorker | null = null;
let listener: InboundSmtpListener;
let siteId: string;
let owner: Staff;
let agent: Staff;

beforeAll(async () => {
  await smtp.start();
  process.env.SMTP_URL = smtp.url;
  worker = await startNotificationWorker({ timings: TIMINGS });
  listener = await startInboundSmtpListener({ port: 0, host: "127.0.0.1" });
  siteId = (await createSite({ daily_allowance: 1000 })).id;
  owner = await createStaff("owner");
  agent = await createStaff("agent");
}, 180_000);
afterAll(async () => {
  await listener?.close();
  await worker?.stop();
  await smtp.stop();
});

const address = () => `nobody-${randomUUID().slice(0, 8)}@mx.example`;
let counter = 0;

/** Files a ticket for `email` and answers the acknowledgement as the SMTP server got it. */
async function acknowledgement(email: string): Promise<CapturedMail> {
  const before = smtp.to(email).length;
  await fileTicket(siteId, ticket({ email }));
  return eventually(() => {
    const mails = smtp.to(email);
    expect(mails).toHaveLength(before + 1);
    return mails.at(-1)!;
  }, 15_000);
}

const CRLF = "\r\n";

/** What a recipient's server sends back: a DSN (RFC 3464) to the envelope sender. */
function deliveryReport(to: string, recipient: string, action: "failed" | "delayed", status: string): Buffer {
  const boundary = `dsn-${++counter}`;
  return Buffer.from(
    [
      "From: Mail Delivery System <MAILER-DAEMON@mx.example>",
      `To: ${to}`,
      "Subject: Undelivered Mail Returned to Sender",
      `Message-ID: <dsn-${counter}-${randomUUID()}@mx.example>`,
      "Date: Thu, 26 Nov 2026 10:00:00 +0000",
      "Auto-Submitted: auto-replied",
      "Return-Path: <>",
      "MIME-Version: 1.0",
      `Content-Type: multipart/report; report-type=delivery-status; boundary="${boundary}"`,
      "",
      `--${boundary}`,
      "Content-Type: text/plain; charset=us-ascii",
      "",
      `I'm sorry to have to inform you that your message could not be delivered to ${recipient}.`,
      `--${boundary}`,
      "Content-Type: message/delivery-status",
      "",
      "Reporting-MTA: dns; mx.example",
      "X-Postfix-Queue-ID: 4F1A2B3C",
      "Arrival-Date: Thu, 26 Nov 2026 09:59:58 +0000",
      "",
      `Final-Recipient: rfc822; ${recipient}`,
      "Original-Recipient: rfc822;",
      ` ${recipient}`,
      `Action: ${action}`,
      `Status: ${status}`,
      "Remote-MTA: dns; mx.example",
      `Diagnostic-Code: smtp; 550 ${status} <${recipient}>: Recipient address rejected`,
      "",
      `--${boundary}`,
      "Content-Type: text/rfc822-headers",
      "",
      "From: Acme Support <support@acme.example>",
      `To: ${recipient}`,
      "Subject: We got your ticket",
      "",
      `--${boundary}--`,
      "",
    ].join(CRLF),
  );
}

/** A mailbox provider's spam complaint (RFC 5965 ARF) about an email we sent. */
function complaintReport(to: string, recipient: string, feedbackType = "abuse"): Buffer {
  const boundary = `arf-${++counter}`;
  return Buffer.from(
    [
      "From: Feedback Loop <fbl@isp.example>",
      `To: ${to}`,
      "Subject: Abuse report",
      `Message-ID: <arf-${counter}-${randomUUID()}@isp.example>`,
      "Date: Thu, 26 Nov 2026 10:00:00 +0000",
      "MIME-Version: 1.0",
      `Content-Type: multipart/report; report-type=feedback-report; boundary="${boundary}"`,
      "",
      `--${boundary}`,
      "Content-Type: text/plain",
      "",
      "This is an email abuse report for an email message received from IP 192.0.2.1.",
      `--${boundary}`,
      "Content-Type: message/feedback-report",
      "",
      `Feedback-Type: ${feedbackType}`,
      "User-Agent: SomeGenerator/1.0",
      "Version: 1",
      `Original-Mail-From: <${to}>`,
      `Original-Rcpt-To: <${recipient}>`,
      "Arrival-Date: Thu, 26 Nov 2026 09:59:58 +0000",
      "",
      `--${boundary}`,
      "Content-Type: message/rfc822",
      "",
      "From: Acme Support <support@acme.example>",
      `To: ${recipient}`,
      "Subject: We got your ticket",
      "",
      "Thanks, we got it.",
      `--${boundary}--`,
      "",
    ].join(CRLF),
  );
}

/** Delivered to the listener as a bounce is: an empty envelope sender, RCPT TO the bounce address. */
async function toListener(raw: Buffer, to: string) {
  const client = nodemailer.createTransport({ host: "127.0.0.1", port: listener.port, secure: false, ignoreTLS: true });
  await client.sendMail({ envelope: { from: "", to: [to] }, raw });
}

async function toRoute(raw: Buffer) {
  const response = await api.post("/api/v1/inbound/email", {
    rawBody: raw,
    headers: { "Content-Type": "message/rfc822", Authorization: `Bearer ${SECRET}` },
  });
  expect(response.status).toBe(200);
  return response.json.result as { outcome: string; reason: string | null };
}

const suppressionsOf = async (email: string) =>
  (await db()).emailSuppression.findMany({ where: { addressKey: email.toLowerCase() }, select: { reason: true, siteId: true } });

const inboundRows = async () => (await db()).inboundEmail.findMany({ orderBy: { receivedAt: "desc" }, take: 1, select: { via: true, outcome: true, reason: true } });

/** The newest outbox rows to an address (the operator's outbox). */
async function outboxTo(email: string) {
  const response = await api.get("/api/v1/admin/outbox", { admin: true });
  expect(response.status).toBe(200);
  return (response.json.result as { kind: string; to: string; status: string; suppressed_reason: string | null; error: string | null }[]).filter(
    (row) => row.to === email,
  );
}

describe("bounces come back to a VERP address", { timeout: 60_000 }, () => {
  test("outgoing mail's envelope sender is b+<token>@domain, distinct per email; From stays MAIL_FROM", async () => {
    const email = address();
    const first = await acknowledgement(email);
    const second = await acknowledgement(email);
    expect(first.mailFrom).toMatch(new RegExp(`^b\\+[a-z2-7]{40,60}@${DOMAIN.replace(/\./g, "\\.")}$`));
    expect(first.mailFrom!.split("@")[0]!.length).toBeLessThanOrEqual(64);
    expect(second.mailFrom).not.toBe(first.mailFrom);
    expect(first.parsed.from?.value[0]?.address).toBe("support@acme.example");
  });

  test("a hard bounce (5.1.1) to the listener suppresses the address; the email says bounced; the next acknowledgement is suppressed", async () => {
    const email = address();
    const sent = await acknowledgement(email);
    await toListener(deliveryReport(sent.mailFrom!, email, "failed", "5.1.1"), sent.mailFrom!);

    expect(await suppressionsOf(email)).toEqual([{ reason: "hard_bounce", siteId: null }]);
    expect(await inboundRows()).toEqual([{ via: "smtp", outcome: "accepted", reason: "hard_bounce" }]);
    expect((await outboxTo(email))[0]).toMatchObject({ status: "sent", error: "bounced 5.1.1" });

    await fileTicket(siteId, ticket({ email }));
    const next = await eventually(async () => {
      const rows = await outboxTo(email);
      expect(rows).toHaveLength(2);
      return rows[0]!;
    }, 15_000);
    expect(next).toMatchObject({ kind: "ticket_acknowledgement", status: "suppressed", suppressed_reason: "hard_bounce" });
    expect(smtp.to(email)).toHaveLength(1);
  });

  test("the same hard bounce forwarded as raw MIME to the route suppresses the address", async () => {
    const email = address();
    const sent = await acknowledgement(email);
    expect(await toRoute(deliveryReport(sent.mailFrom!, email, "failed", "5.7.1"))).toEqual(expect.objectContaining({ outcome: "accepted", reason: "hard_bounce" }));
    expect(await suppressionsOf(email)).toEqual([{ reason: "hard_bounce", siteId: null }]);
  });

  test("a delayed report (4.4.1, Action: delayed or failed) suppresses nothing", async () => {
    const email = address();
    const sent = await acknowledgement(email);
    expect(await toRoute(deliveryReport(sent.mailFrom!, email, "delayed", "4.4.1"))).toMatchObject({ outcome: "ignored", reason: "bounce_delayed" });
    await toListener(deliveryReport(sent.mailFrom!, email, "failed", "4.2.2"), sent.mailFrom!);
    expect(await inboundRows()).toEqual([{ via: "smtp", outcome: "ignored", reason: "bounce_delayed" }]);
    expect(await suppressionsOf(email)).toEqual([]);
    expect((await outboxTo(email))[0]).toMatchObject({ status: "sent", error: null });
  });

  test("a forged token (one character changed, or made up) is refused: nothing suppressed, nothing answered", async () => {
    const email = address();
    const sent = await acknowledgement(email);
    const [local, domain] = sent.mailFrom!.split("@") as [string, string];
    // A character inside the token (the last one also carries padding bits, refused on their own).
    const changed = `${local.slice(0, 12)}${local[12] === "a" ? "b" : "a"}${local.slice(13)}@${domain}`;
    const before = smtp.mails.length;
    expect(await toRoute(deliveryReport(changed, email, "failed", "5.1.1"))).toMatchObject({ outcome: "refused", reason: "invalid_bounce_token" });
    await toListener(deliveryReport(`b+aaaaaaaaaaaaaaaaaaaa@${DOMAIN}`, email, "failed", "5.1.1"), `b+aaaaaaaaaaaaaaaaaaaa@${DOMAIN}`);
    expect(await inboundRows()).toEqual([{ via: "smtp", outcome: "refused", reason: "invalid_bounce_token" }]);
    // A reply token under the bounce prefix proves nothing either (tokens have their own purposes).
    const replyToken = sent.parsed.replyTo!.value[0]!.address!.split("@")[0]!.slice(2);
    expect(await toRoute(deliveryReport(`b+${replyToken}@${DOMAIN}`, email, "failed", "5.1.1"))).toMatchObject({ outcome: "refused", reason: "invalid_bounce_token" });
    expect(await suppressionsOf(email)).toEqual([]);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(smtp.mails.length).toBe(before);
  });

  test("a report names its email's recipient only: a bounce naming another address suppresses the email's own", async () => {
    const email = address();
    const other = address();
    const sent = await acknowledgement(email);
    await toRoute(deliveryReport(sent.mailFrom!, other, "failed", "5.1.1"));
    expect(await suppressionsOf(other)).toEqual([]);
    expect(await suppressionsOf(email)).toEqual([{ reason: "hard_bounce", siteId: null }]);
  });

  test("an ARF abuse complaint suppresses the address as complaint; another feedback type does not", async () => {
    const email = address();
    const sent = await acknowledgement(email);
    expect(await toRoute(complaintReport(sent.mailFrom!, email, "not-spam"))).toMatchObject({ outcome: "ignored", reason: "feedback_not_abuse" });
    expect(await suppressionsOf(email)).toEqual([]);
    expect(await toRoute(complaintReport(sent.mailFrom!, email))).toMatchObject({ outcome: "accepted", reason: "complaint" });
    expect(await suppressionsOf(email)).toEqual([{ reason: "complaint", siteId: null }]);
    expect((await outboxTo(email))[0]).toMatchObject({ error: "complaint" });
  });

  test("a vacation reply to the bounce address is ignored, not taken for a bounce", async () => {
    const email = address();
    const sent = await acknowledgement(email);
    const raw = Buffer.from(
      [`From: ${email}`, `To: ${sent.mailFrom}`, "Subject: Out of office", `Message-ID: <ooo-${randomUUID()}@mx.example>`, "Auto-Submitted: auto-replied", "", "I am away."].join(CRLF),
    );
    expect(await toRoute(raw)).toMatchObject({ outcome: "ignored", reason: "not_a_report" });
    expect(await suppressionsOf(email)).toEqual([]);
  });
});

describe("the owners' suppression list", { timeout: 60_000 }, () => {
  const LIST = "/api/v1/inbox/email-suppressions";

  test("owners only; filters by reason, site and part of the address; pages by cursor", async () => {
    expect((await api.get(LIST, as(agent))).status).toBe(403);
    expect((await api.get(LIST, as(null))).status).toBe(401);

    const tag = randomUUID().slice(0, 8);
    const bounced = [`a_${tag}@one.example`, `b_${tag}@two.example`, `c_${tag}@three.example`];
    for (const email of bounced) {
      const sent = await acknowledgement(email);
      await toRoute(deliveryReport(sent.mailFrom!, email, "failed", "5.1.1"));
    }
    const unsubscribed = `d_${tag}@four.example`;
    await (await db()).emailSuppression.create({ data: { id: `sup_${randomUUID()}`, addressKey: unsubscribed, reason: "unsubscribe", siteId } });

    const all = await api.get(`${LIST}?q=${tag.toUpperCase()}`, as(owner));
    expect(all.status).toBe(200);
    expect(all.json.result.suppressions.map((row: { address: string }) => row.address)).toEqual([unsubscribed, ...[...bounced].reverse()]);
    expect(all.json.result.suppressions[0]).toMatchObject({ reason: "unsubscribe", site: siteId });
    expect(all.json.result.suppressions[1]).toMatchObject({ reason: "hard_bounce", site: null });
    expect(all.json.result.next_cursor).toBeNull();

    const unsubscribes = await api.get(`${LIST}?q=${tag}&reason=unsubscribe`, as(owner));
    expect(unsubscribes.json.result.suppressions.map((row: { address: string }) => row.address)).toEqual([unsubscribed]);
    const ofSite = await api.get(`${LIST}?q=${tag}&site=${siteId}`, as(owner));
    expect(ofSite.json.result.suppressions).toHaveLength(1);
    // `_` is a character here, not a wildcard.
    expect((await api.get(`${LIST}?q=${encodeURIComponent(`_${tag}@t`)}`, as(owner))).json.result.suppressions).toHaveLength(2);
    expect((await api.get(`${LIST}?q=${encodeURIComponent(`%${tag}`)}`, as(owner))).json.result.suppressions).toHaveLength(0);

    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page: ApiResponse<{ suppressions: { address: string }[]; next_cursor: string | null }> = await api.get(`${LIST}?q=${tag}&limit=3${cursor ? `&cursor=${cursor}` : ""}`, as(owner));
      expect(page.status).toBe(200);
      seen.push(...page.json.result.suppressions.map((row) => row.address));
      cursor = page.json.result.next_cursor;
    } while (cursor);
    expect(seen).toEqual(all.json.result.suppressions.map((row: { address: string }) => row.address));

    expect((await api.get(`${LIST}?reason=bounced`, as(owner))).status).toBe(400);
    expect((await api.get(`${LIST}?cursor=yesterday`, as(owner))).status).toBe(400);
    expect((await api.get(`${LIST}?limit=0`, as(owner))).status).toBe(400);
  });

  test("removing an entry is audited and lets the automatic emails reach the address again; an unknown id is 404", async () => {
    const email = address();
    const sent = await acknowledgement(email);
    await toRoute(deliveryReport(sent.mailFrom!, email, "failed", "5.1.1"));
    const listed = await api.get(`/api/v1/inbox/email-suppressions?q=${email}`, as(owner));
    const [entry] = listed.json.result.suppressions as { id: string }[];

    expect((await api.delete(`/api/v1/inbox/email-suppressions/${entry!.id}`, as(agent))).status).toBe(403);
    const removed = await api.delete(`/api/v1/inbox/email-suppressions/${entry!.id}`, as(owner));
    expect(removed.status).toBe(200);
    expect(removed.json.result).toEqual({ id: entry!.id, deleted: true, reason: "hard_bounce" });
    const audit = await (await db()).auditEvent.findFirst({ where: { action: "suppression.removed", target: `suppression:${entry!.id}` } });
    expect(audit).toMatchObject({ actor: `member:${owner.id}`, details: { reason: "hard_bounce" } });
    expect(JSON.stringify(audit)).not.toContain(email);

    expect((await api.delete(`/api/v1/inbox/email-suppressions/${entry!.id}`, as(owner))).status).toBe(404);
    expect(await suppressionsOf(email)).toEqual([]);
    await acknowledgement(email);
    expect(smtp.to(email)).toHaveLength(2);
  });
});

describe("the inbound counts", { timeout: 60_000 }, () => {
  test("the last 30 days by outcome and reason, for owners; older rows and those being processed left out", async () => {
    const prisma = await db();
    const old = new Date(Date.now() - 31 * 24 * 60 * 60 * 1000);
    await prisma.inboundEmail.createMany({
      data: [
        { id: randomUUID(), via: "http", outcome: "refused", reason: "sender_mismatch", receivedAt: old },
        { id: randomUUID(), via: "http", outcome: "ignored", reason: "processing" },
        { id: randomUUID(), via: "smtp", outcome: "refused", reason: "sender_mismatch" },
      ],
    });
    expect((await api.get("/api/v1/inbox/inbound-counts", as(agent))).status).toBe(403);
    const response = await api.get("/api/v1/inbox/inbound-counts", as(owner));
    expect(response.status).toBe(200);
    const { counts, total, since } = response.json.result as { counts: { outcome: string; reason: string | null; count: number }[]; total: number; since: string };
    const expected = await prisma.inboundEmail.groupBy({
      by: ["outcome", "reason"],
      where: { receivedAt: { gt: new Date(since) }, OR: [{ reason: null }, { reason: { not: "processing" } }] },
      _count: true,
    });
    expect(counts).toHaveLength(expected.length);
    for (const row of expected) expect(counts).toContainEqual({ outcome: row.outcome, reason: row.reason, count: row._count });
    expect(counts).toContainEqual({ outcome: "refused", reason: "sender_mismatch", count: 1 });
    expect(counts.find((row) => row.reason === "processing")).toBeUndefined();
    expect(total).toBe(counts.reduce((sum, row) => sum + row.count, 0));
    expect(counts.map((row) => row.outcome)).toEqual([...counts.map((row) => row.outcome)].sort());
  });
});
