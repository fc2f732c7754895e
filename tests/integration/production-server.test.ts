import { mkdtempSync, rmSync } from "node:fs";
import { request as httpRequest } from "node:http";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { NEXT_INTERNAL_HEADERS } from "../../lib/http/request-screen.mjs";
import { PEER_HEADER } from "../../lib/core/peer.mjs";
import { awayFromWindowEdge } from "../support/rate-limits";
import { productionBuildExists, rawConnection, send, startServer, TEST_ADMIN, type Answer, type RunningServer } from "../support/production-server";

// The real production server, as attacked from outside (issue 9, docs/reliability.md "Attacks
// tried from outside"): `npm start` (the front before Next) and, where it differs, `next start`.
// Both run the current build with rate limits ON and no trusted proxy.

const built = productionBuildExists();
const REQUEST_TIMEOUT_MS = 3_000;
/** Sent while the server stops: a question the demo's articles answer, so the bot's answer it sets off is stored too. */
const QUESTION_SENT_WHILE_STOPPING = "How long does shipping take?";

function expectEnvelope(answer: Answer, status: number, code: string) {
  expect({ status: answer.status, code: answer.json?.result?.code, success: answer.json?.success }).toEqual({ status, code, success: false });
  expect(answer.headers["content-type"]).toBe("application/json; charset=utf-8");
  expect(answer.headers["x-content-type-options"]).toBe("nosniff");
  expect(answer.headers["cache-control"]).toBe("no-store");
}

const json = (origin: string, extra: Record<string, string> = {}) => ({ Origin: origin, "Content-Type": "application/json", ...extra });
const admin = (extra: Record<string, string> = {}) => ({ Authorization: `Bearer ${TEST_ADMIN}`, "Content-Type": "application/json", ...extra });

/** A header that would change what Next does with the request, with a value it acts on. */
const internalHeaders: [string, string][] = [
  ...NEXT_INTERNAL_HEADERS.map((name): [string, string] => [name, name === "next-router-state-tree" ? "%5B%22%22%5D" : "1"]),
  ["x-middleware-subrequest", "middleware:middleware:middleware:middleware:middleware"],
  ["x-invoke-path", "/api/v1/admin/sites"],
  ["x-invoke-status", "200"],
];

