import { strFromU8, unzipSync } from "fflate";
import { beforeAll, describe, expect, test } from "vitest";
import { POST as adminExport } from "../../app/api/v1/admin/privacy/export/route";
import { db } from "../../lib/db/client";
import { api, BASE_URL, type ApiResponse } from "../support/api";
import { expectError } from "../support/expectations";
import { createSite, ORIGIN } from "../support/fixtures";
import { as, createStaff, type Staff } from "../support/inbox";
import { TEST_ADMIN_TOKEN } from "../support/database-per-file";

// The pre-chat form (decisions.md, round 4, "Visitor attributes and the pre-chat form";
// docs/attributes.md): a site setting through the sites' contract, in the widget config; the start
// takes `fields` and `consent`, fills the visitor's name and email and the conversation's typed
// attributes, and stores exactly the consent text agreed to, on staff reads and in exports.

const INBOX = "/api/v1/inbox";
const CONSENT = "I agree that Acme stores this chat to answer me (privacy policy: acme.example/privacy).";
let owner: Staff;
let siteId: string;

async function ok(response: ApiResponse, status = 200) {
  expect(response.status, JSON.stringify(response.json)).toBe(status);
  return response.json.result;
}

const setSite = (id: string, body: Record<string, unknown>) => api.patch(`/api/v1/admin/sites/${id}`, { admin: true, body });
const start = (body: Record<string, unknown>, site = siteId) => api.post(`/api/v1/chat/widget/${site}/conversations`, { origin: ORIGIN, body });
const config = async (site = siteId) => ok(await api.get(`/api/v1/chat/widget/${site}/config`, { origin: ORIGIN }));
const conversationCount = async () => (await db()).conversation.count();

const FORM = {
  fields: [
    { key: "name", required: true },
    { key: "email", required: false },
    { key: "plan", required: true },
    { key: "seats", required: false },
    { key: "newsletter", required: false },
  ],
  consent: { text: CONSENT, required: true },
};

beforeAll(async () => {
  owner = await createStaff("owner");
  for (const body of [
    { key: "plan", label: "Plan", type: "list", options: ["free", "pro"] },
    { key: "seats", label: "Seats", type: "number" },
    { key: "newsletter", label: "Newsletter", type: "boolean" },
    { key: "internal_score", label: "Internal score", type: "number" },
  ]) {
    await ok(await api.post(`${INBOX}/attributes`, as(owner, { body })), 201);
  }
  siteId = (await createSite()).id;
  await ok(await setSite(siteId, { prechat: FORM }));
});

describe("the site setting", () => {
  test("is saved through the sites' contract, read back, and shown in the widget config with labels and types", async () => {
    const sites = await ok(await api.get(`${INBOX}/sites`, as(owner)));
    expect(sites.find((site: { id: string }) => site.id === siteId).prechat).toEqual(FORM);
    const widget = await config();
    expect(widget.prechat).toEqual({
      fields: [
        { key: "name", label: null, type: "name", options: [], required: true },
        { key: "email", label: null, type: "email", options: [], required: false },
        { key: "plan", label: "Plan", type: "list", options: ["free", "pro"], required: true },
        { key: "seats", label: "Seats", type: "number", options: [], required: false },
        { key: "newsletter", label: "Newsletter", type: "boolean", options: [], required: false },
      ],
      consent: { text: CONSENT, required: true },
    });
    const plain = await createSite();
    expect((await config(plain.id)).prechat).toBeNull();
  });

  test("an unknown attribute key, a repeated key, a bad consent or an extra field is 400 and saves nothing", async () => {
    const other = await createSite();
    const bad = [
      { fields: [{ key: "nope", required: false }], consent: null },
      { fields: [{ key: "plan" }, { key: "plan" }], consent: null },
      { fields: [{ key: "Bad Key" }], consent: null },
      { fields: [], consent: { text: "", required: true } },
      { fields: [], consent: { text: "x".repeat(501), required: true } },
      { fields: [], consent: null, extra: 1 },
      { fields: Array.from({ length: 11 }, (_, index) => ({ key: `k${index}` })), consent: null },
      "yes",
    ];
    for (const prechat of bad) expectError(await setSite(other.id, { prechat }), 400, "invalid_request");
    expect((await (await db()).site.findUniqueOrThrow({ where: { id: other.id }, select: { prechat: true } })).prechat).toBeNull();
    await ok(await setSite(other.id, { prechat: { fields: [{ key: "email", required: true }], consent: null } }));
    await ok(await setSite(other.id, { prechat: null }));
    expect((await config(other.id)).prechat).toBeNull();
  });

  test("a field whose attribute is deleted later leaves the widget's form", async () => {
    await ok(await api.post(`${INBOX}/attributes`, as(owner, { body: { key: "doomed", label: "Doomed", type: "text" } })), 201);
    const other = await createSite();
    await ok(await setSite(other.id, { prechat: { fields: [{ key: "doomed", required: true }, { key: "name", required: false }], consent: null } }));
    await ok(await api.delete(`${INBOX}/attributes/doomed`, as(owner)));
    expect((await config(other.id)).prechat.fields.map((field: { key: string }) => field.key)).toEqual(["name"]);
    // The start no longer asks for it either.
    await ok(await start({ body: "hi" }, other.id), 201);
  });
});

