import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { db, sqlExecutor } from "../../lib/db/client";
import { useDnsResolver } from "../../lib/email/inbound/authenticate";
import { replyToken } from "../../lib/email/links/reply-token";
import { runVisitorFollowUp } from "../../lib/email/follow-ups";
import { SUPPRESSED_BODY } from "../../lib/email/sending/outbox";
import { addressHash, addSuppression } from "../../lib/email/suppression/suppressions";
import { UNSUBSCRIBE_LINK_DAYS } from "../../lib/email/suppression/pruned-links";
import { TRANSCRIPTS_PER_DAY } from "../../lib/email/transcripts";
import { startNotificationWorker, type NotificationWorker } from "../../lib/notifications/worker";
import { api } from "../support/api";
import { createMember, createSite, ORIGIN, staffReply, startConversation, visitor, type Started } from "../support/fixtures";
import { expectError } from "../support/expectations";
import { composeMail, TestDns, type MailSpec } from "../support/inbound-mail";
import { SmtpCapture, type CapturedMail } from "../support/smtp-capture";
import { fileTicket, PNG_BYTES } from "../support/tickets";
import { eventually } from "../support/webhook-receiver";
import { pruneLogs } from "../../lib/privacy/retention";
import { listSuppressions } from "../../lib/email/suppression/suppression-list";
import { unsubscribeCall } from "../support/unsubscribe";

// Transcripts and the one-click unsubscribe from a site's automatic emails (issue 28,
// decisions.md "Email in both directions"): a real SMTP server takes the outgoing mail, replies
// come back through the provider route as raw MIME, DKIM-signed against a DNS the test controls.

const DOMAIN = "reply.acme.example";
const SECRET = "inbound-secret-for-tests-0123456789";
const PUBLIC_URL = "https://parley.example";
process.env.MAIL_REPLY_DOMAIN = DOMAIN;
process.env.INBOUND_EMAIL_SECRET = SECRET;
process.env.MAIL_FROM = "Acme Support <support@acme.example>";
process.env.PUBLIC_URL = PUBLIC_URL;

const dns = new TestDns().signingDomain("visitor.example");
const smtp = new SmtpCapture();
let worker: NotificationWorker;
let counter = 0;

beforeAll(async () => {
  await smtp.start();
  process.env.SMTP_URL = smtp.url;
  useDnsResolver(dns.resolver);
  worker = await startNotificationWorker({ timings: { dispatchPollMs: 50, followUpDelayMs: 600_000, staffIdleMs: 600_000 } });
}, 180_000);
afterAll(async () => {
  useDnsResolver(undefined);
  await worker?.stop();
  await smtp.stop();
});

const address = () => `visitor${++counter}-${Date.now()}@visitor.example`;
const settle = (ms = 1_000) => new Promise((resolve) => setTimeout(resolve, ms));

async function conversation(email: string | null = address(), siteId?: string): Promise<Started & { email: string }> {
  const site = siteId ?? (await createSite({ daily_allowance: 1000 })).id;
  const started = await startConversation(site, { ...(email ? { email } : {}), name: "Vic", body: "My lamp <flickers>." });
  return { ...started, email: email ?? "" };
}

const askTranscript = (started: Started, body: unknown = {}) => api.post("/api/v1/chat/visitor/transcript", { ...visitor(started), body });

/** Waits for the address's nth email and answers it. */
const nthMail = (email: string, count: number) =>
  eventually(() => {
    const mails = smtp.to(email);
    expect(mails).toHaveLength(count);
    return mails.at(-1)!;
  }, 15_000);

const header = (mail: CapturedMail, name: string) => mail.parsed.headerLines.find((line) => line.key === name)?.line.replace(/^[^:]+:\s*/, "");

async function forward(spec: MailSpec, sign = true) {
  const raw = await composeMail(spec);
  const response = await api.post("/api/v1/inbound/email", {
    rawBody: sign ? await dns.sign(raw, "visitor.example") : raw,
    headers: { "Content-Type": "message/rfc822", Authorization: `Bearer ${SECRET}` },
  });
  expect(response.status).toBe(200);
  return response.json.result as { outcome: string; conversation_id: string | null };
}

/** What the outbox keeps of a transcript once sent (lib/email/sending/outbox.ts `MARK_SENT`). */
const SENT_TRANSCRIPT_BODY = /^\[Not kept: this transcript was sent; its text and HTML held (\d+) bytes\. The conversation itself is kept\.\]$/;

