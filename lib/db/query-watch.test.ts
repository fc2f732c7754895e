import { describe, expect, test, vi } from "vitest";
import { queryWatch } from "./query-watch";

// The sweep driven by hand: a clock the test moves, and the sweep run when the test says.

function setUp() {
  let clock = 0;
  let sweep = () => {};
  let stopped = false;
  let answer: (alive: boolean) => void = () => {};
  const isAlive = vi.fn(() => new Promise<boolean>((resolve) => (answer = resolve)));
  const watches = queryWatch({
    suspectAfterMs: 900,
    timeoutAfterMs: 6_000,
    isAlive,
    everyMs: 100,
    now: () => clock,
    repeat: (run) => {
      sweep = run;
      return () => (stopped = true);
    },
  });
  return {
    watches,
    isAlive,
    /** Moves the clock to `at` and runs the sweep once. */
    sweepAt: (at: number) => {
      clock = at;
      sweep();
    },
    /** Answers the liveness question in flight; its callbacks run after. */
    answer: async (alive: boolean) => {
      answer(alive);
      await Promise.resolve();
      await Promise.resolve();
    },
    stopped: () => stopped,
  };
}

describe("the query watch", () => {
  test("a watch younger than suspectAfterMs asks nothing", () => {
    const { watches, isAlive, sweepAt } = setUp();
    watches.watch(vi.fn());
    sweepAt(899);
    expect(isAlive).not.toHaveBeenCalled();
  });

  test("a watch unanswered for suspectAfterMs is closed when the database is not alive", async () => {
    const { watches, isAlive, sweepAt, answer } = setUp();
    const unresponsive = vi.fn();
    watches.watch(unresponsive);
    sweepAt(900);
    expect(isAlive).toHaveBeenCalledTimes(1);
    await answer(false);
    expect(unresponsive).toHaveBeenCalledTimes(1);
    sweepAt(5_000);
    expect(isAlive).toHaveBeenCalledTimes(1);
  });

  test("many suspects share one liveness question per sweep", async () => {
    const { watches, isAlive, sweepAt, answer } = setUp();
    const unresponsive = [vi.fn(), vi.fn(), vi.fn()];
    for (const callback of unresponsive) watches.watch(callback);
    sweepAt(1_000);
    expect(isAlive).toHaveBeenCalledTimes(1);
    await answer(false);
    for (const callback of unresponsive) expect(callback).toHaveBeenCalledTimes(1);
  });

  test("a settled watch is never suspected, and one settled while the question is out is left alone", async () => {
    const { watches, isAlive, sweepAt, answer } = setUp();
    const settledBefore = vi.fn();
    watches.watch(settledBefore).settle();
    const settledDuring = vi.fn();
    const during = watches.watch(settledDuring);
    sweepAt(1_000);
    expect(isAlive).toHaveBeenCalledTimes(1);
    during.settle();
    await answer(false);
    expect(settledBefore).not.toHaveBeenCalled();
    expect(settledDuring).not.toHaveBeenCalled();
  });

  test("while the database is alive a suspect is looked at again suspectAfterMs after the answer, not sooner", async () => {
    const { watches, isAlive, sweepAt, answer } = setUp();
    const unresponsive = vi.fn();
    watches.watch(unresponsive);
    sweepAt(900);
    sweepAt(1_000); // the question is still out: not asked twice
    expect(isAlive).toHaveBeenCalledTimes(1);
    await answer(true); // answered at 1 000
    sweepAt(1_899);
    expect(isAlive).toHaveBeenCalledTimes(1);
    sweepAt(1_900);
    expect(isAlive).toHaveBeenCalledTimes(2);
    await answer(false);
    expect(unresponsive).toHaveBeenCalledTimes(1);
  });

  test("a watch with onTimeout times out after timeoutAfterMs even while the database is alive; one without never does", async () => {
    const { watches, sweepAt, answer } = setUp();
    const query = { unresponsive: vi.fn(), timedOut: vi.fn() };
    watches.watch(query.unresponsive, query.timedOut);
    const wait = vi.fn();
    watches.watch(wait);
    for (let at = 900; at < 6_000; at += 900) {
      sweepAt(at);
      await answer(true);
    }
    expect(query.timedOut).not.toHaveBeenCalled();
    sweepAt(6_000);
    expect(query.timedOut).toHaveBeenCalledTimes(1);
    expect(wait).not.toHaveBeenCalled();
    sweepAt(6_300); // the wait's next look: it is still watched, the timed-out query no longer
    await answer(false);
    expect(query.unresponsive).not.toHaveBeenCalled();
    expect(wait).toHaveBeenCalledTimes(1);
  });

  test("stop() stops the sweep", () => {
    const { watches, stopped } = setUp();
    expect(stopped()).toBe(false);
    watches.stop();
    expect(stopped()).toBe(true);
  });
});