describe.skipIf(!built)("npm start: the front before Next, on the real build", () => {
  let server: RunningServer;
  let origin: string;
  const start = (from: string, headers: Record<string, string> = {}) =>
    send(server.port, "POST", "/api/v1/chat/widget/demo/conversations", { from, headers: json(origin, headers), body: "{}" });

  beforeAll(async () => {
    server = await startServer("front", { REQUEST_TIMEOUT_MS: String(REQUEST_TIMEOUT_MS) });
    origin = `http://localhost:${server.port}`;
  });
  afterAll(() => server?.stop());

  test("per-IP limits count per client address: 127.0.0.2 spending its starts leaves 127.0.0.3 untouched", async () => {
    await awayFromWindowEdge();
    const statuses = [];
    for (let i = 0; i < 10; i++) statuses.push((await start("127.0.0.2")).status);
    expect(statuses).toEqual(Array(10).fill(201));
    const spent = await start("127.0.0.2");
    expectEnvelope(spent, 429, "rate_limited");
    expect(spent.headers["x-ratelimit-limit"]).toBe("10");

    const other = await start("127.0.0.3");
    expect(other.status).toBe(201);
    expect(other.headers["x-ratelimit-remaining"]).toBe("9");
  });

  test("a client cannot choose its address: a forged peer header or X-Forwarded-For is ignored", async () => {
    await awayFromWindowEdge();
    for (let i = 0; i < 10; i++) await start("127.0.0.4");
    const forged = [`forged-secret 127.0.0.9`, "127.0.0.9", `${"A".repeat(43)} 127.0.0.9`];
    for (const value of forged) expectEnvelope(await start("127.0.0.4", { [PEER_HEADER]: value }), 429, "rate_limited");
    expectEnvelope(await start("127.0.0.4", { "X-Forwarded-For": "127.0.0.9" }), 429, "rate_limited");
    // Nor can another client spend 127.0.0.4's… or borrow from it: it counts as itself.
    const claimed = await start("127.0.0.5", { [PEER_HEADER]: "x 127.0.0.4", "X-Forwarded-For": "127.0.0.4" });
    expect([claimed.status, claimed.headers["x-ratelimit-remaining"]]).toEqual([201, "9"]);
  });

  test("Next.js's internal headers have no effect on /api: an operator route without a token is 401, with one it runs", async () => {
    for (const [name, value] of internalHeaders) {
      const answer = await send(server.port, "POST", "/api/v1/admin/sites", { headers: { "Content-Type": "application/json", [name]: value }, body: "{}" });
      expect.soft([name, answer.status, answer.json?.result?.code]).toEqual([name, 401, "unauthorized"]);
    }
    const id = `internal-${Date.now()}`;
    const body = JSON.stringify({ id, origins: ["https://shop.example"] });
    const headers = admin(Object.fromEntries(internalHeaders));
    const created = await send(server.port, "POST", "/api/v1/admin/sites", { headers, body });
    expect([created.status, created.json?.result?.id]).toEqual([201, id]);
    expectEnvelope(await send(server.port, "POST", "/api/v1/admin/sites", { headers, body }), 409, "already_exists");
  });

  test.each([
    ["GET", "/api/v1/chat/visitor/avatars/%ED%A0%80", 400, "invalid_request"],
    ["GET", "/api/v1/chat/visitor/avatars/%FF", 400, "invalid_request"],
    ["GET", "/demo/%FF", 400, "invalid_request"],
    ["TRACE", "/api/v1/admin/sites", 404, "not_found"],
    ["TRACE", "/", 404, "not_found"],
    ["PROPFIND", "/api/v1/admin/sites", 404, "not_found"],
    ["LOCK", "/api/v1/admin/sites", 404, "not_found"],
    ["MKCOL", "/api/v1/admin/sites", 404, "not_found"],
    ["QUERY", "/api/v1/admin/sites", 404, "not_found"],
    ["GET", "/api/v1//admin/sites", 404, "not_found"],
    ["GET", "//api/v1/admin/sites", 404, "not_found"],
    ["POST", "/api/v1/chat/widget//conversations", 404, "not_found"],
  ])("%s %s → %i %s in the envelope, connection closed", async (method, target, status, code) => {
    const answer = await send(server.port, method, target, { headers: { "Content-Type": "application/json" }, body: method === "POST" ? "{}" : undefined });
    expectEnvelope(answer, status, code);
    expect(answer.headers.location).toBeUndefined();
    expect(answer.headers.connection).toBe("close");
  });

  test("a 20 KB header block → 400 invalid_request in the envelope, connection closed", async () => {
    const answer = await send(server.port, "GET", "/api/v1/admin/sites", { headers: { "X-Big": "a".repeat(20_000) } });
    expectEnvelope(answer, 400, "invalid_request");
    expect(answer.headers.connection).toBe("close");
  });

  test("an answer given before the body arrived (401) closes the connection instead of waiting for the rest", async () => {
    const { socket, received, closed } = await rawConnection(server.port);
    socket.write("POST /api/v1/admin/sites HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{");
    const closedAfter = await closed;
    expect(received()).toMatch(/^HTTP\/1\.1 401 /);
    expect(received()).toMatch(/\r\nConnection: close\r\n/i);
    expect(closedAfter).toBeLessThan(REQUEST_TIMEOUT_MS);
  });

  test(
    "slow clients are cut off after REQUEST_TIMEOUT_MS, while others are served and held long-polls stay held",
    async () => {
      const started = await start("127.0.0.6");
      const token = started.json.result.visitor_token as string;
      const pollStartedAt = Date.now();
      const longPoll = send(server.port, "GET", "/api/v1/chat/visitor/messages?cursor=0&wait=5", {
        headers: { Origin: origin, Authorization: `Bearer ${token}` },
      });

      // A JSON body trickled one byte a second to a route that reads it (an operator's, authorized).
      const body = await rawConnection(server.port);
      body.socket.write(`POST /api/v1/admin/sites HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${TEST_ADMIN}\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n`);
      const trickle = setInterval(() => body.socket.writable && body.socket.write(" "), 1_000);
      // Headers that never end.
      const headers = await rawConnection(server.port);
      headers.socket.write("GET /api/v1/admin/conversations?site=demo HTTP/1.1\r\nHost: x\r\n");

      // Meanwhile the server answers everybody else at once.
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      const others = await Promise.all([
        send(server.port, "GET", "/api/v1/admin/conversations?site=demo", { headers: admin() }),
        send(server.port, "GET", "/widget.js"),
      ]);
      expect(others.map((answer) => answer.status)).toEqual([200, 200]);

      const [bodyClosedAfter, headersClosedAfter] = await Promise.all([body.closed, headers.closed]);
      clearInterval(trickle);
      for (const [closedAfter, cut] of [[bodyClosedAfter, body], [headersClosedAfter, headers]] as const) {
        expect(closedAfter).toBeGreaterThanOrEqual(REQUEST_TIMEOUT_MS - 100);
        expect(closedAfter).toBeLessThan(REQUEST_TIMEOUT_MS + 2_500);
        expect(cut.received()).toMatch(/^HTTP\/1\.1 400 /);
        expect(cut.received()).toContain('"code":"invalid_request"');
        expect(cut.received()).toMatch(/\r\nConnection: close\r\n/i);
      }

      const held = await longPoll;
      expect(held.status).toBe(200);
      expect(held.json.result.items).toEqual([]);
      expect(Date.now() - pollStartedAt).toBeGreaterThanOrEqual(4_500); // held past the request timeout
    },
    20_000,
  );
});

