import { beforeAll, describe, expect, test } from "vitest";
import { db } from "../../lib/db/client";
import { hashToken } from "../../lib/tokens/visitor-token";
import { api } from "../support/api";
import { createSite, ORIGIN, OTHER_ORIGIN } from "../support/fixtures";
import { expectError } from "../support/expectations";
import { rowCounts } from "../support/row-counts";

let siteId: string;
const start = (body: unknown, origin: string | null = ORIGIN, site = () => siteId) =>
  api.post(`/api/v1/chat/widget/${site()}/conversations`, { origin, body });

beforeAll(async () => {
  siteId = (await createSite()).id;
});

describe("starting a conversation", () => {
  test("answers 201 with a conversation, a 24 h vt_ token and the offline flag", async () => {
    const response = await start({ name: "Ada", email: "ada@example.com" });
    expect(response.status).toBe(201);
    expect(response.json.success).toBe(true);
    const result = response.json.result;
    expect(Object.keys(result).sort()).toEqual(["conversation_id", "expires_in_seconds", "offline", "visitor_token"]);
    expect(result.visitor_token).toMatch(/^vt_[A-Za-z0-9_-]{43}$/);
    expect(result.expires_in_seconds).toBe(86400);
    expect(result.offline).toBe(false);
  });

  test("stores only the token's SHA-256, bound to the request's origin", async () => {
    const { json } = await start({});
    const rows = await (await db()).visitorToken.findMany({ where: { conversationId: json.result.conversation_id } });
    expect(rows).toHaveLength(1);
    expect(rows[0]!.hash).toBe(hashToken(json.result.visitor_token));
    expect(JSON.stringify(rows)).not.toContain(json.result.visitor_token);
    expect(rows[0]!.origin).toBe(ORIGIN);
  });

  test("a body becomes the first visitor message, sequence 1, with its client_id", async () => {
    const { json } = await start({ body: "  Where is my order?  ", client_id: "first-1", name: "Ada" });
    const list = await api.get("/api/v1/chat/visitor/messages", { origin: ORIGIN, token: json.result.visitor_token });
    expect(list.json.result.items).toMatchObject([
      { sequence: 1, client_id: "first-1", body: "Where is my order?", author_type: "visitor", author_name: "Ada", kind: "message" },
    ]);
  });

  test("every field is optional", async () => {
    expect((await start({})).status).toBe(201);
  });

  test("an offline site requires an email, then flags offline capture", async () => {
    const offline = await createSite({ offline: true });
    const before = await rowCounts();
    expectError(await start({ body: "hi" }, ORIGIN, () => offline.id), 400, "email_required");
    expect(await rowCounts()).toEqual(before);
    const ok = await start({ email: "v@example.com", body: "hi" }, ORIGIN, () => offline.id);
    expect(ok.status).toBe(201);
    expect(ok.json.result.offline).toBe(true);
  });

  test("concurrent starts, written together in one statement, each get their own conversation, token and first message", async () => {
    const answers = await Promise.all(Array.from({ length: 24 }, (_, i) => start(i % 2 ? { body: `hello ${i}`, name: `V${i}` } : {})));
    expect(answers.map((answer) => answer.status)).toEqual(answers.map(() => 201));
    const pages = await Promise.all(
      answers.map((answer) => api.get("/api/v1/chat/visitor/messages?cursor=0", { origin: ORIGIN, token: answer.json.result.visitor_token })),
    );
    expect(pages.map((page) => page.json.result.items.map((m: { body: string; author_name: string }) => `${m.author_name}: ${m.body}`))).toEqual(
      answers.map((_, i) => (i % 2 ? [`V${i}: hello ${i}`] : [])),
    );
    expect(new Set(answers.map((answer) => answer.json.result.conversation_id)).size).toBe(24);
  });

  test("carries CORS for the allowed origin, no-store and nosniff", async () => {
    const response = await start({}, OTHER_ORIGIN);
    expect(response.headers.get("access-control-allow-origin")).toBe(OTHER_ORIGIN);
    expect(response.headers.get("access-control-allow-credentials")).toBeNull();
    expect(response.headers.get("vary")).toContain("Origin");
    expect(response.headers.get("cache-control")).toBe("no-store");
    expect(response.headers.get("x-content-type-options")).toBe("nosniff");
  });
});

