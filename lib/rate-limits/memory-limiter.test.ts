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

  test("release gives one counted request back, in the window it was counted in", async () => {
    let now = 60_000 * 1000;
    const limiter = new MemoryLimiter(2, 60_000, () => now);
    await limiter.limit("a");
    await limiter.limit("a");
    expect((await limiter.limit("a")).success).toBe(false);
    await limiter.release("a");
    expect(await limiter.peek("a")).toMatchObject({ success: true, remaining: 1 });
    expect((await limiter.limit("a")).success).toBe(true);
    expect((await limiter.limit("a")).success).toBe(false);

    // Counted just before the window turned, given back just after: from the previous window.
    now += 59_000;
    const other = new MemoryLimiter(2, 60_000, () => now);
    await other.limit("b");
    await other.limit("b");
    now += 2_000; // 1 s into the next window: both still weigh floor(2 × 59/60) = 1
    expect(await other.peek("b")).toMatchObject({ remaining: 1 });
    await other.release("b"); // previous: 1, which weighs floor(59/60) = 0
    expect(await other.peek("b")).toMatchObject({ remaining: 2 });
    await other.release("b");
    await other.release("b"); // never below zero
    expect((await other.limit("b")).remaining).toBe(1);
    await other.release("nobody"); // nothing to give back: no effect, no error
    expect(await other.peek("nobody")).toMatchObject({ remaining: 2 });
  });
});
