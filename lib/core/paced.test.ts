import { setTimeout as sleep } from "node:timers/promises";
import { performance } from "node:perf_hooks";
import { describe, expect, test } from "vitest";
import { paced, REST_RATIO } from "./paced";

describe("paced", () => {
  test("answers the batch's result after resting REST_RATIO times as long as the batch took", async () => {
    const started = performance.now();
    const result = await paced(async () => {
      await sleep(40);
      return "done";
    });
    expect(result).toBe("done");
    // At least the batch and its rest (timers may fire a little early, never much).
    expect(performance.now() - started).toBeGreaterThanOrEqual(40 * (1 + REST_RATIO) * 0.9);
  });

  test("a failing batch fails at once, without the rest", async () => {
    await expect(paced(() => Promise.reject(new Error("database down")), 1_000)).rejects.toThrow("database down");
  });
});
