import { describe, expect, test } from "vitest";
import { toResponse } from "./respond";

const headers = { "Cache-Control": "no-store", "Content-Type": "application/json; charset=utf-8", "cache-control": "private" };
const body = JSON.stringify({ success: true, result: { items: [] }, message: "OK" });

describe("toResponse (Next's adapter)", () => {
  test("makes the reply a complete Response, a later name replacing an earlier one in any case", async () => {
    const response = toResponse({ status: 201, headers, body });
    expect(response.status).toBe(201);
    expect(response.headers.get("cache-control")).toBe("private");
    expect(response.headers.get("content-type")).toBe("application/json; charset=utf-8");
    expect(await response.text()).toBe(body);
  });

  test("passes a Response the pipeline made itself (a download, a stream) as it is", () => {
    const download = new Response("download");
    expect(toResponse(download)).toBe(download);
  });
});
