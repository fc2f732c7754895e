import { describe, expect, test } from "vitest";
import { WorkGate, WorkGateFull } from "./work-gate";

/** Work that runs until the test lets it finish, counting how many run at once. */
function instrumented() {
  const meter = { now: 0, most: 0, started: 0 };
  const finishers: (() => void)[] = [];
  const work = () => {
    meter.started += 1;
    meter.now += 1;
    meter.most = Math.max(meter.most, meter.now);
    return new Promise<void>((resolve) =>
      finishers.push(() => {
        meter.now -= 1;
        resolve();
      }),
    );
  };
  const finishOne = async () => {
    finishers.shift()!();
    for (let i = 0; i < 5; i++) await Promise.resolve(); // let the gate hand the slot on
  };
  return { meter, work, finishOne, unfinished: () => finishers.length };
}

describe("the gate in front of password hashing", () => {
  test("runs at most `running` at once, queues at most `queued`, refuses the rest at once", async () => {
    const gate = new WorkGate({ running: 4, queued: 3 });
    const { meter, work, finishOne, unfinished } = instrumented();
    const outcomes = Array.from({ length: 10 }, () => gate.run(work).then(() => "done", (error: unknown) => error));
    await Promise.resolve();
    expect(meter.started).toBe(4);
    expect(gate.load).toEqual({ running: 4, queued: 3 });
    // The three beyond running + queued are refused without waiting for anything.
    const refused = await Promise.all(outcomes.slice(7));
    expect(refused.every((outcome) => outcome instanceof WorkGateFull)).toBe(true);

    while (unfinished() > 0) {
      expect(meter.now).toBeLessThanOrEqual(4);
      await finishOne();
    }
    expect(await Promise.all(outcomes.slice(0, 7))).toEqual(Array(7).fill("done"));
    expect(meter).toMatchObject({ started: 7, most: 4, now: 0 });
    expect(gate.load).toEqual({ running: 0, queued: 0 });
  });

  test("a slot is given back when the work fails, and the queue moves on", async () => {
    const gate = new WorkGate({ running: 1, queued: 1 });
    let release!: () => void;
    const first = gate.run(() => new Promise<never>((_, reject) => (release = () => reject(new Error("scrypt failed")))));
    const second = gate.run(async () => "second ran");
    await expect(gate.run(async () => "third")).rejects.toBeInstanceOf(WorkGateFull);
    release();
    await expect(first).rejects.toThrow("scrypt failed");
    await expect(second).resolves.toBe("second ran");
    expect(gate.load).toEqual({ running: 0, queued: 0 });
    await expect(gate.run(async () => "again")).resolves.toBe("again");
  });
});
