import { describe, expect, test } from "vitest";
import { BASE_URL } from "../support/api";
import { openConversation } from "../support/fixtures";
import { expectError } from "../support/expectations";
import { rowCounts } from "../support/row-counts";

describe("a client that hangs up mid-body", () => {
  test("gets 400 invalid_request (not a database outage) and stores nothing", async () => {
    const started = await openConversation();
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode('{"body":"x'));
        controller.error(Object.assign(new Error("aborted"), { code: "ECONNRESET" }));
      },
    });
    const request = new Request(`${BASE_URL}/api/v1/chat/visitor/messages`, {
      method: "POST",
      headers: { Origin: started.origin, Authorization: `Bearer ${started.token}`, "Content-Type": "application/json" },
      body,
      duplex: "half",
    } as RequestInit);
    const before = await rowCounts();
    const { POST } = await import("../../app/api/v1/chat/visitor/messages/route");
    const response = await POST(request, { params: Promise.resolve({}) });
    expectError({ status: response.status, headers: response.headers, json: await response.json() }, 400, "invalid_request");
    expect(await rowCounts()).toEqual(before);
  });
});
