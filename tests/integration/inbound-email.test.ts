import { afterAll, beforeAll, describe, expect, test } from "vitest";
import nodemailer from "nodemailer";
import { db } from "../../lib/db/client";
import { useDnsResolver } from "../../lib/email/inbound/authenticate";
import { startInboundSmtpListener, type InboundSmtpListener } from "../../lib/email/inbound/smtp-listener";
import { replyToken, type ReplyBinding } from "../../lib/email/links/reply-token";
import type { NotificationTimings } from "../../lib/jobs/timings";
import { startNotificationWorker, type NotificationWorker } from "../../lib/notifications/worker";
import { api } from "../support/api";
import { createMember, createSite, startConversation, visitor, type Started } from "../support/fixtures";
import { composeMail, TestDns, type MailSpec } from "../support/inbound-mail";
import { SmtpCapture } from "../support/smtp-capture";
import { fileTicket, PNG_BYTES } from "../support/tickets";
import { eventually } from "../support/webhook-receiver";

// Replies by email (issue #28, decisions.md "Email in both directions"), end to end: real outgoing
// mail (smtp-server) carrying the reply address, real inbound mail through the SMTP listener
// (sent with nodemailer) and through the provider route (raw MIME), DKIM-signed with mailauth's
// signer against a DNS the test controls, so DMARC passes and fails for real.

const DOMAIN = "reply.acme.example";
const SECRET = "inbound-secret-for-tests-0123456789";
process.env.MAIL_REPLY_DOMAIN = DOMAIN;
process.env.INBOUND_EMAIL_SECRET = SECRET;
process.env.MAIL_FROM = "Acme Support <support@acme.example>";
process.env.PUBLIC_URL = "https://parley.example";

const dns = new TestDns().signingDomain("visitor.example").signingDomain("acme.example").signingDomain("spoofed.example");
const smtp = new SmtpCapture();
const TIMINGS: Partial<NotificationTimings> = { staffIdleMs: 60_000, followUpDelayMs: 60_000, emailRetryDelaySeconds: 1, dispatchPollMs: 50, jobExpirySeconds: 10, maintenanceSeconds: 1 };
let worker: NotificationWorker | null = null;
let listener: InboundSmtpListener;
let siteId: string;
let counter = 0;

beforeAll(async () => {
  await smtp.start();
  process.env.SMTP_URL = smtp.url;
  useDnsResolver(dns.resolver);
  worker = await startNotificationWorker({ timings: TIMINGS });
  listener = await startInboundSmtpListener({ port: 0, host: "127.0.0.1" });
  siteId = (await createSite({ daily_allowance: 1000 })).id;
});
afterAll(async () => {
  useDnsResolver(undefined);
  await listener?.close();
  await worker?.stop();
  await smtp.stop();
});

const visitorAddress = () => `visitor${++counter}@visitor.example`;

async function conversationWithEmail(email = visitorAddress()): Promise<Started & { email: string }> {
  return { ...(await startConversation(siteId, { email, name: "Vic", body: "Hello, anyone there?" })), email };
}

async function memberWithEmail(email = `agent${++counter}@acme.example`) {
  const member = await createMember({ name: "Grace Agent" });
  await (await db()).member.update({ where: { id: member.id }, data: { email } });
  return { ...member, email };
}

const address = async (binding: ReplyBinding) => `r+${await replyToken(binding)}@${DOMAIN}`;
const toVisitor = (conversationId: string) => address({ thread: { kind: "conversation", id: conversationId }, recipient: { kind: "visitor" } });

/** Posts raw MIME to the provider route; answers the envelope's result. */
async function forward(raw: Buffer, secret: string | null = SECRET) {
  return api.post("/api/v1/inbound/email", {
    rawBody: raw,
    headers: { "Content-Type": "message/rfc822", ...(secret === null ? {} : { Authorization: `Bearer ${secret}` }) },
  });
}

/** A signed email (DKIM of the From's domain) forwarded by the route. */
async function reply(spec: MailSpec, signWith: string | null = spec.from.split("@")[1]!.replace(/>$/, "")) {
  const raw = await composeMail(spec);
  const response = await forward(signWith ? await dns.sign(raw, signWith) : raw);
  expect(response.status).toBe(200);
  return response.json.result as { outcome: string; reason: string | null; conversation_id: string | null; skipped_files: { name: string; reason: string }[] };
}

