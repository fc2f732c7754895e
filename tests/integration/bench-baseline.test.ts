import { once } from "node:events";
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { createBaseline } from "../../bench/baseline/server";
import { queryPrepared } from "../../lib/db/client";
import { call, type CallOptions } from "../support/api";
import { createSite, OTHER_ORIGIN, startConversation, type Started } from "../support/fixtures";

// The bench divides the service's figures by the bare baseline's (bench/baseline/server.ts), so
// both must do the same work and give the same answers: the same requests, each side on its own
// conversation in the same state, get the same statuses and bodies, apart from ids and times.

let baseline: Server;
let baseUrl: string;
let service: Started;
let bare: Started;

beforeAll(async () => {
  baseline = createBaseline(queryPrepared); // on the service's own database
  baseline.listen(0, "127.0.0.1");
  await once(baseline, "listening");
  baseUrl = `http://127.0.0.1:${(baseline.address() as AddressInfo).port}`;
  const site = await createSite();
  const first = { body: "hi", client_id: "first", name: "Ada" };
  service = await startConversation(site.id, first);
  bare = await startConversation(site.id, first);
});

afterAll(() => {
  baseline.closeAllConnections();
  baseline.close();
});

interface Case {
  method: "GET" | "POST";
  path: string;
  body?: unknown;
  rawBody?: string;
  origin?: string;
  token?: string | null;
  headers?: Record<string, string>;
}

/** Ids and times differ between the two conversations; everything else must not. */
const normalised = (body: unknown) =>
  JSON.parse(
    JSON.stringify(body)
      .replace(/visitor_[0-9a-f-]{36}/g, "<visitor>")
      .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, "<id>")
      .replace(/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z/g, "<time>"),
  );

async function both(request: Case) {
  const options = (started: Started): CallOptions => ({
    origin: request.origin ?? started.origin,
    token: request.token === null ? undefined : (request.token ?? started.token),
    body: request.body,
    rawBody: request.rawBody,
    headers: request.headers,
  });
  const fromService = await call(request.method, request.path, options(service));
  const bareOptions = options(bare);
  const headers: Record<string, string> = { ...bareOptions.headers };
  if (bareOptions.origin) headers.Origin = bareOptions.origin;
  if (bareOptions.token) headers.Authorization = `Bearer ${bareOptions.token}`;
  const body = request.body !== undefined ? JSON.stringify(request.body) : request.rawBody;
  if (body !== undefined) headers["Content-Type"] ??= "application/json";
  const fromBaseline = await fetch(`${baseUrl}${request.path}`, { method: request.method, headers, body });
  return {
    service: { status: fromService.status, body: normalised(fromService.json) },
    baseline: { status: fromBaseline.status, body: normalised(await fromBaseline.json()) },
  };
}

async function expectSameAnswer(request: Case, status: number) {
  const answers = await both(request);
  expect(answers.baseline).toEqual(answers.service);
  expect(answers.service.status).toBe(status);
  return answers.service.body;
}

const MESSAGES = "/api/v1/chat/visitor/messages";

describe("the bench's bare baseline answers as the service does", () => {
  test("polls: idle (no query beyond the token), with messages, and bad queries", async () => {
    expect((await expectSameAnswer({ method: "GET", path: `${MESSAGES}?cursor=1` }, 200)).result.items).toEqual([]);
    expect((await expectSameAnswer({ method: "GET", path: `${MESSAGES}?cursor=0&limit=10` }, 200)).result.items).toHaveLength(1);
    for (const query of ["cursor=-1", "limit=500", "cursor=0&cursor=1", "wait=x", "other=1"]) {
      expect((await expectSameAnswer({ method: "GET", path: `${MESSAGES}?${query}` }, 400)).result.code).toBe("invalid_request");
    }
  });

  test("sends: new (trimmed), a replay, the same client_id with another body (409), and invalid input", async () => {
    const sent = await expectSameAnswer({ method: "POST", path: MESSAGES, body: { body: "  Where is my order?  ", client_id: "c1" } }, 201);
    expect(sent.result.message.body).toBe("Where is my order?");
    expect((await expectSameAnswer({ method: "POST", path: MESSAGES, body: { body: "Where is my order?", client_id: "c1" } }, 200)).result.duplicate).toBe(true);
    expect((await expectSameAnswer({ method: "POST", path: MESSAGES, body: { body: "Something else", client_id: "c1" } }, 409)).result.code).toBe("client_id_conflict");
    for (const body of [{ body: "   ", client_id: "c2" }, { body: "hello" }, { body: "hello", client_id: "c3", extra: 1 }, { body: "x".repeat(5000), client_id: "c4" }]) {
      expect((await expectSameAnswer({ method: "POST", path: MESSAGES, body }, 400)).result.code).toBe("invalid_request");
    }
    expect((await expectSameAnswer({ method: "POST", path: MESSAGES, body: { body: "psst", client_id: "c5", kind: "note" } }, 400)).result.code).toBe("note_rejected");
    await expectSameAnswer({ method: "POST", path: MESSAGES, rawBody: "{not json" }, 400);
    await expectSameAnswer({ method: "POST", path: MESSAGES, rawBody: "{}", headers: { "Content-Type": "text/plain" } }, 400);
    const page = await expectSameAnswer({ method: "GET", path: `${MESSAGES}?cursor=0` }, 200);
    expect(page.result.items.map((item: { body: string }) => item.body)).toEqual(["hi", "Where is my order?"]);
  });

  test("credentials: no token (401), another site's Origin (403), a malformed token (401)", async () => {
    expect((await expectSameAnswer({ method: "GET", path: MESSAGES, token: null }, 401)).result.code).toBe("unauthorized");
    expect((await expectSameAnswer({ method: "GET", path: MESSAGES, origin: OTHER_ORIGIN }, 403)).result.code).toBe("origin_mismatch");
    expect((await expectSameAnswer({ method: "POST", path: MESSAGES, token: "vt_short", body: { body: "x", client_id: "y" } }, 401)).result.code).toBe("unauthorized");
  });
});
