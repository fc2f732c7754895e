import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, afterEach, beforeAll, expect, test } from "vitest";
import { closeWebhookConnections } from "./keep-alive-agents";
import { MAX_RESPONSE_BODY, postWebhook } from "./post-webhook";

// One attempt against a real local server: which connections it opens and keeps.

let server: Server;
let connections = 0;
const hosts: (string | undefined)[] = [];
let answer = "ok";
let hang = false;

beforeAll(async () => {
  server = createServer((request, response) => {
    hosts.push(request.headers.host);
    request.resume();
    request.on("end", () => {
      if (!hang) response.end(answer);
    });
  });
  server.on("connection", () => connections++);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});
afterEach(() => {
  closeWebhookConnections();
  server.closeAllConnections();
  connections = 0;
  hosts.length = 0;
  answer = "ok";
  hang = false;
});

// A name that resolves nowhere: the attempt can only reach the server through the checked address.
const target = () => {
  const port = (server.address() as AddressInfo).port;
  return { url: new URL(`http://pinned.invalid:${port}/hook`), address: "127.0.0.1", family: 4 as const };
};
const post = (timeoutMs = 2_000) => postWebhook(target(), { "content-type": "application/json" }, "{}", timeoutMs);

test("goes to the checked address with the name as Host, and reuses the connection after a complete answer", async () => {
  for (let i = 0; i < 3; i++) expect(await post()).toEqual({ status: 200, body: "ok", error: null });
  expect(hosts).toEqual(Array(3).fill(`pinned.invalid:${target().url.port}`));
  expect(connections).toBe(1);
});

test("an answer cut at 1 KB closes its connection", async () => {
  answer = "x".repeat(MAX_RESPONSE_BODY * 4);
  expect((await post()).body).toHaveLength(MAX_RESPONSE_BODY);
  answer = "ok";
  await post();
  expect(connections).toBe(2);
});

test("a timeout closes its connection", async () => {
  hang = true;
  expect(await post(200)).toEqual({ status: null, body: null, error: "No answer within 0.2 s." });
  hang = false;
  expect((await post()).status).toBe(200);
  expect(connections).toBe(2);
});
