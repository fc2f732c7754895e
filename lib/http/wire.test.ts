import { describe, expect, test } from "vitest";
import { acceptsPlainAnswer, answer, takePlainAnswer } from "./wire.mjs";

const headers = { "Cache-Control": "no-store", "Content-Type": "application/json; charset=utf-8", "cache-control": "private" };
const body = JSON.stringify({ success: true, result: { items: [] }, message: "OK" });

describe("answer", () => {
  test("is a complete Response for a request the front did not build, a later name replacing an earlier one in any case", async () => {
    const response = answer(new Request("http://localhost/x"), 201, headers, body);
    expect(takePlainAnswer(response)).toBeUndefined();
    expect(response.status).toBe(201);
    expect(response.headers.get("cache-control")).toBe("private");
    expect(response.headers.get("content-type")).toBe("application/json; charset=utf-8");
    expect(await response.text()).toBe(body);
  });

  test("leaves the headers and body beside an empty Response of the same status for the front's own requests", () => {
    const request = new Request("http://localhost/x");
    acceptsPlainAnswer(request);
    const response = answer(request, 429, headers, body);
    expect(response.status).toBe(429);
    expect(response.body).toBeNull();
    expect(takePlainAnswer(response)).toEqual({ headers, body });
  });
});
