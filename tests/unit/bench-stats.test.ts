import { describe, expect, test } from "vitest";
import { ascending, percentile } from "../../bench/stats";

// Every bench and the reliability tests read percentiles from bench/stats.ts: one definition (nearest
// rank) on one scale (a fraction of 1), so a p99 means the same in every table of docs/performance.md.

describe("percentile (nearest rank)", () => {
  const hundred = ascending(Array.from({ length: 100 }, (_, i) => 100 - i));

  test("is the smallest value with at least that fraction of the values at or below it", () => {
    expect(percentile(hundred, 0.5)).toBe(50);
    expect(percentile(hundred, 0.99)).toBe(99);
    expect(percentile(hundred, 1)).toBe(100);
    expect(percentile(hundred, 0.001)).toBe(1);
    expect(percentile(ascending([5, 1, 4, 2, 3]), 0.5)).toBe(3);
    expect(percentile(ascending([2, 1]), 0.5)).toBe(1);
  });

  test("is 0 of nothing, and the value of one", () => {
    expect(percentile([], 0.99)).toBe(0);
    expect(percentile([7], 0)).toBe(7);
    expect(percentile([7], 0.99)).toBe(7);
  });

  test("sorts numbers as numbers", () => {
    expect([...ascending([10, 9, 100])]).toEqual([9, 10, 100]);
  });
});