describe("who may start", () => {
  test("an unknown site is 404 site_not_found, checked before the origin", async () => {
    expectError(await start({}, null, () => "no-such-site"), 404, "site_not_found");
  });

  test("a site id over 100 characters is 400", async () => {
    expectError(await start({}, ORIGIN, () => "s".repeat(101)), 400, "invalid_request");
  });

  test.each([
    ["missing", null],
    ["null", "null"],
    ["trailing slash", `${ORIGIN}/`],
    ["other port", "https://shop.example:8443"],
    ["other scheme", "http://shop.example"],
    ["upper case", "https://SHOP.example"],
    ["suffix look-alike", "https://shop.example.evil.com"],
    // A Cyrillic "о": on the wire, its UTF-8 bytes; in punycode, a different (canonical) host.
    ["unicode look-alike", Buffer.from("https://shоp.example").toString("latin1")],
    ["punycode look-alike", new URL("https://shоp.example").origin],
    ["path", `${ORIGIN}/page`],
    ["garbage", "not a url"],
  ])("origin %s is 403 origin_not_allowed without CORS", async (_name, origin) => {
    const before = await rowCounts();
    const response = await start({ body: "hi" }, origin);
    expectError(response, 403, "origin_not_allowed");
    expect(response.headers.get("access-control-allow-origin")).toBeNull();
    expect(response.headers.get("vary")).toContain("Origin");
    expect(await rowCounts()).toEqual(before);
  });
});

describe("bad input changes nothing", () => {
  test.each([
    ["unknown field", { body: "hi", admin: true }],
    ["wrong type", { body: 42 }],
    ["name over 80", { name: "n".repeat(81) }],
    ["name with control characters", { name: "Ada\u0007" }],
    ["name with a bidi override", { name: "Ada\u202Enimda" }],
    ["blank name", { name: "   " }],
    ["invalid email", { email: "not-an-email" }],
    ["email over 254", { email: `${"a".repeat(250)}@example.com` }],
    ["empty body after trimming", { body: "   " }],
    ["body over 4000", { body: "b".repeat(4001) }],
    ["client_id over 100", { body: "hi", client_id: "c".repeat(101) }],
    ["empty client_id", { body: "hi", client_id: "" }],
    ["U+0000 in body", { body: "a\u0000b" }],
    ["unpaired surrogate", { body: "a\uD800b" }],
    ["an array", [1, 2]],
    ["null", null],
  ])("%s → 400 invalid_request", async (_name, body) => {
    const before = await rowCounts();
    const response = await start(body);
    expectError(response, 400, "invalid_request");
    expect(response.headers.get("access-control-allow-origin")).toBe(ORIGIN);
    expect(await rowCounts()).toEqual(before);
  });

  test("validation failures name the fields", async () => {
    const response = await start({ name: "n".repeat(81), extra: 1 });
    expect(response.json.result.fields).toEqual(
      expect.arrayContaining([expect.objectContaining({ path: "name" }), { path: "extra", problem: "unknown field" }]),
    );
  });

  test.each([
    ["malformed JSON", "{bad", "application/json"],
    ["empty body", "", "application/json"],
    ["wrong Content-Type", JSON.stringify({ body: "hi" }), "text/plain"],
    ["form encoding", "body=hi", "application/x-www-form-urlencoded"],
    ["invalid UTF-8", new Uint8Array([0x7b, 0xff, 0xfe, 0x7d]), "application/json"],
  ])("%s → 400 invalid_request", async (_name, rawBody, contentType) => {
    const before = await rowCounts();
    const response = await api.post(`/api/v1/chat/widget/${siteId}/conversations`, {
      origin: ORIGIN,
      rawBody,
      headers: { "Content-Type": contentType },
    });
    expectError(response, 400, "invalid_request");
    expect(await rowCounts()).toEqual(before);
  });

  test("a body over 1 MiB is refused while being read", async () => {
    const before = await rowCounts();
    const huge = JSON.stringify({ body: "x".repeat(1024 * 1024) });
    expectError(await api.post(`/api/v1/chat/widget/${siteId}/conversations`, { origin: ORIGIN, rawBody: huge }), 400, "invalid_request");
    expect(await rowCounts()).toEqual(before);
  });
});

describe("preflight", () => {
  test("an allowed origin gets 204 with methods, headers and max-age", async () => {
    const response = await api.options(`/api/v1/chat/widget/${siteId}/conversations`, { origin: ORIGIN });
    expect(response.status).toBe(204);
    expect(response.headers.get("access-control-allow-origin")).toBe(ORIGIN);
    expect(response.headers.get("access-control-allow-methods")).toContain("POST");
    expect(response.headers.get("access-control-allow-headers")).toBe("Authorization, Content-Type, Idempotency-Key");
    expect(response.headers.get("access-control-max-age")).toBe("600");
  });

  test("another origin gets 403 and no CORS headers", async () => {
    const response = await api.options(`/api/v1/chat/widget/${siteId}/conversations`, { origin: "https://evil.example" });
    expectError(response, 403, "origin_not_allowed");
    expect(response.headers.get("access-control-allow-origin")).toBeNull();
  });
});
