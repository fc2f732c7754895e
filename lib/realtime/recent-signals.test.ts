import { describe, expect, test } from "vitest";
import { recentSignals } from "./recent-signals";

const WINDOW = 60_000;

/** A record on a clock the test moves. */
function onClock() {
  const clock = { now: 1_000 };
  return { clock, signals: recentSignals(WINDOW, () => clock.now) };
}

describe("recentSignals", () => {
  test("a recorded signal is seen from any time at or before it, not after it", () => {
    const { clock, signals } = onClock();
    clock.now = 2_000;
    signals.record("a");
    expect(signals.quietSince("a", 1_500)).toBe(false);
    expect(signals.quietSince("a", 2_000)).toBe(false);
    expect(signals.quietSince("a", 2_001)).toBe(true);
    expect(signals.quietSince("b", 1_500)).toBe(true);
  });

  test("the latest signal of a key counts", () => {
    const { clock, signals } = onClock();
    signals.record("a");
    clock.now = 5_000;
    signals.record("a");
    expect(signals.quietSince("a", 3_000)).toBe(false);
  });

  test("a signal is kept for at least the window, across a generation change", () => {
    const { clock, signals } = onClock();
    clock.now = 1_000 + WINDOW - 1;
    signals.record("a"); // the last moment of the first generation
    clock.now += WINDOW - 1;
    signals.record("b"); // the second generation starts here
    expect(signals.quietSince("a", 1_000 + WINDOW - 1)).toBe(false);
    expect(signals.size).toBe(2);
  });

  test("expires after the window: a later generation change drops it", () => {
    const { clock, signals } = onClock();
    signals.record("a");
    clock.now += WINDOW;
    signals.record("b");
    clock.now += WINDOW;
    signals.record("c");
    expect(signals.size).toBe(2); // b and c
    expect(signals.quietSince("a", clock.now - 1)).toBe(true);
  });

  test("says no when asked about a time whose signals may have been dropped", () => {
    const { clock, signals } = onClock();
    const lookedUpAt = clock.now;
    signals.record("a");
    clock.now += 2 * WINDOW;
    signals.record("b");
    clock.now += WINDOW; // the generation holding "a" is gone
    expect(signals.quietSince("a", lookedUpAt)).toBe(false);
    expect(signals.quietSince("z", lookedUpAt)).toBe(false);
    expect(signals.quietSince("z", clock.now - 1)).toBe(true);
  });

  test("stays bounded: only the keys of the last two generations are held", () => {
    const { clock, signals } = onClock();
    for (let minute = 0; minute < 30; minute++) {
      for (let i = 0; i < 1_000; i++) {
        clock.now += WINDOW / 1_000;
        signals.record(`conversation-${minute}-${i}`);
      }
    }
    expect(signals.size).toBeLessThanOrEqual(2_000);
    expect(signals.size).toBeGreaterThanOrEqual(1_000);
  });
});