const transcriptsOf = async (conversationId: string) =>
  (await db()).email.findMany({ where: { conversationId, kind: "visitor_transcript" }, orderBy: { createdAt: "asc" } });

/** Waits until no email of the conversation is pending any more. */
const settledTranscripts = (conversationId: string, count: number) =>
  eventually(async () => {
    const rows = await transcriptsOf(conversationId);
    expect(rows).toHaveLength(count);
    expect(rows.filter((row) => row.status === "pending")).toEqual([]);
    return rows;
  }, 15_000);

const suppressionsOf = async (email: string) =>
  (await db()).emailSuppression.findMany({ where: { addressKey: email.toLowerCase() }, select: { reason: true, siteId: true } });

/** Runs the conversation's follow-up as the worker would, without waiting for its delay. */
async function followUpNow(conversationId: string) {
  const context = { executor: await sqlExecutor(), timings: { followUpDelayMs: 0 }, addJobs: async () => undefined };
  await runVisitorFollowUp(context as unknown as Parameters<typeof runVisitorFollowUp>[0], conversationId);
}

const followUpsOf = async (conversationId: string) => (await db()).email.findMany({ where: { conversationId, kind: "visitor_follow_up" } });

describe("POST /api/v1/chat/visitor/transcript", { timeout: 60_000 }, () => {
  test("emails every public message with sender and time, files by name and size, never a note; answerable by email", async () => {
    const started = await conversation();
    const member = await createMember({ name: "Grace Agent" });
    await staffReply(started.conversationId, member.id, "Try the blue bulb & tell us.");
    await staffReply(started.conversationId, member.id, "Internal: customer is grumpy", "note");
    // An emailed reply whose DMARC fails is kept as an unverified staff-only note: never in a transcript.
    const replyTo = `r+${await replyToken({ thread: { kind: "conversation", id: started.conversationId }, recipient: { kind: "visitor" } })}@${DOMAIN}`;
    const spoofed = await forward({ from: started.email, to: replyTo, text: "Unverified words" }, false);
    expect(spoofed.outcome).toBe("unverified");
    const photo = await forward({
      from: started.email,
      to: replyTo,
      text: "Here is a photo.",
      attachments: [{ filename: "lamp.png", content: PNG_BYTES, contentType: "image/png" }],
    });
    expect(photo.outcome).toBe("accepted");

    const response = await askTranscript(started);
    expect(response.status).toBe(202);
    expect(response.json.result).toEqual({ queued: true });
    expect(response.headers.get("access-control-allow-origin")).toBe(ORIGIN);

    const mail = await nthMail(started.email, 1);
    const { parsed } = mail;
    // Signed as the widget: the site has no title, so "the team", never its internal name (its id here).
    expect(parsed.subject).toBe("Your conversation with the team");
    expect(parsed.text).not.toContain(started.siteId);
    const text = parsed.text!;
    expect(text).toContain("Reply to this email to write to us again.");
    expect(text).toContain("Vic, ");
    expect(text).toContain("> My lamp <flickers>.");
    expect(text).toContain("Grace Agent, ");
    expect(text).toContain("> Try the blue bulb & tell us.");
    expect(text).toMatch(/> \[file\] lamp\.png \(\d+ B\)/);
    expect(text.indexOf("My lamp")).toBeLessThan(text.indexOf("Try the blue bulb"));
    expect(text.indexOf("Try the blue bulb")).toBeLessThan(text.indexOf("Here is a photo."));
    expect(text).not.toContain("Internal: customer is grumpy");
    expect(text).not.toContain("Unverified words");
    expect(text).not.toMatch(/\/attachments\/|\/uploads\//);
    expect(parsed.html).toContain("My lamp &lt;flickers&gt;.");
    expect(parsed.html).toContain("Try the blue bulb &amp; tell us.");
    expect(parsed.html).not.toContain("<flickers>");

    const replyAddress = parsed.replyTo!.value[0]!.address!;
    expect(replyAddress).toMatch(new RegExp(`^r\\+[a-z2-7]+@${DOMAIN.replace(/\./g, "\\.")}$`));
    expect(parsed.inReplyTo).toBe(`<conversation.${started.conversationId}@${DOMAIN}>`);
    expect(parsed.references).toBe(`<conversation.${started.conversationId}@${DOMAIN}>`);
    const unsubscribe = /^<(.+)>$/.exec(header(mail, "list-unsubscribe") ?? "")?.[1] ?? "";
    expect(unsubscribe).toMatch(new RegExp(`^${PUBLIC_URL}/api/v1/email/unsubscribe\\?email=em_`));
    expect(unsubscribe).not.toContain(encodeURIComponent(started.email));
    expect(header(mail, "list-unsubscribe-post")).toBe("List-Unsubscribe=One-Click");
    expect(text).toContain(unsubscribe);

    // Answering the transcript lands in the conversation.
    const answered = await forward({ from: started.email, to: replyAddress, text: "Thanks, the blue one works." });
    expect(answered).toMatchObject({ outcome: "accepted", conversation_id: started.conversationId });
    const list = await api.get("/api/v1/chat/visitor/messages", visitor(started));
    expect(list.json.result.items.at(-1)).toMatchObject({ author_type: "visitor", body: "Thanks, the blue one works." });
  });

  test("asked again (or twice at once) with nothing new said: 202 and no second email; after a new message, a second one", async () => {
    const started = await conversation();
    // Two at once (a double click): one email.
    expect((await Promise.all([askTranscript(started), askTranscript(started)])).map((response) => response.status)).toEqual([202, 202]);
    await nthMail(started.email, 1);
    expect((await api.post(`/api/v1/admin/conversations/${started.conversationId}/close`, { admin: true })).status).toBe(200);
    const again = await askTranscript(started); // any status: after a close too
    expect(again.status).toBe(202);
    expect(again.json.result).toEqual({ queued: true });
    await settle();
    expect(await transcriptsOf(started.conversationId)).toHaveLength(1);

    expect((await api.post(`/api/v1/admin/conversations/${started.conversationId}/reopen`, { admin: true })).status).toBe(200);
    await staffReply(started.conversationId, (await createMember()).id, "One more thing");
    expect((await askTranscript(started)).status).toBe(202);
    const second = await nthMail(started.email, 2);
    expect(second.parsed.text).toContain("> One more thing");
  });

  test("refusals change nothing: no email on file (400 email_required), a body other than {}, no token or a wrong one", async () => {
    const anonymous = await conversation(null);
    expectError(await askTranscript(anonymous), 400, "email_required");

    const started = await conversation();
    for (const body of [{ email: "other@example.com" }, [], "x", null]) {
      expectError(await askTranscript(started, body), 400, "invalid_request");
    }
    expectError(await api.post("/api/v1/chat/visitor/transcript", { origin: started.origin, body: {} }), 401, "unauthorized");
    expectError(await api.post("/api/v1/chat/visitor/transcript", { origin: started.origin, token: `${started.token}x`, body: {} }), 401, "unauthorized");
    await settle();
    expect(await transcriptsOf(started.conversationId)).toEqual([]);
    expect(await transcriptsOf(anonymous.conversationId)).toEqual([]);
  });

  test("the recipient's caps and the suppression list hold: kept as suppressed, the answer the same", async () => {
    const email = address();
    const site = (await createSite({ daily_allowance: 1000 })).id;
    const started = await conversation(email, site);
    for (let round = 1; round <= 4; round++) {
      if (round > 1) {
        const sent = await api.post("/api/v1/chat/visitor/messages", { ...visitor(started), body: { body: `Round ${round}`, client_id: `c-${round}` } });
        expect(sent.status).toBe(201);
      }
      expect((await askTranscript(started)).status).toBe(202);
    }
    const rows = await settledTranscripts(started.conversationId, 4);
    expect(rows.map((row) => [row.status, row.suppressedReason])).toEqual([
      ["sent", null],
      ["sent", null],
      ["sent", null],
      ["suppressed", "hourly_cap"],
    ]);
    expect(smtp.to(email)).toHaveLength(3);

    const listed = await conversation();
    await addSuppression(await sqlExecutor(), { address: listed.email, reason: "unsubscribe", siteId: listed.siteId });
    expect((await askTranscript(listed)).status).toBe(202);
    const [row] = await settledTranscripts(listed.conversationId, 1);
    expect(row).toMatchObject({ status: "suppressed", suppressedReason: "unsubscribe" });
    expect(smtp.to(listed.email)).toEqual([]);
  });

  test("a later follow-up carries only the staff replies newer than the transcript", async () => {
    const started = await conversation();
    const member = await createMember({ name: "Grace Agent" });
    await staffReply(started.conversationId, member.id, "First answer, in the transcript.");
    expect((await askTranscript(started)).status).toBe(202);
    await nthMail(started.email, 1);
    await followUpNow(started.conversationId);
    expect(await followUpsOf(started.conversationId)).toEqual([]); // the transcript carried the only reply

    await staffReply(started.conversationId, member.id, "Second answer, after it.");
    await followUpNow(started.conversationId);
    const [followUp] = await followUpsOf(started.conversationId);
    expect(followUp!.textBody).toContain("Second answer, after it.");
    expect(followUp!.textBody).not.toContain("First answer");
  });

  test("a suppressed transcript marks nothing emailed: once the address is off the list, the follow-up carries the reply", async () => {
    const started = await conversation();
    await staffReply(started.conversationId, (await createMember()).id, "The answer the transcript never delivered.");
    await addSuppression(await sqlExecutor(), { address: started.email, reason: "unsubscribe", siteId: started.siteId });
    expect((await askTranscript(started)).status).toBe(202);
    expect((await settledTranscripts(started.conversationId, 1))[0]).toMatchObject({ status: "suppressed" });
    await (await db()).emailSuppression.deleteMany({ where: { addressKey: started.email } });

    await followUpNow(started.conversationId);
    const [followUp] = await followUpsOf(started.conversationId);
    expect(followUp).toMatchObject({ status: expect.stringMatching(/^(pending|sent)$/) });
    expect(followUp!.textBody).toContain("The answer the transcript never delivered.");
  });

  test("a sent transcript keeps its subject and size in the outbox, not another copy of the conversation", async () => {
    const started = await conversation();
    await staffReply(started.conversationId, (await createMember()).id, "Kept in the conversation, not in the outbox.");
    expect((await askTranscript(started)).status).toBe(202);
    const mail = await nthMail(started.email, 1);
    expect(mail.parsed.text).toContain("Kept in the conversation, not in the outbox.");
    const [row] = await eventually(async () => {
      const rows = await settledTranscripts(started.conversationId, 1);
      expect(rows[0]!.status).toBe("sent");
      return rows;
    }, 15_000);
    expect(row).toMatchObject({ subject: "Your conversation with the team", htmlBody: "" });
    expect(row!.textBody).toMatch(SENT_TRANSCRIPT_BODY);
    expect(Number(SENT_TRANSCRIPT_BODY.exec(row!.textBody)![1])).toBeGreaterThan(mail.parsed.text!.length);
    expect(row!.textBody).not.toContain("Kept in the conversation");
    expect(row!.textBody).not.toContain("My lamp");
  });

  test("in the conversation's language, signed with the widget's title (round 4)", async () => {
    const site = (await createSite({ daily_allowance: 1000 })).id;
    expect((await api.patch(`/api/v1/admin/sites/${site}`, { admin: true, body: { title: "Acme Hilfe", locale: "de" } })).status).toBe(200);
    const started = await conversation(address(), site);
    expect((await askTranscript(started)).status).toBe(202);
    const { parsed } = await nthMail(started.email, 1);
    expect(parsed.subject).toBe("Ihr Gespräch mit Acme Hilfe");
    expect(parsed.text).toContain("Hallo Vic, hier ist Ihr Gespräch mit Acme Hilfe, wie gewünscht.");
    expect(parsed.text).toContain("Gesendet von Acme Hilfe");
    expect(parsed.text).not.toContain(site);
  });

  test("a suppressed transcript records the refusal, not the conversation: its subject, no bodies", async () => {
    const listed = await conversation();
    await addSuppression(await sqlExecutor(), { address: listed.email, reason: "unsubscribe", siteId: listed.siteId });
    expect((await askTranscript(listed)).status).toBe(202);
    const [row] = await settledTranscripts(listed.conversationId, 1);
    expect(row).toMatchObject({ status: "suppressed", subject: "Your conversation with the team", textBody: SUPPRESSED_BODY, htmlBody: "" });
    expect(row!.textBody).not.toContain("My lamp");
  });

  test(`at most ${TRANSCRIPTS_PER_DAY} a conversation a day, suppressed ones included: then 429 rate_limited with Retry-After, nothing stored`, async () => {
    const started = await conversation();
    const say = (round: number) => api.post("/api/v1/chat/visitor/messages", { ...visitor(started), body: { body: `Round ${round}`, client_id: `d-${round}` } });
    for (let round = 1; round <= TRANSCRIPTS_PER_DAY; round++) {
      if (round > 1) expect((await say(round)).status).toBe(201);
      expect((await askTranscript(started)).status).toBe(202);
    }
    expect((await say(TRANSCRIPTS_PER_DAY + 1)).status).toBe(201);
    const limited = await askTranscript(started);
    expectError(limited, 429, "rate_limited");
    const retryAfter = Number(limited.headers.get("retry-after"));
    expect(retryAfter).toBeGreaterThan(86_400 - 120);
    expect(retryAfter).toBeLessThanOrEqual(86_400);
    const rows = await settledTranscripts(started.conversationId, TRANSCRIPTS_PER_DAY);
    // Over the caps (3 an hour) they were kept suppressed, and still counted.
    expect(rows.filter((row) => row.status === "suppressed")).toHaveLength(TRANSCRIPTS_PER_DAY - 3);

    // A day later the oldest no longer counts, and the refused request's claim was rolled back.
    await (await db()).email.update({ where: { id: rows[0]!.id }, data: { createdAt: new Date(Date.now() - 86_400_000 - 1_000) } });
    expect((await askTranscript(started)).status).toBe(202);
    await settledTranscripts(started.conversationId, TRANSCRIPTS_PER_DAY + 1);
  });
});

describe("one-click unsubscribe from a site's automatic emails", { timeout: 60_000 }, () => {
  test("a ticket acknowledgement's link: GET asks, POST lists (address, site); the next acknowledgement there is suppressed, another site's sent", async () => {
    const email = address();
    const [site, other] = [await createSite(), await createSite()];
    await fileTicket(site.id, { email, subject: "Broken lamp", body: "It flickers." });
    const mail = await nthMail(email, 1);
    const url = /^<(.+)>$/.exec(header(mail, "list-unsubscribe") ?? "")?.[1] ?? "";
    expect(url).toMatch(new RegExp(`^${PUBLIC_URL}/api/v1/email/unsubscribe\\?email=em_[^&]+&signature=`));
    expect(header(mail, "list-unsubscribe-post")).toBe("List-Unsubscribe=One-Click");
    expect(mail.parsed.text).toContain(url);
    expect(mail.parsed.html).toContain(url.replace(/&/g, "&amp;"));
    const path = url.slice(PUBLIC_URL.length);

    const page = await unsubscribeCall("GET", path);
    expect(page.status).toBe(200);
    expect(page.text).toContain(site.id); // the site's name
    expect(page.text).toContain('<form method="post"');
    expect(page.text).not.toContain(email);
    expect(await suppressionsOf(email)).toEqual([]);

    for (const tampered of [path.replace(/signature=[^&]+/, "signature=forged"), path.replace(/email=em_(.)/, (_, first: string) => `email=em_${first === "0" ? "1" : "0"}`), path.replace(/&signature=[^&]+/, "")]) {
      expect((await unsubscribeCall("POST", tampered, "List-Unsubscribe=One-Click")).status).toBe(404);
      expect((await unsubscribeCall("GET", tampered)).status).toBe(404);
    }
    expect(await suppressionsOf(email)).toEqual([]);

    const done = await unsubscribeCall("POST", path, "List-Unsubscribe=One-Click");
    expect(done.status).toBe(200);
    expect((await unsubscribeCall("POST", path, "List-Unsubscribe=One-Click")).status).toBe(200); // twice: one entry
    expect(await suppressionsOf(email)).toEqual([{ reason: "unsubscribe", siteId: site.id }]);

    await fileTicket(site.id, { email, subject: "Still broken", body: "Again." });
    await fileTicket(other.id, { email, subject: "Elsewhere", body: "Hi." });
    await nthMail(email, 2);
    const acknowledgements = await eventually(async () => {
      const rows = await (await db()).email.findMany({ where: { recipient: email }, orderBy: { createdAt: "asc" } });
      expect(rows).toHaveLength(3);
      expect(rows.filter((row) => row.status === "pending")).toEqual([]);
      return rows;
    }, 15_000);
    // The two later ones may share a transaction (one dispatcher batch), so their order is not asserted.
    expect(acknowledgements.map((row) => [row.siteId, row.status, row.suppressedReason])).toEqual(
      expect.arrayContaining([
        [site.id, "sent", null],
        [site.id, "suppressed", "unsubscribe"],
        [other.id, "sent", null],
      ]),
    );
    expect(smtp.to(email).at(-1)!.parsed.subject).toContain("Elsewhere");
  });

  test("after LOG_RETENTION_DAYS pruned the email, its link still unsubscribes: the address kept only as a keyed hash", async () => {
    const email = address();
    const [site, other] = [await createSite(), await createSite()];
    await fileTicket(site.id, { email, subject: "Broken lamp", body: "It flickers." });
    const mail = await nthMail(email, 1);
    const path = (/^<(.+)>$/.exec(header(mail, "list-unsubscribe") ?? "")?.[1] ?? "").slice(PUBLIC_URL.length);
    const prisma = await db();
    const sent = await eventually(() => prisma.email.findFirstOrThrow({ where: { recipient: email, status: "sent" } }), 15_000);
    await prisma.email.update({ where: { id: sent.id }, data: { createdAt: new Date(Date.now() - 91 * 86_400_000) } });
    await pruneLogs();
    expect(await prisma.email.findUnique({ where: { id: sent.id } })).toBeNull();
    const kept = await prisma.prunedUnsubscribeLink.findUniqueOrThrow({ where: { emailId: sent.id } });
    expect(kept).toMatchObject({ siteId: site.id, kind: "ticket_acknowledgement", ticketId: sent.ticketId });
    expect(JSON.stringify(kept).toLowerCase()).not.toContain(email.split("@")[0]);

    const page = await unsubscribeCall("GET", path);
    expect(page.status).toBe(200);
    expect(page.text).toContain(site.id); // the site's name
    expect((await unsubscribeCall("POST", path.replace(/signature=[^&]+/, "signature=forged"), "List-Unsubscribe=One-Click")).status).toBe(404);
    expect((await unsubscribeCall("POST", path, "List-Unsubscribe=One-Click")).status).toBe(200);
    expect((await unsubscribeCall("POST", path, "List-Unsubscribe=One-Click")).status).toBe(200); // twice: one entry
    const entries = await prisma.emailSuppression.findMany({ where: { addressHash: kept.addressHash } });
    expect(entries).toMatchObject([{ addressKey: null, reason: "unsubscribe", siteId: site.id }]);
    // The owners' list (the inbox's route calls this; this file's PUBLIC_URL is not the test server's origin).
    const listed = await listSuppressions({ site: site.id, limit: 10 });
    expect(listed.suppressions).toMatchObject([{ address: null, reason: "unsubscribe", site: site.id }]);

    // The hash holds like the address: that site's next acknowledgement is suppressed (any case), another site's goes.
    await fileTicket(site.id, { email: email.toUpperCase(), subject: "Still broken", body: "Again." });
    await fileTicket(other.id, { email, subject: "Elsewhere", body: "Hi." });
    await nthMail(email, 2);
    const later = await eventually(async () => {
      const rows = await prisma.email.findMany({ where: { recipientKey: email }, orderBy: { createdAt: "asc" } });
      expect(rows).toHaveLength(2);
      expect(rows.filter((row) => row.status === "pending")).toEqual([]);
      return rows;
    }, 15_000);
    expect(later.map((row) => [row.siteId, row.status, row.suppressedReason])).toEqual(
      expect.arrayContaining([
        [site.id, "suppressed", "unsubscribe"],
        [other.id, "sent", null],
      ]),
    );

    // Erasing the person erases what pruning kept of their emails.
    expect((await api.post("/api/v1/admin/privacy/erase", { admin: true, body: { email } })).status).toBe(200);
    expect(await prisma.prunedUnsubscribeLink.findUnique({ where: { emailId: sent.id } })).toBeNull();
  });

  test(`a link works for ${UNSUBSCRIBE_LINK_DAYS} days after its email; then it is refused and retention deletes what pruning kept of it`, async () => {
    const email = address();
    const site = await createSite();
    await fileTicket(site.id, { email, subject: "Old lamp", body: "It flickers." });
    const mail = await nthMail(email, 1);
    const path = (/^<(.+)>$/.exec(header(mail, "list-unsubscribe") ?? "")?.[1] ?? "").slice(PUBLIC_URL.length);
    const prisma = await db();
    const sent = await eventually(() => prisma.email.findFirstOrThrow({ where: { recipient: email, status: "sent" } }), 15_000);
    const daysAgo = (days: number) => new Date(Date.now() - days * 86_400_000);

    // Pruned after LOG_RETENTION_DAYS, the link still works from the record until the horizon.
    const written = daysAgo(UNSUBSCRIBE_LINK_DAYS - 1);
    await prisma.email.update({ where: { id: sent.id }, data: { createdAt: written } });
    await pruneLogs();
    expect(await prisma.prunedUnsubscribeLink.findUniqueOrThrow({ where: { emailId: sent.id } })).toMatchObject({ emailCreatedAt: written });
    expect((await unsubscribeCall("GET", path)).status).toBe(200);

    // Past it: the link is refused, and the next retention run deletes the record.
    await prisma.prunedUnsubscribeLink.update({ where: { emailId: sent.id }, data: { emailCreatedAt: daysAgo(UNSUBSCRIBE_LINK_DAYS + 1) } });
    expect((await unsubscribeCall("GET", path)).status).toBe(404);
    expect((await pruneLogs()).unsubscribe_links).toBeGreaterThanOrEqual(1);
    expect(await prisma.prunedUnsubscribeLink.findUnique({ where: { emailId: sent.id } })).toBeNull();
    expect((await unsubscribeCall("POST", path, "List-Unsubscribe=One-Click")).status).toBe(404);
    expect(await prisma.emailSuppression.count({ where: { siteId: site.id } })).toBe(0);
  });

  test("after LOG_RETENTION_DAYS a suppression entry keeps only its address's keyed hash, and still holds", async () => {
    const email = address();
    const site = await createSite();
    const prisma = await db();
    await addSuppression(await sqlExecutor(), { address: email, reason: "unsubscribe", siteId: site.id });
    const entry = await prisma.emailSuppression.findFirstOrThrow({ where: { siteId: site.id } });
    await prisma.emailSuppression.update({ where: { id: entry.id }, data: { createdAt: new Date(Date.now() - 91 * 86_400_000) } });
    expect((await pruneLogs()).suppressed_addresses).toBeGreaterThanOrEqual(1);
    const kept = await prisma.emailSuppression.findUniqueOrThrow({ where: { id: entry.id } });
    expect(kept).toMatchObject({ addressKey: null, addressHash: await addressHash(email), reason: "unsubscribe", siteId: site.id });
    expect(JSON.stringify(await prisma.emailSuppression.findMany({ where: { siteId: site.id } })).toLowerCase()).not.toContain(email.split("@")[0]);

    // Owners still find it by the whole address; the next acknowledgement there is still suppressed.
    expect((await listSuppressions({ q: email.toUpperCase(), limit: 10 })).suppressions).toMatchObject([{ id: entry.id, address: null }]);
    await fileTicket(site.id, { email, subject: "Again", body: "Hi." });
    const [row] = await eventually(async () => {
      const rows = await prisma.email.findMany({ where: { recipientKey: email } });
      expect(rows).toHaveLength(1);
      expect(rows[0]!.status).not.toBe("pending");
      return rows;
    }, 15_000);
    expect(row).toMatchObject({ status: "suppressed", suppressedReason: "unsubscribe" });
  });

  test("a follow-up's page offers this conversation or the whole site; this conversation lists nothing", async () => {
    const started = await conversation();
    const member = await createMember({ name: "Grace Agent" });
    await staffReply(started.conversationId, member.id, "Any news?");
    await followUpNow(started.conversationId);
    const followUp = await (await db()).email.findFirstOrThrow({ where: { conversationId: started.conversationId, kind: "visitor_follow_up" } });
    const url = /^<(.+)>$/.exec((followUp.headers as Record<string, string>)["List-Unsubscribe"] ?? "")?.[1] ?? "";
    const path = url.slice(PUBLIC_URL.length);
    const page = await unsubscribeCall("GET", path);
    expect(page.status).toBe(200);
    expect(page.text).toContain("scope=conversation");
    const onlyThis = await unsubscribeCall("POST", `${path}&scope=conversation`);
    expect(onlyThis.status).toBe(200);
    expect(onlyThis.text).toContain("this conversation");
    expect(await suppressionsOf(started.email)).toEqual([]);
    expect(await (await db()).visitorFollowUp.findUnique({ where: { conversationId: started.conversationId } })).toMatchObject({
      unsubscribedAt: expect.any(Date),
    });
  });
});

