import { beforeAll, describe, expect, test, vi } from "vitest";
import type { PreparedStatement } from "../../lib/db/client";
import { renderEmail } from "../../lib/email/templates";
import { APPEND_MESSAGE, APPEND_MESSAGE_SIGNALLED_AFTER } from "../../lib/conversations/statements";
import { flushed } from "../../lib/realtime/coalesced-notify";
import { loadMessages, messageEventData } from "../../lib/webhooks/event-data";
import { api, call, type CallOptions } from "../support/api";
import { expectError } from "../support/expectations";
import { createMember, openConversation, visitor, type Started } from "../support/fixtures";
import { as, createStaff, INBOX_ORIGIN, type Staff } from "../support/inbox";
import { rowCounts } from "../support/row-counts";
import { file, PDF_BYTES, PNG_BYTES, putUpload } from "../support/tickets";

// Files in chat (decisions.md, round 3): uploads on both sides, sends with `attachments`, the
// files in every message read, the visitor's download. The wrapper only notes each prepared
// statement's name: the hot paths must run no more statements than before.

const statements: string[] = [];

vi.mock("../../lib/db/client", async (importOriginal) => {
  const real = await importOriginal<typeof import("../../lib/db/client")>();
  return {
    ...real,
    queryPrepared: async <Row,>(statement: PreparedStatement, values: unknown[]) => {
      statements.push(statement.name);
      return real.queryPrepared<Row>(statement, values);
    },
  };
});

let agent: Staff;

beforeAll(async () => {
  agent = await createStaff("agent");
});

const PDF = { name: "invoice.pdf", content_type: "application/pdf", bytes: PDF_BYTES.length };

/** Describes a file as the visitor and uploads `bytes` (the file's own by default). */
async function visitorUpload(started: Started, described: Record<string, unknown> = file(), bytes: Uint8Array | null = PNG_BYTES) {
  const response = await api.post("/api/v1/chat/visitor/uploads", { ...visitor(started), body: described });
  expect(response.status).toBe(201);
  const { attachment_id, upload_url } = response.json.result;
  if (bytes) await putUpload(upload_url, bytes, { contentType: String(described.content_type), origin: started.origin });
  return attachment_id as string;
}

async function staffUpload(started: Started, described: Record<string, unknown> = PDF, bytes: Uint8Array = PDF_BYTES) {
  const response = await api.post(`/api/v1/inbox/conversations/${started.conversationId}/uploads`, as(agent, { body: described }));
  expect(response.status).toBe(201);
  const { attachment_id, upload_url } = response.json.result;
  // From the inbox's page: the service's own Origin, which no site allowlists.
  expect((await putUpload(upload_url, bytes, { contentType: String(described.content_type), origin: INBOX_ORIGIN })).status).toBe(200);
  return attachment_id as string;
}

const send = (started: Started, body: Record<string, unknown>) =>
  api.post("/api/v1/chat/visitor/messages", { ...visitor(started), body: { client_id: `c-${Math.random()}`, body: "", ...body } });

const list = async (started: Started) => (await api.get("/api/v1/chat/visitor/messages?cursor=0", visitor(started))).json.result.items;

/** GET a download route's handler (its answer is the file, not the JSON envelope). */
async function download(path: string, options: CallOptions & { id: string }) {
  const module = path.includes("/inbox/")
    ? await import("../../app/api/v1/inbox/attachments/[id]/route")
    : await import("../../app/api/v1/chat/visitor/attachments/[id]/route");
  const headers = new Headers(options.headers);
  if (options.origin) headers.set("Origin", options.origin);
  if (options.token) headers.set("Authorization", `Bearer ${options.token}`);
  return module.GET(new Request(`http://localhost:3000${path}`, { headers }), { params: Promise.resolve({ id: options.id }) });
}

