import { describe, expect, test } from "vitest";
import { MemoryLimiter } from "./memory-limiter";

describe("the in-process sliding window", () => {
  test("allows the limit within a window, then refuses until the window slides", async () => {
    let now = 60_000 * 1000; // the start of a window
    const limiter = new MemoryLimiter(3, 60_000, () => now);
    const outcomes = [];
    for (let i = 0; i < 4; i++) outcomes.push(await limiter.limit("a"));
    expect(outcomes.map((outcome) => [outcome.success, outcome.remaining])).toEqual([
      [true, 2],
      [true, 1],
      [true, 0],
      [false, 0],
    ]);
    expect(outcomes[3]!.reset).toBe(now + 60_000);
    expect((await limiter.limit("b")).success).toBe(true);

    now += 60_000 + 30_000; // half-way through the next window: half the previous still counts
    expect((await limiter.limit("a")).success).toBe(true); // floor(3 × 0.5) = 1, plus 1
    expect((await limiter.limit("a")).success).toBe(true);
    expect((await limiter.limit("a")).success).toBe(false);

    now += 120_000; // two windows later the past is forgotten
    expect((await limiter.limit("a")).remaining).toBe(2);
  });

  test("peek tells whether the next request would pass, without counting it", async () => {
    let now = 60_000 * 1000;
    const limiter = new MemoryLimiter(2, 60_000, () => now);
    expect(await limiter.peek("a")).toMatchObject({ success: true, remaining: 2 });
    expect(await limiter.peek("a")).toMatchObject({ success: true, remaining: 2 });
    await limiter.limit("a");
    expect(await limiter.peek("a")).toMatchObject({ success: true, remaining: 1 });
    await limiter.limit("a");
    expect(await limiter.peek("a")).toMatchObject({ success: false, remaining: 0, reset: now + 60_000 });
    now += 120_000;
    expect(await limiter.peek("a")).toMatchObject({ success: true, remaining: 2 });
  });
});
