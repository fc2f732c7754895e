import { Readable } from "node:stream";
import type { IncomingMessage } from "node:http";
import { describe, expect, test } from "vitest";
import { FrontHeaders, FrontRequest } from "./front-request.mjs";

const raw = [
  "Host", "127.0.0.1:3000",
  "Origin", "https://shop.example",
  "authorization", "Bearer vt_first",
  "AUTHORIZATION", "Bearer vt_second",
  "Accept", "application/json",
  "accept", "text/plain",
  "Content-Type", "application/json; charset=utf-8",
];

describe("FrontHeaders answers get() as a Fetch Headers built from the same pairs", () => {
  const pairs = Array.from({ length: raw.length / 2 }, (_, i) => [raw[2 * i]!, raw[2 * i + 1]!] as [string, string]);
  const fetchHeaders = new Headers(pairs);
  const frontHeaders = new FrontHeaders(raw);

  test.each(["origin", "ORIGIN", "Authorization", "accept", "content-type", "host", "cookie", "x-parley-peer"])("%s", (name) => {
    expect(frontHeaders.get(name)).toBe(fetchHeaders.get(name));
    expect(frontHeaders.has(name)).toBe(fetchHeaders.has(name));
  });
});

describe("FrontRequest", () => {
  const nodeRequest = (method: string, body = "") => Object.assign(Readable.from([Buffer.from(body)]), { method }) as unknown as IncomingMessage;

  test("a GET has no body and a signal that never aborts", () => {
    const request = new FrontRequest(nodeRequest("GET"), "http://localhost/api/v1/chat/visitor/messages?cursor=3", raw, undefined);
    expect(request.body).toBeNull();
    expect(request.signal.aborted).toBe(false);
    expect(new URL(request.url).searchParams.get("cursor")).toBe("3");
  });

  test("a POST's body is the request's bytes, as a Web stream", async () => {
    const request = new FrontRequest(nodeRequest("POST", '{"body":"hi"}'), "http://localhost/x", raw, undefined);
    expect(await new Response(request.body).text()).toBe('{"body":"hi"}');
  });

  test("the long-poll's own signal is the one handlers see", () => {
    const hangUp = new AbortController();
    const request = new FrontRequest(nodeRequest("GET"), "http://localhost/x?wait=25", raw, hangUp.signal);
    hangUp.abort();
    expect(request.signal.aborted).toBe(true);
  });
});