describe.skipIf(!built)("next start: Next alone, on the real build", () => {
  let server: RunningServer;
  let origin: string;

  beforeAll(async () => {
    server = await startServer("next");
    origin = `http://localhost:${server.port}`;
  });
  afterAll(() => server?.stop());

  test("the client's address cannot be known: per-IP limits are off (said once at start), never one shared bucket", async () => {
    const statuses = [];
    for (let i = 0; i < 12; i++) {
      const answer = await send(server.port, "POST", "/api/v1/chat/widget/demo/conversations", { from: "127.0.0.2", headers: json(origin), body: "{}" });
      expect(answer.headers["x-ratelimit-limit"]).toBeUndefined();
      statuses.push(answer.status);
    }
    expect(statuses).toEqual(Array(12).fill(201));
    expect(server.output().match(/"event":"per_ip_rate_limits_off"/g)).toHaveLength(1);
  });

  test("proxy.ts: internal headers have no effect on /api; RSC, which Next acts on before any proxy, is refused", async () => {
    for (const [name, value] of internalHeaders) {
      const answer = await send(server.port, "POST", "/api/v1/admin/sites", { headers: { "Content-Type": "application/json", [name]: value }, body: "{}" });
      if (name === "rsc") expectEnvelope(answer, 400, "invalid_request");
      else expect.soft([name, answer.status, answer.json?.result?.code]).toEqual([name, 401, "unauthorized"]);
    }
    const { rsc: _refused, ...acted } = Object.fromEntries(internalHeaders);
    const id = `next-internal-${Date.now()}`;
    const created = await send(server.port, "POST", "/api/v1/admin/sites", { headers: admin(acted), body: JSON.stringify({ id, origins: ["https://shop.example"] }) });
    expect([created.status, created.json?.result?.id]).toEqual([201, id]);
  });

  test("proxy.ts: malformed percent-encoding in an /api path is 400 invalid_request in the envelope", async () => {
    expectEnvelope(await send(server.port, "GET", "/api/v1/chat/visitor/avatars/%ED%A0%80"), 400, "invalid_request");
    expectEnvelope(await send(server.port, "GET", "/api/v1/chat/visitor/avatars/%FF"), 400, "invalid_request");
  });
});