/** A refused request changes no row. */
async function expectRefused(request: () => Promise<Parameters<typeof expectError>[0]>, status: number, code: string) {
  const before = await rowCounts();
  expectError(await request(), status, code);
  expect(await rowCounts()).toEqual(before);
}

describe("the visitor sends files", () => {
  test("upload, send with an empty body; every read carries the files, each side with its own URL", async () => {
    const started = await openConversation({ body: "hi", client_id: "a" });
    const image = await visitorUpload(started);
    const pdf = await visitorUpload(started, PDF, PDF_BYTES);
    const sent = await send(started, { attachments: [pdf, image] });
    expect(sent.status).toBe(201);
    expect(sent.json.result.message.body).toBe("");
    const expected = (path: string) => [
      { id: pdf, name: "invoice.pdf", content_type: "application/pdf", bytes: PDF_BYTES.length, url: `${path}/${pdf}` },
      { id: image, name: "photo.png", content_type: "image/png", bytes: PNG_BYTES.length, url: `${path}/${image}` },
    ];
    expect(sent.json.result.message.attachments).toEqual(expected("/api/v1/chat/visitor/attachments"));

    const items = await list(started);
    expect(items.map((item: { attachments: unknown[] }) => item.attachments)).toEqual([[], expected("/api/v1/chat/visitor/attachments")]);
    const thread = (await api.get(`/api/v1/inbox/conversations/${started.conversationId}`, as(agent))).json.result.messages;
    expect(thread.at(-1).attachments).toEqual(expected("/api/v1/inbox/attachments"));
    const operator = (await api.get(`/api/v1/admin/conversations/${started.conversationId}`, { admin: true })).json.result.messages;
    expect(operator.map((message: { attachments: unknown[] }) => message.attachments)).toEqual([[], expected("/api/v1/inbox/attachments")]);

    const [event] = (await loadMessages([sent.json.result.message.id])).values();
    expect(messageEventData(event!).message.attachments).toEqual(expected("/api/v1/inbox/attachments"));
  });

  test("a replay of the send answers the stored message with its files", async () => {
    const started = await openConversation();
    const image = await visitorUpload(started);
    const body = { client_id: "same", body: "look", attachments: [image] };
    expect((await send(started, body)).status).toBe(201);
    const replay = await send(started, body);
    expect(replay.status).toBe(200);
    expect(replay.json.result.duplicate).toBe(true);
    expect(replay.json.result.message.attachments.map((attachment: { id: string }) => attachment.id)).toEqual([image]);
  });

  test("a message without files carries attachments: [] everywhere", async () => {
    const started = await openConversation({ body: "hi", client_id: "a" });
    const sent = await send(started, { body: "no files" });
    expect(sent.json.result.message.attachments).toEqual([]);
    expect((await list(started)).every((item: { attachments: unknown[] }) => item.attachments.length === 0)).toBe(true);
    const thread = (await api.get(`/api/v1/inbox/conversations/${started.conversationId}`, as(agent))).json.result.messages;
    expect(thread.map((message: { attachments: unknown[] }) => message.attachments)).toEqual([[], []]);
  });
});