describe("the start", () => {
  test("fills the visitor's name and email, sets typed attributes and stores exactly the consent text agreed to", async () => {
    const before = Date.now();
    const started = await ok(
      await start({ body: "Hello", fields: { name: "Ada Lovelace", email: "ada@example.com", plan: "pro", seats: "12", newsletter: true }, consent: true }),
      201,
    );
    const row = await (await db()).conversation.findUniqueOrThrow({ where: { id: started.conversation_id } });
    expect(row.visitorName).toBe("Ada Lovelace");
    expect(row.visitorEmail).toBe("ada@example.com");
    expect(row.attributes).toEqual({ plan: "pro", seats: 12, newsletter: true });
    const consent = row.consent as { text: string; at: string };
    expect(consent.text).toBe(CONSENT);
    expect(Date.parse(consent.at)).toBeGreaterThanOrEqual(before - 1000);

    const read = await ok(await api.get(`${INBOX}/conversations/${started.conversation_id}`, as(owner)));
    expect(read.consent).toEqual(consent);
    expect(read.attributes).toEqual({ plan: "pro", seats: 12, newsletter: true });
    expect(read.visitor_name).toBe("Ada Lovelace");
    const list = await ok(await api.get(`${INBOX}/conversations?status=all`, as(owner)));
    expect(list.items.find((item: { id: string }) => item.id === started.conversation_id).consent).toEqual(consent);
    // Changing the form's text later does not change what this visitor agreed to.
    await ok(await setSite(siteId, { prechat: { ...FORM, consent: { text: "Another text", required: true } } }));
    expect((await ok(await api.get(`${INBOX}/conversations/${started.conversation_id}`, as(owner)))).consent.text).toBe(CONSENT);
    await ok(await setSite(siteId, { prechat: FORM }));
  });

  test("a required field or the required consent missing is 400 and starts nothing", async () => {
    const count = await conversationCount();
    const bad: Record<string, unknown>[] = [
      { fields: { plan: "pro" }, consent: true },
      { fields: { name: "Ada", plan: "" }, consent: true },
      { fields: { name: "Ada", plan: "pro" } },
      { fields: { name: "Ada", plan: "pro" }, consent: false },
      { consent: true },
      {},
    ];
    for (const body of bad) expectError(await start({ body: "hi", ...body }), 400, "invalid_request");
    expect(await conversationCount()).toBe(count);
  });

  test("a wrong type, a field the form does not ask for, or a bad email is 400 and starts nothing", async () => {
    const count = await conversationCount();
    const base = { name: "Ada", plan: "pro" };
    const bad: Record<string, unknown>[] = [
      { ...base, plan: "gold" },
      { ...base, seats: "many" },
      { ...base, seats: { not: "" } },
      { ...base, newsletter: "maybe" },
      { ...base, email: "not-an-email" },
      { ...base, internal_score: 99 },
      { ...base, unknown: "x" },
      { ...base, "Bad Key": "x" },
      { ...base, name: "two\nlines" },
    ];
    for (const fields of bad) expectError(await start({ body: "hi", fields, consent: true }), 400, "invalid_request");
    expectError(await start({ body: "hi", fields: base, consent: "yes" }), 400, "invalid_request");
    expectError(await start({ body: "hi", fields: "name=Ada", consent: true }), 400, "invalid_request");
    expect(await conversationCount()).toBe(count);
  });

  test("optional consent not given stores null; a site without a form takes starts without fields and refuses fields", async () => {
    const other = await createSite();
    await ok(await setSite(other.id, { prechat: { fields: [{ key: "email", required: false }], consent: { text: "Optional consent", required: false } } }));
    const withoutConsent = await ok(await start({ body: "hi", fields: {} }, other.id), 201);
    const row = await (await db()).conversation.findUniqueOrThrow({ where: { id: withoutConsent.conversation_id } });
    expect(row.consent).toBeNull();
    expect(row.attributes).toEqual({});
    const plain = await createSite();
    await ok(await start({ body: "hi", name: "Plain" }, plain.id), 201);
    expectError(await start({ body: "hi", fields: { name: "Ada" } }, plain.id), 400, "invalid_request");
  });

  test("the consent and the attributes are in the person's privacy export", async () => {
    const started = await ok(await start({ body: "Export me", fields: { name: "Eve", email: "eve.export@example.com", plan: "free" }, consent: true }), 201);
    const request = new Request(`${BASE_URL}/api/v1/admin/privacy/export`, {
      method: "POST",
      headers: { Authorization: `Bearer ${TEST_ADMIN_TOKEN}`, "Content-Type": "application/json" },
      body: JSON.stringify({ email: "eve.export@example.com" }),
    });
    const response = await adminExport(request, { params: Promise.resolve({}) });
    expect(response.status).toBe(200);
    const entries = unzipSync(new Uint8Array(await response.arrayBuffer()));
    const conversations = JSON.parse(strFromU8(entries["conversations.json"]!)) as { id: string; consent: { text: string }; attributes: unknown }[];
    const exported = conversations.find((row) => row.id === started.conversation_id)!;
    expect(exported.consent.text).toBe(CONSENT);
    expect(exported.attributes).toEqual({ plan: "free" });
  });
});