async function visitorMessages(started: Started) {
  const response = await api.get("/api/v1/chat/visitor/messages", visitor(started));
  expect(response.status).toBe(200);
  return response.json.result.items as { author_type: string; author_name: string | null; body: string; attachments: { name: string; content_type: string }[] }[];
}

async function allMessages(conversationId: string) {
  const response = await api.get(`/api/v1/admin/conversations/${conversationId}`, { admin: true });
  return response.json.result as { status: string; messages: { kind: string; author_type: string; body: string }[] };
}

const QUOTED = "Yes, the blue one please.\n\nOn Tue, 24 Nov 2026 at 10:00, Acme Support <support@acme.example> wrote:\n> Which colour would you like?\n> -- \n> Acme";

describe("outgoing emails carry a reply address and threading headers", () => {
  test("a ticket acknowledgement has Reply-To r+<token>@domain, a Message-ID and the ticket's root; answering it appends to the ticket's thread", async () => {
    const email = visitorAddress();
    const filed = await fileTicket(siteId, { email, subject: "Broken lamp", body: "It flickers." });
    const [mail] = await eventually(() => {
      const mails = smtp.to(email);
      expect(mails).toHaveLength(1);
      return mails;
    }, 15_000);
    const replyTo = mail!.parsed.replyTo!.value[0]!.address!;
    expect(replyTo).toMatch(new RegExp(`^r\\+[a-z2-7]+@${DOMAIN.replace(/\./g, "\\.")}$`));
    expect(mail!.parsed.messageId).toMatch(/^<em_[^@]+@reply\.acme\.example>$/);
    const ticketRow = await (await db()).ticket.findFirstOrThrow({ where: { siteId, number: filed.number } });
    expect(mail!.parsed.inReplyTo).toBe(`<ticket.${ticketRow.id}@${DOMAIN}>`);
    expect(mail!.parsed.references).toBe(`<ticket.${ticketRow.id}@${DOMAIN}>`);

    const answered = await reply({ from: email, to: replyTo, text: `Here is a photo.\n\n${QUOTED.split("\n\n")[1]}` });
    expect(answered).toMatchObject({ outcome: "accepted", ticket_id: ticketRow.id });
    const thread = await (await db()).ticketReply.findMany({ where: { ticketId: ticketRow.id } });
    expect(thread.map((row) => [row.authorType, row.memberId, row.body])).toEqual([["filer", null, "Here is a photo."]]);
    // The filer's own reply is not mailed back to them.
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(smtp.to(email)).toHaveLength(1);
  });
});

