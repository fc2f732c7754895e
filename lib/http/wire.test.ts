import { describe, expect, test } from "vitest";
import { acceptsPlainAnswer, answer, takePlainAnswer } from "./wire.mjs";

const headers = { "Cache-Control": "no-store", "Content-Type": "application/json; charset=utf-8", "cache-control": "private" };
const body = JSON.stringify({ success: true, result: { items: [] }, message: "OK" });

describe("answer", () => {
  test("is a complete Response for a request the front did not build, a later name replacing an earlier one in any case", async () => {
    const request = new Request("http://localhost/x");
    const response = answer(request, 201, headers, body);
    expect(takePlainAnswer(request, response)).toBeUndefined();
    expect(response.status).toBe(201);
    expect(response.headers.get("cache-control")).toBe("private");
    expect(response.headers.get("content-type")).toBe("application/json; charset=utf-8");
    expect(await response.text()).toBe(body);
  });

  test("leaves the status, headers and body on the front's own request, and returns the shared placeholder", () => {
    const request = new Request("http://localhost/x");
    acceptsPlainAnswer(request);
    const response = answer(request, 429, headers, body);
    expect(response.body).toBeNull();
    expect(takePlainAnswer(request, response)).toEqual({ status: 429, headers, body });
    const other = new Request("http://localhost/y");
    acceptsPlainAnswer(other);
    expect(answer(other, 200, headers, body)).toBe(response);
    expect(takePlainAnswer(other, response)).toEqual({ status: 200, headers, body });
  });

  test("a Response of the handler's own is not taken for a plain answer, even on the front's request", () => {
    const request = new Request("http://localhost/x");
    acceptsPlainAnswer(request);
    answer(request, 200, headers, body);
    expect(takePlainAnswer(request, new Response("download"))).toBeUndefined();
  });
});
