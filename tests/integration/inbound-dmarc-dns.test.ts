import { afterAll, beforeAll, describe, expect, test } from "vitest";
import nodemailer from "nodemailer";
import { parseEnv } from "../../lib/core/env";
import { db } from "../../lib/db/client";
import { messageKey } from "../../lib/email/inbound/inbound-record";
import { startInboundSmtpListener, type InboundSmtpListener } from "../../lib/email/inbound/smtp-listener";
import { replyToken, type ReplyBinding } from "../../lib/email/links/reply-token";
import { api } from "../support/api";
import { LoopbackDns } from "../support/dns-server";
import { createMember, createSite, startConversation, visitor, type Started } from "../support/fixtures";
import { composeMail } from "../support/inbound-mail";

// DMARC against a real DNS server (issue #38): DNS_SERVERS points the mail checks at a dns2
// server on loopback that publishes SPF and `_dmarc` records. Mail reaches the SMTP listener from
// 127.0.0.1, so a domain whose SPF names 127.0.0.1 passes (SPF aligned with From) and one whose
// SPF refuses every address, with p=reject, fails. Nothing is DKIM-signed.

const DOMAIN = "reply.acme.example";
process.env.MAIL_REPLY_DOMAIN = DOMAIN;

const dns = new LoopbackDns()
  .publishTxt("honest.example", "v=spf1 ip4:127.0.0.1 -all")
  .publishTxt("_dmarc.honest.example", "v=DMARC1; p=reject")
  .publishTxt("forged.example", "v=spf1 -all")
  .publishTxt("_dmarc.forged.example", "v=DMARC1; p=reject");
let listener: InboundSmtpListener;
let siteId: string;
let counter = 0;

beforeAll(async () => {
  // Before anything reads the environment (it is parsed once).
  process.env.DNS_SERVERS = await dns.start();
  listener = await startInboundSmtpListener({ port: 0, host: "127.0.0.1" });
  siteId = (await createSite({ daily_allowance: 1000 })).id;
});
afterAll(async () => {
  await listener?.close();
  await dns.stop();
});

const address = async (binding: ReplyBinding) => `r+${await replyToken(binding)}@${DOMAIN}`;

async function conversationWith(email: string): Promise<Started> {
  return startConversation(siteId, { email, name: "Vic", body: "Hello, anyone there?" });
}

async function memberWith(email: string) {
  const member = await createMember({ name: "Grace Agent" });
  await (await db()).member.update({ where: { id: member.id }, data: { email } });
  return member;
}

/** Sends the reply to the SMTP listener as a mail server would; answers how the pipeline judged it. */
async function sendReply(from: string, to: string, text: string) {
  const messageId = `<dmarc-${Date.now()}-${++counter}@client.example>`;
  const raw = await composeMail({ from, to, text, messageId });
  const client = nodemailer.createTransport({ host: "127.0.0.1", port: listener.port, secure: false, ignoreTLS: true });
  await client.sendMail({ envelope: { from, to: [to] }, raw });
  // The listener answers 250 once the email is judged, whatever the verdict (no backscatter): the verdict is in its record.
  return (await db()).inboundEmail.findUnique({ where: { messageKey: messageKey(messageId)! }, select: { outcome: true, reason: true } });
}

async function visitorBodies(started: Started) {
  const response = await api.get("/api/v1/chat/visitor/messages", visitor(started));
  return (response.json.result.items as { author_type: string; body: string }[]).map((message) => `${message.author_type}: ${message.body}`);
}

async function allMessages(conversationId: string) {
  const response = await api.get(`/api/v1/admin/conversations/${conversationId}`, { admin: true });
  return (response.json.result as { messages: { kind: string; author_type: string; body: string }[] }).messages;
}

describe("DMARC verdicts from a real DNS server (DNS_SERVERS)", () => {
  test("a visitor's reply from a p=reject domain whose SPF fails becomes the staff-only unverified note", async () => {
    const started = await conversationWith("vic@forged.example");
    const judged = await sendReply("vic@forged.example", await address({ thread: { kind: "conversation", id: started.conversationId }, recipient: { kind: "visitor" } }), "Send the refund to my new account.");
    expect(judged).toMatchObject({ outcome: "unverified", reason: "dmarc_fail" });
    expect(await visitorBodies(started)).toEqual(["visitor: Hello, anyone there?"]);
    const note = (await allMessages(started.conversationId)).at(-1)!;
    expect(note).toMatchObject({ kind: "note", author_type: "system" });
    expect(note.body).toMatch(/^\[Unverified email from the visitor: DMARC failed/);
    expect(note.body).toContain("Send the refund to my new account.");
  });

  test("a staff reply whose DMARC fails is dropped: nothing is posted", async () => {
    const started = await conversationWith("vic2@honest.example");
    const member = await memberWith("grace@forged.example");
    const before = await allMessages(started.conversationId);
    const judged = await sendReply("grace@forged.example", await address({ thread: { kind: "conversation", id: started.conversationId }, recipient: { kind: "member", id: member.id } }), "Refund approved.");
    expect(judged).toMatchObject({ outcome: "refused", reason: "dmarc_fail" });
    expect(await allMessages(started.conversationId)).toEqual(before);
  });

  test("replies whose SPF passes for a p=reject domain post normally, the visitor's and the staff's", async () => {
    const started = await conversationWith("vic3@honest.example");
    const member = await memberWith("grace3@honest.example");
    const thread = { kind: "conversation" as const, id: started.conversationId };
    expect(await sendReply("vic3@honest.example", await address({ thread, recipient: { kind: "visitor" } }), "Blue, please.")).toMatchObject({ outcome: "accepted" });
    expect(await sendReply("grace3@honest.example", await address({ thread, recipient: { kind: "member", id: member.id } }), "Blue it is.")).toMatchObject({ outcome: "accepted" });
    expect(await visitorBodies(started)).toEqual(["visitor: Hello, anyone there?", "visitor: Blue, please.", "staff: Blue it is."]);
  });
});

describe("DNS_SERVERS", () => {
  const base = { ADMIN_TOKEN: "an-admin-token-0123456789abcdef" };
  test("takes addresses with optional ports, IPv6 in brackets with a port", () => {
    expect(parseEnv({ ...base, DNS_SERVERS: "10.0.0.2, 127.0.0.1:5353,[fd00::53]:53,::1" }).DNS_SERVERS).toEqual(["10.0.0.2", "127.0.0.1:5353", "[fd00::53]:53", "::1"]);
    expect(parseEnv(base).DNS_SERVERS).toBeUndefined();
  });

  test("refuses a name, a bad port or an empty entry, naming the variable", () => {
    for (const value of ["dns.example", "10.0.0.2:70000", "10.0.0.2,", "fd00::53:53:53:53:53:53:53"]) {
      expect(() => parseEnv({ ...base, DNS_SERVERS: value })).toThrow(/DNS_SERVERS/);
    }
  });
});
