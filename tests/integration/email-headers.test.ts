import { afterAll, afterEach, beforeAll, describe, expect, test } from "vitest";
import { db } from "../../lib/db/client";
import type { NotificationTimings } from "../../lib/jobs/timings";
import { startNotificationWorker, type NotificationWorker } from "../../lib/notifications/worker";
import { api } from "../support/api";
import { createMember, createSite, ORIGIN, startConversation } from "../support/fixtures";
import { SmtpCapture, type CapturedMail } from "../support/smtp-capture";
import { postTicket, ticket } from "../support/tickets";
import { eventually } from "../support/webhook-receiver";

// Issue 23, item 7: user text in an email header. A ticket subject written as an RFC 2047 encoded
// word (`=?utf-8?B?…?=`) went into the Subject as it was (nodemailer passes a valid encoded word
// through), so the reader's client decoded it — here into "Hi\r\nBcc: victim@example.com". The
// subject must arrive as the literal text the visitor typed, and no header may appear that the
// service did not write. Against a real SMTP server (smtp-server), read back with mailparser.

const smtp = new SmtpCapture();
const TIMINGS: Partial<NotificationTimings> = {
  staffIdleMs: 60_000,
  staffAlertIntervalMs: 4_000,
  followUpDelayMs: 800,
  emailRetryDelaySeconds: 1,
  dispatchPollMs: 50,
  jobExpirySeconds: 10,
  maintenanceSeconds: 1,
};
let worker: NotificationWorker | null = null;
let siteId: string;

beforeAll(async () => {
  await smtp.start();
  process.env.SMTP_URL = smtp.url;
  process.env.MAIL_FROM = "Acme Support <support@acme.example>";
  process.env.PUBLIC_URL = "https://parley.example";
  worker = await startNotificationWorker({ timings: TIMINGS });
  siteId = (await createSite({ daily_allowance: 1000 })).id;
});
afterAll(async () => {
  await worker?.stop();
  await smtp.stop();
});
afterEach(async () => {
  await (await db()).member.updateMany({ data: { email: null, inboxActiveAt: null } });
});

/** "Hi\r\nBcc: victim@example.com", as an encoded word. */
const BCC_WORD = "=?utf-8?B?SGkNCkJjYzogdmljdGltQGV4YW1wbGUuY29t?=";
let counter = 0;
const filer = () => `filer${++counter}@example.com`;

async function onlyMailTo(address: string): Promise<CapturedMail> {
  const [mail] = await eventually(() => {
    const mails = smtp.to(address);
    expect(mails).toHaveLength(1);
    return mails;
  }, 15_000);
  return mail!;
}

/** The header names of a raw message (its header block, unfolded). */
function headerNames(raw: Buffer): string[] {
  const block = raw.toString("latin1").split(/\r?\n\r?\n/)[0]!;
  return block
    .split(/\r?\n(?![ \t])/)
    .map((line) => line.slice(0, line.indexOf(":")).toLowerCase());
}

/** Nothing but what the service writes: one To (the recipient), no Bcc or Cc, no extra header. */
function expectNoInjectedHeader(mail: CapturedMail, recipient: string) {
  expect(mail.to).toEqual([recipient]);
  expect(mail.parsed.headers.has("bcc")).toBe(false);
  expect(mail.parsed.headers.has("cc")).toBe(false);
  expect(mail.parsed.bcc).toBeUndefined();
  const names = headerNames(mail.raw);
  expect(names).not.toContain("bcc");
  expect(names).not.toContain("cc");
  expect(names.filter((name) => name === "subject")).toHaveLength(1);
  expect(smtp.to("victim@example.com")).toEqual([]);
}

describe("a subject arrives as the literal text the visitor typed", () => {
  test.each([
    ["an encoded word that decodes to a Bcc line", BCC_WORD],
    ["an encoded word in Q encoding", "=?UTF-8?Q?Hi=0D=0ABcc:_victim@example.com?="],
    ["an encoded word inside other words", `Order ${BCC_WORD} please`],
    ["two encoded words in a row", `${BCC_WORD} ${BCC_WORD}`],
    ["an encoded word beside non-ASCII text", `Zoë ${BCC_WORD}`],
    ["a lone =? (a price, a question)", "Price =?"],
    ["an encoded word of a long text", `=?utf-8?B?${Buffer.from("A".repeat(60)).toString("base64")}?= and more words after it`],
  ])("a ticket subject holding %s", async (_label, subject) => {
    const address = filer();
    const filed = await postTicket(siteId, ticket({ email: address, subject }));
    expect(filed.status).toBe(201);
    const mail = await onlyMailTo(address);
    expect(mail.parsed.subject).toBe(`[#${filed.json.result.number}] ${subject}`);
    expectNoInjectedHeader(mail, address);

    // The outbox keeps the text as it is; only the header is encoded.
    const stored = await (await db()).email.findFirstOrThrow({ where: { recipient: address } });
    expect(stored.subject).toBe(`[#${filed.json.result.number}] ${subject}`);
  });

  test("a visitor name holding an encoded word reaches the staff alert's subject as text", async () => {
    const member = await createMember({ name: "Grace Staff" });
    const staffAddress = `staff-${member.id}@acme.example`;
    await (await db()).member.update({ where: { id: member.id }, data: { email: staffAddress, notify: true } });
    const name = "=?utf-8?Q?Ada=0D=0ABcc:_victim@example.com?=";
    await startConversation(siteId, { name, body: "Hello?" }, ORIGIN);
    const mail = await onlyMailTo(staffAddress);
    expect(mail.parsed.subject).toMatch(new RegExp(`^${name.replace(/[?=.*+()[\]\\^$|]/g, "\\$&")} wrote on `));
    expectNoInjectedHeader(mail, staffAddress);
  });

  test("a staff reply keeps the literal subject", async () => {
    const address = filer();
    const filed = await postTicket(siteId, ticket({ email: address, subject: BCC_WORD }));
    expect(filed.status).toBe(201);
    await onlyMailTo(address);
    const member = await createMember({ name: "Rita Reply" });
    const ticketId = (await (await db()).ticket.findFirstOrThrow({ where: { email: address }, select: { id: true } })).id;
    const reply = await api.post(`/api/v1/admin/tickets/${ticketId}/replies`, { admin: true, body: { author_id: member.id, body: "On it." } });
    expect(reply.status).toBe(201);
    const mails = await eventually(() => {
      const mails = smtp.to(address);
      expect(mails).toHaveLength(2);
      return mails;
    }, 15_000);
    expect(mails[1]!.parsed.subject).toBe(`Re: [#${filed.json.result.number}] ${BCC_WORD}`);
    expectNoInjectedHeader(mails[1]!, address);
  });
});