describe("refusals change nothing", () => {
  test("a file not uploaded yet, or already sent: 409 upload_incomplete", async () => {
    const started = await openConversation();
    const pending = await visitorUpload(started, file(), null);
    await expectRefused(() => send(started, { attachments: [pending] }), 409, "upload_incomplete");
    const image = await visitorUpload(started);
    expect((await send(started, { attachments: [image] })).status).toBe(201);
    await expectRefused(() => send(started, { body: "again", attachments: [image] }), 409, "upload_incomplete");
  });

  test("another conversation's file, an unknown id or the staff side's file: 404", async () => {
    const started = await openConversation();
    const other = await openConversation();
    const theirs = await visitorUpload(other);
    await expectRefused(() => send(started, { attachments: [theirs] }), 404, "not_found");
    await expectRefused(() => send(started, { attachments: ["no-such-file"] }), 404, "not_found");
    const staffFile = await staffUpload(started);
    await expectRefused(() => send(started, { attachments: [staffFile] }), 404, "not_found");
  });

  test.each([
    ["an empty body without files", { body: "" }],
    ["an empty list of files", { body: "x", attachments: [] }],
    ["eleven files", { body: "x", attachments: Array.from({ length: 11 }, (_, i) => `f${i}`) }],
    ["a repeated file", { body: "x", attachments: ["f", "f"] }],
  ])("a send with %s: 400", async (_name, body) => {
    const started = await openConversation();
    await expectRefused(() => send(started, body), 400, "invalid_request");
  });

  test.each([
    ["a type not on the tickets' list", file({ name: "page.html", content_type: "text/html" })],
    ["more than 10 MiB", file({ bytes: 10 * 1024 * 1024 + 1 })],
    ["no name", { content_type: "image/png", bytes: 10 }],
  ])("an upload of %s: 400", async (_name, described) => {
    const started = await openConversation();
    await expectRefused(() => api.post("/api/v1/chat/visitor/uploads", { ...visitor(started), body: described }), 400, "invalid_request");
  });

  test("a staff upload into an unknown conversation: 404", async () => {
    await expectRefused(() => api.post("/api/v1/inbox/conversations/nope/uploads", as(agent, { body: PDF })), 404, "conversation_not_found");
  });

  test("bytes that are not the declared type: the upload is refused and the file never appears", async () => {
    const started = await openConversation();
    const response = await api.post("/api/v1/chat/visitor/uploads", { ...visitor(started), body: file({ bytes: PDF_BYTES.length }) });
    const { attachment_id, upload_url } = response.json.result;
    expectError(await putUpload(upload_url, PDF_BYTES, { contentType: "image/png" }), 400, "invalid_request");
    await expectRefused(() => send(started, { attachments: [attachment_id] }), 409, "upload_incomplete");
    expect((await download(`/api/v1/chat/visitor/attachments/${attachment_id}`, { ...visitor(started), id: attachment_id })).status).toBe(404);
  });
});