describe("replies land where their token says, from whom it says", () => {
  test("a visitor's emailed reply lands in the conversation, quoted history cut, and reopens it", async () => {
    const started = await conversationWithEmail();
    expect((await api.post(`/api/v1/admin/conversations/${started.conversationId}/close`, { admin: true })).status).toBe(200);
    const answered = await reply({ from: `Vic <${started.email}>`, to: await toVisitor(started.conversationId), text: QUOTED });
    expect(answered).toMatchObject({ outcome: "accepted", reason: null, conversation_id: started.conversationId });
    const messages = await visitorMessages(started);
    expect(messages.at(-1)).toMatchObject({ author_type: "visitor", body: "Yes, the blue one please." });
    expect(messages.some((message) => message.body.includes("Which colour"))).toBe(false);
    expect((await allMessages(started.conversationId)).status).toBe("open");
  });

  test("a member's emailed reply, sent to the SMTP listener, posts as that member and reaches the widget", async () => {
    const started = await conversationWithEmail();
    const member = await memberWithEmail();
    const to = await address({ thread: { kind: "conversation", id: started.conversationId }, recipient: { kind: "member", id: member.id } });
    const raw = await dns.sign(await composeMail({ from: member.email, to, text: "We will ship it today.\n\n-- \nGrace\nAcme Support" }), "acme.example");
    const client = nodemailer.createTransport({ host: "127.0.0.1", port: listener.port, secure: false, ignoreTLS: true });
    await client.sendMail({ envelope: { from: member.email, to: [to] }, raw });
    const messages = await eventually(async () => {
      const items = await visitorMessages(started);
      expect(items.at(-1)?.author_type).toBe("staff");
      return items;
    }, 10_000);
    expect(messages.at(-1)).toMatchObject({ author_type: "staff", author_name: "Grace Agent", body: "We will ship it today." });
  });

  test("a forged From with a valid token is refused and posts nothing; a spoofed member never posts (FreeScout CVE-2026-47123)", async () => {
    const started = await conversationWithEmail();
    const before = (await allMessages(started.conversationId)).messages.length;
    const to = await toVisitor(started.conversationId);
    expect(await reply({ from: "mallory@spoofed.example", to, text: "Send the refund to my account." })).toMatchObject({ outcome: "refused", reason: "sender_mismatch" });
    // The right address in From, but unsigned and from a server that is not the domain's: DMARC fails, so never a visitor message.
    const member = await memberWithEmail();
    const memberTo = await address({ thread: { kind: "conversation", id: started.conversationId }, recipient: { kind: "member", id: member.id } });
    expect(await reply({ from: member.email, to: memberTo, text: "Refund approved." }, "spoofed.example")).toMatchObject({ outcome: "refused", reason: "dmarc_fail" });
    expect((await allMessages(started.conversationId)).messages).toHaveLength(before);
  });

  test("a token changed by one character is refused, wherever the change", async () => {
    const started = await conversationWithEmail();
    const to = await toVisitor(started.conversationId);
    const token = to.slice(2, to.indexOf("@"));
    for (const at of [0, Math.floor(token.length / 2), token.length - 1]) {
      const changed = token.slice(0, at) + (token[at] === "a" ? "b" : "a") + token.slice(at + 1);
      expect(await reply({ from: started.email, to: `r+${changed}@${DOMAIN}`, text: "hello" })).toMatchObject({ outcome: "refused", reason: "invalid_token" });
    }
    expect((await visitorMessages(started)).map((message) => message.body)).toEqual(["Hello, anyone there?"]);
  });

  test("conversation A's token cannot land in B", async () => {
    const a = await conversationWithEmail();
    const b = await conversationWithEmail();
    // B's visitor answering through A's address is not A's visitor.
    expect(await reply({ from: b.email, to: await toVisitor(a.conversationId), text: "for B" })).toMatchObject({ outcome: "refused", reason: "sender_mismatch" });
    // A's MAC under B's thread: the token does not verify.
    const tokenA = (await toVisitor(a.conversationId)).slice(2, -DOMAIN.length - 1);
    const tokenB = (await toVisitor(b.conversationId)).slice(2, -DOMAIN.length - 1);
    const spliced = tokenB.slice(0, tokenB.length - 16) + tokenA.slice(tokenA.length - 16);
    expect(await reply({ from: b.email, to: `r+${spliced}@${DOMAIN}`, text: "for B" })).toMatchObject({ outcome: "refused", reason: "invalid_token" });
    expect((await visitorMessages(b)).map((message) => message.body)).toEqual(["Hello, anyone there?"]);
    expect((await visitorMessages(a)).map((message) => message.body)).toEqual(["Hello, anyone there?"]);
  });

  test("the same Message-ID twice is one message", async () => {
    const started = await conversationWithEmail();
    const raw = await dns.sign(await composeMail({ from: started.email, to: await toVisitor(started.conversationId), text: "Only once", messageId: "<once@client.example>" }), "visitor.example");
    expect((await forward(raw)).json.result).toMatchObject({ outcome: "accepted" });
    expect((await forward(raw)).json.result).toMatchObject({ outcome: "ignored", reason: "duplicate" });
    expect((await visitorMessages(started)).filter((message) => message.body === "Only once")).toHaveLength(1);
  });

  test("an attachment in an emailed reply appears in the chat; a file of a refused type is skipped and said so", async () => {
    const started = await conversationWithEmail();
    const answered = await reply({
      from: started.email,
      to: await toVisitor(started.conversationId),
      text: "The label is attached.",
      attachments: [
        { filename: "label.png", content: PNG_BYTES, contentType: "image/png" },
        { filename: "setup.exe", content: Buffer.from("MZ\x90\x00"), contentType: "application/x-msdownload" },
      ],
    });
    expect(answered.skipped_files).toEqual([{ name: "setup.exe", reason: "type_not_allowed" }]);
    const last = (await visitorMessages(started)).at(-1)!;
    expect(last.attachments).toMatchObject([{ name: "label.png", content_type: "image/png" }]);
    expect(last.body).toContain("The label is attached.");
    expect(last.body).toContain("[Not attached: setup.exe");
  });
});

