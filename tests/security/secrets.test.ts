import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { db } from "../../lib/db/client";
import { log } from "../../lib/core/log";
import { api } from "../support/api";
import { TEST_ADMIN_TOKEN } from "../support/database-per-file";
import { ORIGIN, OTHER_ORIGIN } from "../support/fixtures";
import { buildWorld, type World } from "../support/hostile-world";
import { captureStderr, recordResponses, type Recorded } from "../support/response-recorder";
import { file, fileTicket, PNG_BYTES, putUpload, ticket } from "../support/tickets";

// Secrets stay secret: a visitor token appears only in the reply that issued it, ADMIN_TOKEN in
// no reply, and neither (nor an upload signature) in the log — 500s included. Every API response
// says no-store and nosniff. Everything the api helper receives and everything written to stderr
// during this file is recorded and searched.

process.env.LOG_LEVEL = "debug";

const recorder = recordResponses();
const stderr = captureStderr();
let w: World;
const uploadSignatures: string[] = [];
const serverErrors: Recorded[] = [];

const as = (token: string, origin = ORIGIN) => ({ origin, token });

async function withTableRenamed<T>(table: string, work: () => Promise<T>): Promise<T> {
  const prisma = await db();
  await prisma.$executeRawUnsafe(`ALTER TABLE "${table}" RENAME TO "${table}_away"`);
  try {
    return await work();
  } finally {
    await prisma.$executeRawUnsafe(`ALTER TABLE "${table}_away" RENAME TO "${table}"`);
  }
}

beforeAll(async () => {
  w = await buildWorld();
  const { a, b } = w;

  // An ordinary session: reads, a send, typing, a picture, renewals (one of them raced).
  await api.get("/api/v1/chat/visitor/messages", as(a.token));
  await api.post("/api/v1/chat/visitor/messages", { ...as(a.token), body: { body: "<script>alert(document.cookie)</script>", client_id: "xss-1" } });
  await api.get("/api/v1/chat/visitor/presence?typing=true", as(a.token));
  await api.get(`/api/v1/chat/visitor/avatars/${w.members.inA}`, as(a.token));
  const renewed = await api.post("/api/v1/chat/visitor/renew", as(a.token));
  await api.get("/api/v1/chat/visitor/messages?cursor=0&limit=5", as(renewed.json.result.visitor_token));
  await Promise.all([api.post("/api/v1/chat/visitor/renew", as(b.token)), api.post("/api/v1/chat/visitor/renew", as(b.token))]);

  // Refusals that see a token: rotated, expired, from another origin, as an operator credential.
  await api.get("/api/v1/chat/visitor/messages", as(a.token));
  await api.get("/api/v1/chat/visitor/messages", as(w.expired.token));
  await api.get("/api/v1/chat/visitor/messages", as(renewed.json.result.visitor_token, OTHER_ORIGIN));
  await api.get(`/api/v1/admin/conversations?site=${w.siteId}`, { admin: renewed.json.result.visitor_token });
  await api.get(`/api/v1/admin/conversations?site=${w.siteId}`, { admin: `${TEST_ADMIN_TOKEN}-wrong` });

  // Tickets, uploads and the operator's reads.
  const filed = await fileTicket(w.siteId, ticket({ files: [file()] }));
  uploadSignatures.push(...[...filed.uploads, w.uploads.pendingPng, w.uploads.done].map((u) => new URL(u.upload_url).searchParams.get("signature")!));
  await putUpload(filed.uploads[0]!.upload_url, PNG_BYTES);
  await putUpload(filed.uploads[0]!.upload_url, PNG_BYTES);
  await api.post(`/api/v1/chat/widget/${w.siteId}/visitors`, { origin: ORIGIN, body: { page_url: "https://shop.example/?q=1" } });
  await api.get(`/api/v1/admin/conversations?site=${w.siteId}`, { admin: true });
  await api.get(`/api/v1/admin/conversations/${a.conversationId}`, { admin: true });
  await api.get(`/api/v1/admin/tickets?site=${w.siteId}`, { admin: true });
  await api.get(`/api/v1/admin/page-views?site=${w.siteId}`, { admin: true });

  // Faults that end in 500 (a table gone), each carrying a live credential.
  const live = renewed.json.result.visitor_token as string;
  await withTableRenamed("presence", () => api.get("/api/v1/chat/visitor/presence?typing=true", as(live)));
  await withTableRenamed("visitor_tokens", () => api.post("/api/v1/chat/visitor/messages", { ...as(live), body: { body: "hi", client_id: "during-fault" } }));
  await withTableRenamed("sites", () => api.get(`/api/v1/admin/conversations?site=${w.siteId}`, { admin: true }));
  serverErrors.push(...recorder.responses.filter((response) => response.status === 500));
});

afterAll(() => {
  const logLines = stderr.lines().length;
  recorder.stop();
  stderr.stop();
  process.stdout.write(`secrets: ${recorder.responses.length} responses (${serverErrors.length} of them 500s) and ${logLines} log lines searched\n`);
});

