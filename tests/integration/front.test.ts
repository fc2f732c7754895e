import { once } from "node:events";
import { request as httpRequest, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import * as messagesRoute from "../../app/api/v1/chat/visitor/messages/route";
import * as presenceRoute from "../../app/api/v1/chat/visitor/presence/route";
import * as startRoute from "../../app/api/v1/chat/widget/[siteID]/conversations/route";
import * as articlesRoute from "../../app/api/v1/chat/widget/[siteID]/articles/route";
import { db } from "../../lib/db/client";
import { waitingRequests } from "../../lib/realtime/message-signals";
import { createFrontServer, SITE_WIDE_HEADERS } from "../../lib/runtime/front.mjs";
import { PEER_HEADER, trustedPeer } from "../../lib/core/peer.mjs";
import { api, call } from "../support/api";
import { createMember, createSite, openConversation, ORIGIN, staffReply, type Started } from "../support/fixtures";

// The front of `npm start` (lib/runtime/front.mjs) over a real socket: the hot routes reach their
// handlers straight from Node's request, everything else goes to Next (here a stand-in that says so).

const NEXT_MARK = "x-served-by-next";
let server: Server;
let base: string;
/** The headers of the last request the stand-in for Next received. */
let seenByNext: IncomingMessage["headers"] = {};

beforeAll(async () => {
  server = createFrontServer({
    next: (req, res) => {
      seenByNext = { ...req.headers };
      res.writeHead(299, { [NEXT_MARK]: "yes" }).end();
    },
    hotRoutes: {
      "/api/v1/chat/visitor/messages": messagesRoute,
      "/api/v1/chat/visitor/presence": presenceRoute,
      "/api/v1/chat/widget/[siteID]/conversations": startRoute,
      "/api/v1/chat/widget/[siteID]/articles": articlesRoute,
    },
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  server.close();
});

interface Answer {
  status: number;
  headers: IncomingMessage["headers"];
  body: string;
}

/** One request over a fresh connection; `abortAfterMs` hangs up before the answer. */
function send(method: string, path: string, options: { headers?: Record<string, string>; body?: string; abortAfterMs?: number } = {}) {
  return new Promise<Answer>((resolve, reject) => {
    const req = httpRequest(`${base}${path}`, { method, headers: options.headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (chunk: Buffer) => chunks.push(chunk));
      res.on("end", () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks).toString() }));
    });
    req.on("error", reject);
    if (options.abortAfterMs !== undefined) setTimeout(() => req.destroy(new Error("hung up")), options.abortAfterMs);
    req.end(options.body);
  });
}

const asVisitor = (started: Started, extra: Record<string, string> = {}) => ({
  Origin: started.origin,
  Authorization: `Bearer ${started.token}`,
  ...extra,
});