describe("DMARC", () => {
  test("a visitor reply whose DMARC fails is kept as an unverified staff-only note", async () => {
    const started = await conversationWithEmail();
    const answered = await reply({ from: started.email, to: await toVisitor(started.conversationId), text: "Please change my address." }, "spoofed.example");
    expect(answered).toMatchObject({ outcome: "unverified", reason: "dmarc_fail" });
    expect((await visitorMessages(started)).map((message) => message.body)).toEqual(["Hello, anyone there?"]);
    const note = (await allMessages(started.conversationId)).messages.at(-1)!;
    expect(note).toMatchObject({ kind: "note" });
    expect(note.body).toMatch(/^\[Unverified email/);
    expect(note.body).toContain("Please change my address.");
  });

  test("a DKIM-signed visitor reply passes DMARC and posts as the visitor", async () => {
    const started = await conversationWithEmail();
    expect(await reply({ from: started.email, to: await toVisitor(started.conversationId), text: "Signed." }, "visitor.example")).toMatchObject({ outcome: "accepted" });
  });
});

describe("automatic mail creates nothing", () => {
  test("100 auto-replies post no message and send no email", async () => {
    const started = await conversationWithEmail();
    const to = await toVisitor(started.conversationId);
    const prisma = await db();
    // Nothing is answered to the sender either: no email to the visitor's address.
    const toSender = { recipientKey: started.email };
    const [messagesBefore, emailsBefore] = await Promise.all([prisma.message.count(), prisma.email.count({ where: toSender })]);
    const kinds: Partial<MailSpec>[] = [
      { headers: { "Auto-Submitted": "auto-replied" } },
      { headers: { Precedence: "bulk" } },
      { headers: { Precedence: "auto_reply" } },
      { headers: { "X-Autoreply": "yes" } },
      { returnPath: null },
    ];
    const outcomes = [];
    for (let i = 0; i < 100; i++) {
      outcomes.push((await reply({ from: started.email, to, text: `I am out of office (${i}).`, ...kinds[i % kinds.length] })).outcome);
    }
    expect(new Set(outcomes)).toEqual(new Set(["ignored"]));
    expect(await prisma.message.count()).toBe(messagesBefore);
    expect(await prisma.email.count({ where: toSender })).toBe(emailsBefore);
    expect(await prisma.inboundEmail.count({ where: { conversationId: null, outcome: "ignored", reason: { in: ["auto_submitted", "precedence", "x_autoreply", "empty_return_path"] } } })).toBeGreaterThanOrEqual(100);
  }, 120_000);
});

describe("the two ways in refuse what is not theirs", () => {
  test("the route needs the bearer secret and refuses an email over 25 MB with 413", async () => {
    const raw = await composeMail({ from: "a@visitor.example", to: `r+abc@${DOMAIN}`, text: "x" });
    expect((await forward(raw, null)).status).toBe(401);
    expect((await forward(raw, "wrong-secret-wrong-secret")).status).toBe(401);
    const huge = await forward(Buffer.alloc(25 * 1024 * 1024 + 1, 0x61));
    expect(huge.status).toBe(413);
    expect(huge.json.result.code).toBe("payload_too_large");
  });

  test("bytes that are no email are judged, never a 500", async () => {
    for (const raw of [Buffer.alloc(0), Buffer.from([0xff, 0xfe, 0x00, 0x01, 0x0d, 0x0a, 0x0d, 0x0a]), Buffer.from(`To: r+${"a".repeat(5000)}@${DOMAIN}\r\nFrom: <>\r\n\r\nhi`)]) {
      const response = await forward(raw);
      expect(response.status).toBe(200);
      expect(response.json.result.outcome).toBe("refused");
    }
  });

  test("the listener accepts recipients of the reply domain only", async () => {
    const client = nodemailer.createTransport({ host: "127.0.0.1", port: listener.port, secure: false, ignoreTLS: true });
    await expect(client.sendMail({ from: "a@visitor.example", to: "someone@elsewhere.example", text: "relay me" })).rejects.toMatchObject({ responseCode: 550 });
  });

  test("without a certificate the listener offers no STARTTLS (inbound-smtp-tls.test.ts has one)", async () => {
    const client = nodemailer.createTransport({ host: "127.0.0.1", port: listener.port, secure: false, requireTLS: true });
    await expect(client.sendMail({ from: "a@visitor.example", to: `r+abc@${DOMAIN}`, text: "x" })).rejects.toThrow(/STARTTLS/i);
  });
});