const issuedTokens = () =>
  recorder.responses.flatMap((response) => {
    const token = (JSON.parse(response.body)?.result as { visitor_token?: string } | null)?.visitor_token;
    return token ? [{ token, issuer: response }] : [];
  });
const mentions = (response: Recorded, secret: string) => response.body.includes(secret) || response.headers.some(([, value]) => value.includes(secret));

describe("[Rocket.Chat PR #40501] a token appears only in the reply that issues it", () => {
  test("each visitor token is in exactly one response: the start or renew that issued it", () => {
    const tokens = issuedTokens();
    expect(tokens.length).toBeGreaterThanOrEqual(8);
    for (const { token, issuer } of tokens) {
      expect(issuer.path).toMatch(/\/conversations$|\/visitor\/renew$/);
      expect(recorder.responses.filter((response) => mentions(response, token))).toEqual([issuer]);
    }
  });

  test("ADMIN_TOKEN appears in no response at all", () => {
    expect(recorder.responses.length).toBeGreaterThan(40);
    expect(recorder.responses.filter((response) => mentions(response, TEST_ADMIN_TOKEN))).toEqual([]);
  });
});

describe("[Chatwoot #15775] tokens never reach URLs or logs", () => {
  test("no URL the service hands out carries a credential", () => {
    const urls = recorder.responses.flatMap((response) => response.body.match(/"(?:upload_url|author_avatar)":"[^"]*"/g) ?? []);
    expect(urls.length).toBeGreaterThan(0);
    // A visitor token's own shape, a parameter named like a credential, or a bearer value; not a
    // case-insensitive "vt_", which a random base64url signature contains now and then.
    const credential = /vt_[A-Za-z0-9_-]{43}|[?&](?:token|access_token|visitor_token)=|Bearer/i;
    for (const url of urls) expect(url).not.toMatch(credential);
  });

  test("the log, 500s included, holds no visitor token, ADMIN_TOKEN, bearer or upload signature", () => {
    const lines = stderr.lines();
    expect(lines.some((line) => line.includes('"unhandled_error"'))).toBe(true);
    const secrets = [TEST_ADMIN_TOKEN, ...issuedTokens().map(({ token }) => token), ...uploadSignatures];
    for (const line of lines) {
      for (const secret of secrets) expect(line).not.toContain(secret);
      expect(line).not.toMatch(/vt_[A-Za-z0-9_-]{43}|Bearer (?!\[redacted\])/);
    }
  });

  test("a logged error quoting credentials is scrubbed before it is written", () => {
    const quoted = new Error(
      `failed: Bearer ${TEST_ADMIN_TOKEN}; vt_${"Q".repeat(43)}; https://x/api/v1/uploads/1?expires=9&signature=abcDEF123; postgres://parley:hunter2@db:5432/parley`,
    );
    const before = stderr.lines().length;
    log.error("quoted_secrets", { error: quoted });
    const [line] = stderr.lines().slice(before);
    expect(line).toContain("quoted_secrets");
    for (const leaked of [TEST_ADMIN_TOKEN, "Q".repeat(43), "abcDEF123", "hunter2"]) expect(line).not.toContain(leaked);
  });
});

describe("every API response is uncacheable and typed", () => {
  test("Cache-Control: no-store and X-Content-Type-Options: nosniff on every response, errors and 500s included", () => {
    expect(serverErrors.length).toBe(3);
    for (const response of recorder.responses) {
      const headers = new Headers(response.headers);
      expect(headers.get("cache-control"), `${response.method} ${response.path}`).toBe("no-store");
      expect(headers.get("x-content-type-options")).toBe("nosniff");
      if (response.status !== 204) expect(headers.get("content-type")).toBe("application/json; charset=utf-8");
    }
  });

  test("a 500 says nothing internal and can be found in the log by its request id", () => {
    const lines = stderr.lines();
    for (const response of serverErrors) {
      const body = JSON.parse(response.body);
      expect(body).toEqual({ success: false, result: { code: "internal_error" }, message: "An unexpected error occurred." });
      const requestId = new Headers(response.headers).get("x-request-id")!;
      expect(lines.some((line) => line.includes('"unhandled_error"') && line.includes(requestId))).toBe(true);
    }
  });

  test("[ChatterMate CVE-2026-24399] markup is stored verbatim and served only as JSON with nosniff", async () => {
    const listed = await api.get("/api/v1/admin/conversations/" + w.a.conversationId, { admin: true });
    const stored = listed.json.result.messages.find((message: { client_id: string }) => message.client_id === "xss-1");
    expect(stored.body).toBe("<script>alert(document.cookie)</script>");
    expect(listed.headers.get("content-type")).toBe("application/json; charset=utf-8");
    expect(listed.headers.get("x-content-type-options")).toBe("nosniff");
  });
});
