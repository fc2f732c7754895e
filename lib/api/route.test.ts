import { describe, expect, test } from "vitest";
import { AppError } from "../core/errors";
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
