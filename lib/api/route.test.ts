import { describe, expect, test } from "vitest";
import { AppError } from "../core/errors";
import { replyHandlerOf } from "../core/reply-handlers.mjs";
import { probeRoute } from "./route";

const call = (handler: Parameters<typeof probeRoute>[0]) => probeRoute(handler)(new Request("http://localhost/api/health"), {});

describe("the pipeline's one try/catch", () => {
  test("a handler that throws before returning its promise is answered in the envelope", async () => {
    const refused = await call(() => {
      throw new AppError("not_found", "Nothing here.");
    });
    expect(refused.status).toBe(404);
    expect(await refused.json()).toMatchObject({ success: false, result: { code: "not_found" } });

    const failed = await call(() => {
      throw new Error("a bug");
    });
    expect(failed.status).toBe(500);
    expect(await failed.json()).toMatchObject({ success: false, result: { code: "internal_error" } });
  });

  test("a handler's rejection is answered alike", async () => {
    const refused = await call(() => Promise.reject(new AppError("not_found", "Nothing here.")));
    expect(refused.status).toBe(404);
  });
});

describe("the two adapters", () => {
  test("the front finds the pipeline behind a route handler, and its reply is what Next's Response carries", async () => {
    const handler = probeRoute(async () => ({ status: 200, result: { up: true }, message: "OK" }));
    const pipeline = replyHandlerOf(handler)!;
    const reply = await pipeline(new Request("http://localhost/api/health"), {});
    const response = await handler(new Request("http://localhost/api/health"), {});

    expect(reply).toMatchObject({ status: 200, body: await response.text() });
    expect(reply.status).toBe(response.status);
    if (reply instanceof Response) throw new Error("a reply, not a Response");
    expect(reply.headers["Content-Type"]).toBe(response.headers.get("content-type"));
    expect(replyHandlerOf(() => new Response())).toBeUndefined(); // not the pipeline's: the front leaves it to Next
  });
});
