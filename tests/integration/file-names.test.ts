import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { fileName, cleanFileName } from "../../lib/core/validation/file-names";
import { useDnsResolver } from "../../lib/email/inbound/authenticate";
import { replyToken } from "../../lib/email/links/reply-token";
import { api } from "../support/api";
import { expectError } from "../support/expectations";
import { createSite, openConversation, startConversation, visitor, type Started } from "../support/fixtures";
import { as, createStaff, type Staff } from "../support/inbox";
import { composeMail, TestDns } from "../support/inbound-mail";
import { PDF_BYTES, postTicket, putUpload, ticket } from "../support/tickets";

// One rule for a file's name at every door (issue 38, defect 4; lib/core/validation/file-names.ts):
// NFC first, then no bidirectional control, zero-width or other invisible character, no control
// character. The widget's and the inbox's doors refuse such a name; an emailed attachment (which
// cannot be refused) keeps the name cleaned; a download is saved under the name's last part.

const DOMAIN = "reply.acme.example";
const SECRET = "inbound-secret-for-tests-0123456789";
process.env.MAIL_REPLY_DOMAIN = DOMAIN;
process.env.INBOUND_EMAIL_SECRET = SECRET;

// "invoice‮fdp.txt" is drawn "invoicetxt.pdf" (the FreeScout "Mail2Shell" class, CVE-2026-28289).
const BIDI_NAMES = ["invoice\u202Efdp.txt", "a\u202Ab.txt", "a\u2066b.txt", "a\u2069b.txt", "a\u200Eb.txt", "a\u200Fb.txt", "a\u061Cb.txt", "a\u200Bb.txt", "a\uFEFFb.txt", "a\u2060b.txt", "a\u00ADb.txt", "a\u0007b.txt"];
const dns = new TestDns().signingDomain("visitor.example");
let agent: Staff;

beforeAll(async () => {
  useDnsResolver(dns.resolver);
  agent = await createStaff("agent");
});
afterAll(() => useDnsResolver(undefined));

const described = (name: string) => ({ name, content_type: "application/pdf", bytes: PDF_BYTES.length });

describe("the rule", () => {
  test("a cleaned name has no bidirectional, zero-width, format or control character left, and is in NFC", () => {
    expect(cleanFileName("invoice\u202Efdp.txt")).toBe("invoicefdp.txt");
    for (const name of BIDI_NAMES.slice(1)) expect(cleanFileName(name)).toMatch(/^a ?b\.txt$/);
    expect(cleanFileName("cafe\u0301.pdf")).toBe("caf\u00E9.pdf");
    expect(cleanFileName(" \u202E\u200B ")).toBe("");
    // Joiners that draw something stay: an emoji sequence, a Persian half-space.
    expect(cleanFileName("\u{1F469}\u200D\u{1F4BB}.png")).toBe("\u{1F469}\u200D\u{1F4BB}.png");
    expect(cleanFileName("\u0645\u06CC\u200C\u0631\u0648\u0645.pdf")).toBe("\u0645\u06CC\u200C\u0631\u0648\u0645.pdf");
  });

  test("whatever a name holds, its cleaned form (when anything is left) passes the rule the other doors apply", () => {
    const schema = fileName();
    fc.assert(
      fc.property(fc.string({ unit: "grapheme-composite", maxLength: 300 }), fc.string({ unit: "binary", maxLength: 40 }), (a, b) => {
        const cleaned = cleanFileName(a + b);
        if (cleaned !== "") expect(schema.safeParse(cleaned)).toMatchObject({ success: true, data: cleaned });
      }),
      { numRuns: 500 },
    );
  });
});

