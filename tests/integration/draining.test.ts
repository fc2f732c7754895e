import { once } from "node:events";
import { request as httpRequest, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";
import { describe, expect, test } from "vitest";
import * as messagesRoute from "../../app/api/v1/chat/visitor/messages/route";
import * as presenceRoute from "../../app/api/v1/chat/visitor/presence/route";
import { waitingRequests } from "../../lib/realtime/message-signals";
import { createFrontServer } from "../../lib/runtime/front.mjs";
import { isDraining } from "../../lib/core/lifecycle.mjs";
import { api } from "../support/api";
import { openConversation, type Started } from "../support/fixtures";
import { eventually } from "../support/webhook-receiver";

// A graceful shutdown, in-process (the same under the real `npm start`: production-server.test.ts):
// the front's drain stops taking connections, held long-polls answer at once with an empty page,
// and readiness fails meanwhile. Draining is once per process, so this file does it once, last.

const asVisitor = (started: Started) => ({ Origin: started.origin, Authorization: `Bearer ${started.token}` });

function get(port: number, path: string, headers: Record<string, string>) {
  return new Promise<{ status: number; headers: IncomingMessage["headers"]; json: any }>((resolve, reject) => {
    httpRequest({ host: "127.0.0.1", port, path, headers, agent: false }, (res) => {
      let body = "";
      res.on("data", (chunk: Buffer) => (body += chunk.toString()));
      res.on("end", () => resolve({ status: res.statusCode!, headers: res.headers, json: JSON.parse(body) }));
    })
      .on("error", reject)
      .end();
  });
}

describe("draining (SIGTERM under npm start)", () => {
  test("held long-polls answer at once with an empty page, event streams end, new long-polls do not wait, readiness fails, new connections are refused", async () => {
    const started = await openConversation({ body: "hi", client_id: "a" });
    expect((await api.get("/api/ready")).status).toBe(200);

    const server = createFrontServer({
      // A stand-in for Next serving an endless event stream (as the inbox's is), the way Next writes one.
      next: (_req, res) => {
        res.appendHeader("Content-Type", "text/event-stream; charset=utf-8");
        res.writeHead(200);
        res.write("data: ready\n\n");
      },
      hotRoutes: { "/api/v1/chat/visitor/messages": messagesRoute, "/api/v1/chat/visitor/presence": presenceRoute },
    });
    server.listen(0, "127.0.0.1");
    await once(server, "listening");
    const { port } = server.address() as AddressInfo;

    const heldSince = Date.now();
    const held = get(port, "/api/v1/chat/visitor/messages?cursor=1&wait=20", asVisitor(started));
    await eventually(() => expect(waitingRequests(started.conversationId)).toBe(1), 3_000);
    const stream = await new Promise<IncomingMessage>((resolve, reject) =>
      httpRequest({ host: "127.0.0.1", port, path: "/api/v1/inbox/events", agent: false }, resolve).on("error", reject).end(),
    );
    const streamEnded = new Promise((resolve) => stream.resume().once("close", resolve));

    await server.drain(); // resolves once the held request has been answered and its connection closed
    const answer = await held;
    expect(answer.status).toBe(200);
    expect(answer.json).toEqual({ success: true, result: { items: [], next_cursor: 1, has_more: false }, message: expect.any(String) });
    expect(answer.headers.connection).toBe("close");
    expect(Date.now() - heldSince).toBeLessThan(10_000); // not held for its 20 s
    expect(isDraining()).toBe(true);
    await streamEnded; // the event stream was cut (EventSource reconnects elsewhere)

    const ready = await api.get("/api/ready");
    expect([ready.status, ready.json.result.code, ready.json.message]).toEqual([503, "service_unavailable", "The service is shutting down."]);
    // A long-poll that still reaches a handler (an open connection, another front) does not wait.
    const late = await api.get("/api/v1/chat/visitor/messages?cursor=1&wait=20", { headers: asVisitor(started) });
    expect([late.status, late.json.result.items]).toEqual([200, []]);
    expect(waitingRequests(started.conversationId)).toBe(0);

    await expect(get(port, "/api/health", {})).rejects.toThrow(/ECONNREFUSED/);
  });
});