describe.skipIf(!built)("npm start: a graceful shutdown on SIGTERM, on the real build", () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), "parley-shutdown-test-"));
  const sameData = { DATA_DIR: dataDir, UPLOADS_DIR: path.join(dataDir, "uploads") };
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  /** A POST whose body is still arriving: the rest is sent when `finish` is called. */
  function sendInTwoParts(port: number, target: string, headers: Record<string, string>, body: string) {
    let finish = () => {};
    const answer = new Promise<Answer>((resolve, reject) => {
      const req = httpRequest(
        { host: "127.0.0.1", port, method: "POST", path: target, headers: { ...headers, "Content-Length": String(Buffer.byteLength(body)) }, agent: false },
        (res) => {
          let text = "";
          res.on("data", (chunk: Buffer) => (text += chunk.toString()));
          res.on("end", () => resolve({ status: res.statusCode!, headers: res.headers, body: text, json: JSON.parse(text) }));
        },
      );
      req.on("error", reject);
      req.write(body.slice(0, 10));
      finish = () => void req.end(body.slice(10));
    });
    return { answer, finish: () => finish() };
  }

  test(
    "held long-polls answer at once with an empty page, a send in flight is stored, new connections are refused, exit 0",
    async () => {
      const server = await startServer("front", sameData);
      const origin = `http://localhost:${server.port}`;
      const open = async () =>
        (await send(server.port, "POST", "/api/v1/chat/widget/demo/conversations", { headers: json(origin), body: "{}" })).json.result.visitor_token as string;
      const [waiting, writing] = [await open(), await open()];
      const visitor = (token: string) => ({ ...json(origin), Authorization: `Bearer ${token}` });

      const heldSince = Date.now();
      const held = send(server.port, "GET", "/api/v1/chat/visitor/messages?cursor=0&wait=20", { headers: visitor(waiting) });
      const inFlight = sendInTwoParts(server.port, "/api/v1/chat/visitor/messages", visitor(writing), JSON.stringify({ body: QUESTION_SENT_WHILE_STOPPING, client_id: "last" }));
      await new Promise((resolve) => setTimeout(resolve, 1_000)); // both have reached the server

      server.kill("SIGTERM");
      const poll = await held;
      expect([poll.status, poll.json.success, poll.json.result.items]).toEqual([200, true, []]);
      expect(poll.headers.connection).toBe("close");
      expect(Date.now() - heldSince).toBeLessThan(10_000); // answered, not held for its 20 s
      await expect(send(server.port, "GET", "/api/health")).rejects.toThrow(/ECONNREFUSED/);

      inFlight.finish();
      const sent = await inFlight.answer;
      expect([sent.status, sent.json.result.message.body]).toEqual([201, QUESTION_SENT_WHILE_STOPPING]);
      expect(await server.exited).toBe(0);
      expect(server.output()).toContain("SIGTERM: finishing the requests in flight, then stopping");

      // What was in flight is on disk, and so is the demo bot's answer it set off after its response.
      const again = await startServer("front", sameData);
      try {
        const page = await send(again.port, "GET", "/api/v1/chat/visitor/messages?cursor=0", { headers: visitor(writing) });
        expect(page.json.result.items.map((message: { author_type: string; body: string }) => [message.author_type, message.body])).toEqual([
          ["visitor", QUESTION_SENT_WHILE_STOPPING],
          ["staff", expect.any(String)],
        ]);
      } finally {
        await again.stop();
      }
    },
    120_000,
  );
});