describe("the widget's and the inbox's doors refuse such names", () => {
  test("a visitor's chat upload, the inbox's upload and a ticket's files: 400 for every bidirectional or invisible character", async () => {
    const started = await openConversation();
    const site = await createSite();
    for (const name of BIDI_NAMES) {
      expectError(await api.post("/api/v1/chat/visitor/uploads", { ...visitor(started), body: described(name) }), 400, "invalid_request");
      expectError(await api.post(`/api/v1/inbox/conversations/${started.conversationId}/uploads`, as(agent, { body: described(name) })), 400, "invalid_request");
      expectError(await postTicket(site.id, ticket({ files: [described(name)] })), 400, "invalid_request");
    }
  });

  test("a name in decomposed form is kept in NFC", async () => {
    const started = await openConversation();
    const response = await api.post("/api/v1/chat/visitor/uploads", { ...visitor(started), body: described("cafe\u0301.pdf") });
    expect(response.status).toBe(201);
    await putUpload(response.json.result.upload_url, PDF_BYTES, { contentType: "application/pdf", origin: started.origin });
    const sent = await api.post("/api/v1/chat/visitor/messages", { ...visitor(started), body: { client_id: "nfc", body: "", attachments: [response.json.result.attachment_id] } });
    expect(sent.status).toBe(201);
    const items = (await api.get("/api/v1/chat/visitor/messages", visitor(started))).json.result.items as { attachments: { name: string }[] }[];
    expect(items.at(-1)!.attachments.map((file) => file.name)).toEqual(["caf\u00E9.pdf"]);
  });
});

async function download(started: Started, id: string) {
  const { GET } = await import("../../app/api/v1/chat/visitor/attachments/[id]/route");
  const headers = new Headers({ Origin: started.origin, Authorization: `Bearer ${started.token}` });
  return GET(new Request(`http://localhost:3000/api/v1/chat/visitor/attachments/${id}`, { headers }), { params: Promise.resolve({ id }) });
}

describe("an emailed attachment keeps a cleaned name", () => {
  test("invoice<U+202E>fdp.txt arrives as invoicefdp.txt, in the message and in its download", async () => {
    const site = await createSite({ daily_allowance: 100 });
    const email = "vic@visitor.example";
    const started = await startConversation(site.id, { email, name: "Vic", body: "Hello" });
    const to = `r+${await replyToken({ thread: { kind: "conversation", id: started.conversationId }, recipient: { kind: "visitor" } })}@${DOMAIN}`;
    const raw = await composeMail({
      from: email,
      to,
      text: "Here it is.",
      attachments: [
        { filename: "invoice\u202Efdp.txt", content: Buffer.from("total: 10\n"), contentType: "text/plain" },
        { filename: "setup\u202Eexe.pdf", content: Buffer.from("MZ\x90\x00"), contentType: "application/x-msdownload" },
      ],
    });
    const response = await api.post("/api/v1/inbound/email", {
      rawBody: await dns.sign(raw, "visitor.example"),
      headers: { "Content-Type": "message/rfc822", Authorization: `Bearer ${SECRET}` },
    });
    expect(response.json.result).toMatchObject({ outcome: "accepted", skipped_files: [{ name: "setupexe.pdf", reason: "type_not_allowed" }] });
    const messages = (await api.get("/api/v1/chat/visitor/messages", visitor(started))).json.result.items as { body: string; attachments: { id: string; name: string }[] }[];
    const last = messages.at(-1)!;
    expect(last.attachments.map((file) => file.name)).toEqual(["invoicefdp.txt"]);
    expect(last.body).toContain("[Not attached: setupexe.pdf");
    expect(last.body).not.toMatch(/[\u202A-\u202E\u2066-\u2069]/);
    const downloaded = await download(started, last.attachments[0]!.id);
    expect(downloaded.headers.get("content-disposition")).toBe(`attachment; filename="invoicefdp.txt"; filename*=UTF-8''invoicefdp.txt`);
  });
});

describe("a download is saved under the name's last part", () => {
  test("both spellings of Content-Disposition drop the path parts of a stored name", async () => {
    const started = await openConversation();
    const response = await api.post("/api/v1/chat/visitor/uploads", { ...visitor(started), body: described("..\\reports/2026/q1 \u00FC.pdf") });
    expect(response.status).toBe(201);
    const id = response.json.result.attachment_id as string;
    await putUpload(response.json.result.upload_url, PDF_BYTES, { contentType: "application/pdf", origin: started.origin });
    const downloaded = await download(started, id);
    expect(downloaded.status).toBe(200);
    expect(downloaded.headers.get("content-disposition")).toBe(`attachment; filename="q1 _.pdf"; filename*=UTF-8''q1%20%C3%BC.pdf`);
  });
});
