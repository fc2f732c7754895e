import { describe, expect, test } from "vitest";
import { InFlight } from "./in-flight.mjs";

describe("InFlight", () => {
  test("holds what was added until it is deleted, and counts it", () => {
    const inFlight = new InFlight<string>();
    const a = inFlight.add("a");
    const b = inFlight.add("b");
    inFlight.add("c");
    inFlight.delete(b);
    expect([...inFlight].sort()).toEqual(["a", "c"]);
    expect(inFlight.size).toBe(2);
    inFlight.delete(a);
    expect([...inFlight]).toEqual(["c"]);
    expect(inFlight.size).toBe(1);
  });

  test("reuses freed slots: under steady load its array stops growing", () => {
    const inFlight = new InFlight<number>();
    const slots = new Set<number>();
    for (let round = 0; round < 100; round++) {
      const held = Array.from({ length: 10 }, (_, i) => inFlight.add(round * 10 + i));
      held.forEach((slot) => slots.add(slot));
      held.forEach((slot) => inFlight.delete(slot));
    }
    expect(slots.size).toBe(10);
    expect(inFlight.size).toBe(0);
    expect([...inFlight]).toEqual([]);
  });
});
