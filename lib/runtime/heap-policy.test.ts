import { expect, test } from "vitest";
import { COMPACT_ABOVE, COMPACT_GROWTH_PERCENT, configureHeap, heapPolicy, RELAXED_BELOW } from "./heap-policy.mjs";

test("heap growth is held while many requests are in flight, and released well below, not at every step", () => {
  const flags: string[] = [];
  const update = heapPolicy((value) => flags.push(value));
  for (const inFlight of [10, COMPACT_ABOVE, COMPACT_ABOVE + 1, COMPACT_ABOVE + 500, COMPACT_ABOVE - 1, RELAXED_BELOW, RELAXED_BELOW - 1, 5]) {
    update(inFlight);
  }
  expect(flags).toEqual([`--heap-growing-percent=${COMPACT_GROWTH_PERCENT}`, "--heap-growing-percent=0"]);
  update(COMPACT_ABOVE + 1);
  expect(flags).toHaveLength(3);
});

test("the server's V8 flags turn allocation-site pretenuring off", () => {
  const flags: string[] = [];
  configureHeap((flag) => flags.push(flag));
  expect(flags).toEqual(["--no-allocation-site-pretenuring"]);
});