describe("downloads", () => {
  test("the visitor downloads its conversation's files with its token: images inline, others as attachments", async () => {
    const started = await openConversation();
    const image = await visitorUpload(started);
    const pdf = await visitorUpload(started, PDF, PDF_BYTES);
    await send(started, { attachments: [image, pdf] });

    const shown = await download(`/api/v1/chat/visitor/attachments/${image}`, { ...visitor(started), id: image });
    expect(shown.status).toBe(200);
    expect(shown.headers.get("content-type")).toBe("image/png");
    expect(shown.headers.get("content-disposition")).toMatch(/^inline; /);
    expect(shown.headers.get("x-content-type-options")).toBe("nosniff");
    expect(shown.headers.get("content-security-policy")).toContain("sandbox");
    expect(shown.headers.get("access-control-allow-origin")).toBe(started.origin);
    expect(Buffer.from(await shown.arrayBuffer())).toEqual(PNG_BYTES);

    const saved = await download(`/api/v1/chat/visitor/attachments/${pdf}`, { ...visitor(started), id: pdf });
    expect(saved.headers.get("content-disposition")).toBe(`attachment; filename="invoice.pdf"; filename*=UTF-8''invoice.pdf`);
    expect(Buffer.from(await saved.arrayBuffer())).toEqual(PDF_BYTES);

    const other = await openConversation();
    expect((await download(`/api/v1/chat/visitor/attachments/${image}`, { ...visitor(other), id: image })).status).toBe(404);
    expect((await download(`/api/v1/chat/visitor/attachments/${image}`, { origin: started.origin, id: image })).status).toBe(401);
  });

  test("staff send a file from the inbox; the visitor sees and downloads it; a note's file stays staff-only", async () => {
    const started = await openConversation({ body: "hi", client_id: "a" });
    const pdf = await staffUpload(started);
    const reply = await api.post(`/api/v1/inbox/conversations/${started.conversationId}/messages`, as(agent, { body: { body: "", attachments: [pdf] } }));
    expect(reply.status).toBe(201);
    expect(reply.json.result.message.attachments).toEqual([
      { id: pdf, name: "invoice.pdf", content_type: "application/pdf", bytes: PDF_BYTES.length, url: `/api/v1/inbox/attachments/${pdf}` },
    ]);
    const [, seen] = await list(started);
    expect(seen.attachments[0].url).toBe(`/api/v1/chat/visitor/attachments/${pdf}`);
    const downloaded = await download(seen.attachments[0].url, { ...visitor(started), id: pdf });
    expect(downloaded.headers.get("content-disposition")).toMatch(/^attachment; /);
    expect(Buffer.from(await downloaded.arrayBuffer())).toEqual(PDF_BYTES);
    const staffSide = await download(`/api/v1/inbox/attachments/${pdf}`, { headers: { Cookie: agent.cookie }, id: pdf });
    expect(Buffer.from(await staffSide.arrayBuffer())).toEqual(PDF_BYTES);

    const secret = await staffUpload(started);
    const note = await api.post(`/api/v1/inbox/conversations/${started.conversationId}/messages`, as(agent, { body: { body: "internal", kind: "note", attachments: [secret] } }));
    expect(note.status).toBe(201);
    expect((await download(`/api/v1/chat/visitor/attachments/${secret}`, { ...visitor(started), id: secret })).status).toBe(404);
  });

  test("the operator API's send takes attachments too", async () => {
    const started = await openConversation();
    const member = await createMember();
    const pdf = await staffUpload(started);
    const sent = await api.post(`/api/v1/admin/conversations/${started.conversationId}/messages`, {
      admin: true,
      body: { author_id: member.id, body: "", attachments: [pdf] },
    });
    expect(sent.status).toBe(201);
    expect(sent.json.result.message.attachments.map((attachment: { id: string }) => attachment.id)).toEqual([pdf]);
  });
});

describe("the hot paths", () => {
  test("a send without files and a read of files run the statements they ran before, no more", async () => {
    const started = await openConversation({ body: "hi", client_id: "a" });
    const image = await visitorUpload(started);
    await send(started, { attachments: [image] });
    statements.length = 0;
    expect((await send(started, { body: "plain" })).status).toBe(201);
    // On PostgreSQL the plain send is the append whose signals go after the commit, in one NOTIFY
    // shared by every send of the moment (lib/realtime/coalesced-notify.ts): on the LISTEN
    // connection, or through the pool ("notify_all") while that is down.
    await flushed();
    const append = process.env.TEST_DATABASE_URL ? APPEND_MESSAGE_SIGNALLED_AFTER : APPEND_MESSAGE;
    expect(statements.filter((name) => name !== "notify_all")).toEqual(["find_visitor_session", append.name]);
    expect(statements.filter((name) => name === "notify_all").length).toBeLessThanOrEqual(1);
    statements.length = 0;
    const items = await list(started);
    expect(items[1].attachments).toHaveLength(1);
    expect(statements).toEqual(["find_visitor_session", "public_messages_after", "mark_visitor_seen"]);
  });
});

test("emails list a message's files by name and size, never a link to them", () => {
  const quote = { author: "Ada", body: "", files: [{ name: "invoice.pdf", bytes: 2_100_000 }, { name: "a.txt", bytes: 12 }] };
  const { text, html } = renderEmail({ subject: "New message", siteName: "Shop", intro: "Ada wrote.", quotes: [quote] });
  expect(text).toContain("Ada:\n> [file] invoice.pdf (2.1 MB)\n> [file] a.txt (12 B)");
  expect(html).toContain("[file] invoice.pdf (2.1 MB)<br>[file] a.txt (12 B)");
  expect(text + html).not.toContain("/attachments/");
});