async function eventually(check: () => boolean | Promise<boolean>, ms = 3_000): Promise<void> {
  const until = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > until) throw new Error("condition not met in time");
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe("the front of npm start", () => {
  test("a message poll answers as the route handler does, with the site-wide headers Next would add", async () => {
    const started = await openConversation({ body: "hi", client_id: "a" });
    const viaFront = await send("GET", "/api/v1/chat/visitor/messages?cursor=0", { headers: asVisitor(started) });
    const direct = await call("GET", "/api/v1/chat/visitor/messages?cursor=0", { origin: started.origin, token: started.token });

    expect(viaFront.headers[NEXT_MARK]).toBeUndefined();
    expect(viaFront.status).toBe(200);
    expect(JSON.parse(viaFront.body)).toEqual(direct.json);
    expect(viaFront.headers["access-control-allow-origin"]).toBe(started.origin);
    expect(viaFront.headers["content-type"]).toBe("application/json; charset=utf-8");
    expect(viaFront.headers["content-length"]).toBe(String(Buffer.byteLength(viaFront.body)));
    for (const [name, value] of SITE_WIDE_HEADERS) expect(viaFront.headers[name.toLowerCase()]).toBe(value);
  });

  test("a send carries its body through, and is stored once", async () => {
    const started = await openConversation({ body: "hi", client_id: "a" });
    const body = JSON.stringify({ body: "second", client_id: "b" });
    const headers = asVisitor(started, { "Content-Type": "application/json" });
    const first = await send("POST", "/api/v1/chat/visitor/messages", { headers, body });
    const replay = await send("POST", "/api/v1/chat/visitor/messages", { headers, body });

    expect([first.status, replay.status]).toEqual([201, 200]);
    expect(JSON.parse(first.body).result.message.sequence).toBe(2);
    const stored = await (await db()).message.count({ where: { conversationId: started.conversationId } });
    expect(stored).toBe(2);
  });

  test("bad input gets the pipeline's envelope, never a 500", async () => {
    const started = await openConversation({ body: "hi", client_id: "a" });
    const badQuery = await send("GET", "/api/v1/chat/visitor/messages?cursor=-1", { headers: asVisitor(started) });
    const badJson = await send("POST", "/api/v1/chat/visitor/messages", {
      headers: asVisitor(started, { "Content-Type": "application/json" }),
      body: "{not json",
    });
    const noToken = await send("GET", "/api/v1/chat/visitor/presence", { headers: { Origin: started.origin } });

    expect([badQuery.status, badJson.status, noToken.status]).toEqual([400, 400, 401]);
    expect(JSON.parse(badQuery.body).success).toBe(false);
    expect(JSON.parse(badJson.body).result.code).toBe("invalid_request");
  });

  test("a held long-poll is answered by a staff reply stored elsewhere in the process", async () => {
    const started = await openConversation({ body: "hi", client_id: "a" });
    const staff = await createMember();
    const held = send("GET", "/api/v1/chat/visitor/messages?cursor=1&wait=10", { headers: asVisitor(started) });
    await eventually(() => waitingRequests(started.conversationId) === 1);
    await staffReply(started.conversationId, staff.id, "here I am");

    const answer = await held;
    expect(JSON.parse(answer.body).result.items.map((m: { body: string }) => m.body)).toEqual(["here I am"]);
    expect(waitingRequests(started.conversationId)).toBe(0);
  });

  test("a client that hangs up frees its held request at once", async () => {
    const started = await openConversation({ body: "hi", client_id: "a" });
    const hungUp = send("GET", "/api/v1/chat/visitor/messages?cursor=1&wait=20", { headers: asVisitor(started), abortAfterMs: 300 });
    await eventually(() => waitingRequests(started.conversationId) === 1);

    await expect(hungUp).rejects.toThrow("hung up");
    await eventually(() => waitingRequests(started.conversationId) === 0, 1_000);
  });

  test("presence and the CORS preflight are served too", async () => {
    const started = await openConversation({ body: "hi", client_id: "a" });
    const presence = await send("GET", "/api/v1/chat/visitor/presence?typing=true", { headers: asVisitor(started) });
    const preflight = await send("OPTIONS", "/api/v1/chat/visitor/messages", {
      headers: { Origin: started.origin, "Access-Control-Request-Method": "POST" },
    });

    expect(presence.status).toBe(200);
    expect(JSON.parse(presence.body).result).toEqual([]); // the visitor's own typing is not shown back
    expect(preflight.status).toBe(204);
    expect(preflight.headers["content-length"]).toBeUndefined(); // a 204 has no body, so no length
    expect(preflight.headers["access-control-allow-methods"]).toContain("POST");
  });

  test("a start is served with its path's site id, and the token it issues works", async () => {
    const site = await createSite();
    const json = { Origin: ORIGIN, "Content-Type": "application/json" };
    const started = await send("POST", `/api/v1/chat/widget/${site.id}/conversations`, { headers: json, body: JSON.stringify({ body: "hi" }) });
    expect(started.status).toBe(201);
    expect(started.headers[NEXT_MARK]).toBeUndefined();
    const { conversation_id, visitor_token } = JSON.parse(started.body).result;
    const page = await send("GET", "/api/v1/chat/visitor/messages?cursor=0", { headers: { Origin: ORIGIN, Authorization: `Bearer ${visitor_token}` } });
    expect(JSON.parse(page.body).result.items.map((m: { body: string; conversation_id: string }) => [m.body, m.conversation_id])).toEqual([["hi", conversation_id]]);
    const unknown = await send("POST", "/api/v1/chat/widget/no-such-site/conversations", { headers: json, body: "{}" });
    expect([unknown.status, JSON.parse(unknown.body).result.code]).toEqual([404, "site_not_found"]);
    const nested = await send("POST", `/api/v1/chat/widget/${site.id}/x/conversations`, { headers: json, body: "{}" });
    expect(nested.headers[NEXT_MARK]).toBe("yes");
  });

  test("article suggestions are served here: 404 while the site's help center is off, its published matches once on", async () => {
    const site = await createSite();
    const path = `/api/v1/chat/widget/${site.id}/articles?q=shipping&limit=3`;
    const off = await send("GET", path, { headers: { Origin: ORIGIN } });
    expect([off.status, off.headers[NEXT_MARK], off.headers["access-control-allow-origin"]]).toEqual([404, undefined, ORIGIN]);
    expect((await api.patch(`/api/v1/admin/sites/${site.id}`, { admin: true, body: { help_center: { enabled: true } } })).status).toBe(200);
    const created = await api.post("/api/v1/admin/articles", { admin: true, body: { site_id: site.id, title: "Shipping times", body: "Shipping takes 2 to 4 days.", status: "published" } });
    expect(created.status).toBe(201);
    const on = await send("GET", path, { headers: { Origin: ORIGIN } });
    expect(on.status).toBe(200);
    expect(on.headers[NEXT_MARK]).toBeUndefined();
    expect(JSON.parse(on.body).result.items.map((item: { title: string }) => item.title)).toEqual(["Shipping times"]);
    const one = await send("GET", `/api/v1/chat/widget/${site.id}/articles/${(created.json.result as { id: string }).id}`, { headers: { Origin: ORIGIN } });
    expect(one.headers[NEXT_MARK]).toBe("yes"); // one article stays with Next
  });

  test("every other path, HEAD, and near-misses of the hot paths go to Next", async () => {
    const started = await openConversation({ body: "hi", client_id: "a" });
    const toNext = await Promise.all(
      [
        ["GET", "/widget.js"],
        ["POST", "/api/v1/chat/visitor/renew"],
        ["HEAD", "/api/v1/chat/visitor/messages"],
        ["GET", "/api/v1/chat/visitor/messages/"],
        ["GET", "/api/v1/chat/visitor/messagesx?cursor=0"],
        ["GET", "/API/v1/chat/visitor/messages"],
      ].map(([method, path]) => send(method!, path!, { headers: asVisitor(started) })),
    );
    expect(toNext.map((answer) => answer.headers[NEXT_MARK])).toEqual(toNext.map(() => "yes"));
  });

  test("a method outside the API's set, a malformed path, an empty segment: the envelope, before Next or a handler", async () => {
    const started = await openConversation({ body: "hi", client_id: "a" });
    const refused = await Promise.all(
      [
        ["TRACE", "/api/v1/chat/visitor/messages", 404, "not_found"],
        ["PROPFIND", "/demo", 404, "not_found"],
        ["GET", "/api/v1/chat/visitor/avatars/%ED%A0%80", 400, "invalid_request"],
        ["GET", "/api/v1/chat/visitor/messages/%FF", 400, "invalid_request"],
        ["GET", "/api/v1/chat//visitor/messages", 404, "not_found"],
      ].map(async ([method, path, status, code]) => ({ expected: [status, code], answer: await send(method as string, path as string, { headers: asVisitor(started) }) })),
    );
    for (const { expected, answer } of refused) {
      expect([answer.status, JSON.parse(answer.body).result.code]).toEqual(expected);
      expect(answer.headers[NEXT_MARK]).toBeUndefined();
      expect(answer.headers["x-content-type-options"]).toBe("nosniff");
      expect(answer.headers["content-type"]).toBe("application/json; charset=utf-8");
      expect(answer.headers.connection).toBe("close");
    }
  });

  test("Next.js's internal headers are removed from /api requests (kept on pages), before Next or a hot route", async () => {
    const started = await openConversation({ body: "hi", client_id: "a" });
    const internal = { RSC: "1", "Next-Router-Prefetch": "1", "x-middleware-prefetch": "1", "X-Invoke-Path": "/", "x-nextjs-data": "1" };
    await send("POST", "/api/v1/admin/sites", { headers: internal });
    expect(Object.keys(seenByNext).filter((name) => name in { rsc: 1, "next-router-prefetch": 1, "x-middleware-prefetch": 1, "x-invoke-path": 1, "x-nextjs-data": 1 })).toEqual([]);
    await send("GET", "/demo", { headers: { RSC: "1" } });
    expect(seenByNext.rsc).toBe("1"); // pages are Next's own business

    const poll = await send("GET", "/api/v1/chat/visitor/messages?cursor=0", { headers: asVisitor(started, internal) });
    expect(poll.status).toBe(200);
  });

  test("the TCP peer reaches Next in the private header, which a client cannot write", async () => {
    await send("GET", "/api/v1/chat/visitor/renew", { headers: { [PEER_HEADER]: "guess 203.0.113.9" } });
    expect(trustedPeer(seenByNext[PEER_HEADER] as string)).toBe("127.0.0.1");
    expect(seenByNext[PEER_HEADER]).not.toContain("203.0.113.9");
  });

  test("a hot route answering before the body has arrived closes the connection", async () => {
    const answer = await new Promise<{ head: string; closed: boolean }>((resolve, reject) => {
      const req = httpRequest(`${base}/api/v1/chat/visitor/messages`, {
        method: "POST",
        headers: { "Content-Type": "application/json", "Content-Length": "1000" },
        agent: false,
      });
      req.on("response", (res) => {
        res.resume();
        res.on("end", () => resolve({ head: `${res.statusCode} ${res.headers.connection}`, closed: true }));
      });
      req.on("error", reject);
      req.write("{"); // and never the rest
    });
    expect(answer.head).toBe("401 close");
  });
});
