import { afterEach, expect, test } from "vitest";
import { claimLoop, inBatches, type ClaimLoop } from "./claim-loop";

// The loop's timing with a claim that counts its calls: no database, real (short) timers.

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
const loops: ClaimLoop[] = [];
afterEach(async () => {
  await Promise.all(loops.splice(0).map((loop) => loop.stop({ abrupt: true })));
});

/** A loop whose claims take the next count from `answers` (then 0), and record the room they were given. */
function countingLoop(answers: number[], options: { room?: number; pollMs?: number; gatherMs?: number } = {}) {
  const rooms: number[] = [];
  const failures: unknown[] = [];
  const loop = claimLoop({
    room: options.room ?? 10,
    pollMs: options.pollMs ?? 10_000,
    gatherMs: options.gatherMs,
    claim: async (room) => {
      rooms.push(room);
      return Math.min(room, answers.shift() ?? 0);
    },
    failed: (error) => failures.push(error),
  });
  loops.push(loop);
  return { loop, rooms, failures };
}

test("a full claim is followed by the next at once; a claim that found nothing waits for the poll", async () => {
  const { loop, rooms } = countingLoop([10, 10, 0]);
  loop.wake();
  await sleep(50);
  expect(rooms).toEqual([10, 10, 10]);
});

test("after a claim that found some, the next comes after the gather delay", async () => {
  const { loop, rooms } = countingLoop([3, 0], { gatherMs: 30 });
  loop.wake();
  await sleep(10);
  expect(rooms).toHaveLength(1);
  await sleep(60);
  expect(rooms).toHaveLength(2);
});

test("a wake during a claim makes one more claim after it, not one per wake", async () => {
  let release = () => {};
  let calls = 0;
  const loop = claimLoop({
    room: 10,
    pollMs: 10_000,
    claim: async () => {
      calls++;
      if (calls === 1) await new Promise<void>((resolve) => (release = resolve));
      return 0;
    },
    failed: () => {},
  });
  loops.push(loop);
  loop.wake();
  loop.wake();
  loop.wake();
  release();
  await sleep(20);
  expect(calls).toBe(2);
});

test("held work takes room until it ends, then the loop claims into it; a graceful stop waits for it", async () => {
  let finish = () => {};
  const held = new Promise<void>((resolve) => (finish = resolve));
  const rooms: number[] = [];
  const loop = claimLoop({
    room: 2,
    pollMs: 10_000,
    claim: async (room) => {
      rooms.push(room);
      if (rooms.length === 1) {
        loop.hold(held);
        loop.hold(sleep(5));
        return 2;
      }
      return 0;
    },
    failed: () => {},
  });
  loops.push(loop);
  loop.wake();
  await sleep(30);
  expect(rooms).toEqual([2, 1]); // full at first; then the short work ended: room for one
  let stopped = false;
  const stopping = loop.stop({ abrupt: false }).then(() => (stopped = true));
  await sleep(10);
  expect(stopped).toBe(false);
  finish();
  await stopping;
  expect(rooms).toEqual([2, 1]); // no claim after the stop
});

test("an abrupt stop leaves the held work running", async () => {
  const loop = claimLoop({ room: 1, pollMs: 10_000, claim: async () => (loop.hold(new Promise(() => {})), 1), failed: () => {} });
  loop.wake();
  await sleep(5);
  await loop.stop({ abrupt: true }); // returns although the work never ends
});

test("wakeAt claims at the earliest time it was given", async () => {
  const { loop, rooms } = countingLoop([]);
  loop.wake();
  await sleep(5);
  loop.wakeAt(Date.now() + 200);
  loop.wakeAt(Date.now() + 20);
  await sleep(60);
  expect(rooms).toHaveLength(2);
});

test("a failed claim is reported and tried again at the next poll", async () => {
  let calls = 0;
  const failures: unknown[] = [];
  const loop = claimLoop({
    room: 1,
    pollMs: 20,
    claim: async () => {
      if (++calls === 1) throw new Error("database down");
      return 0;
    },
    failed: (error) => failures.push(error),
  });
  loops.push(loop);
  loop.wake();
  await sleep(60);
  expect(failures).toHaveLength(1);
  expect(calls).toBeGreaterThanOrEqual(2);
});

test("inBatches writes the first value at once and what comes meanwhile in one batch after it", async () => {
  const written: number[][] = [];
  let release = () => {};
  const write = inBatches(async (values: number[]) => {
    written.push([...values]);
    if (written.length === 1) await new Promise<void>((resolve) => (release = resolve));
  });
  const first = write(1);
  await sleep(1);
  const rest = [write(2), write(3), write(4)];
  expect(written).toEqual([[1]]);
  release();
  await Promise.all([first, ...rest]);
  expect(written).toEqual([[1], [2, 3, 4]]);
});

test("for alertMs after a claim that found some, an empty claim is followed after the gather delay; then after the poll", async () => {
  const rooms: number[] = [];
  const answers = [3];
  const loop = claimLoop({ room: 10, pollMs: 10_000, gatherMs: 20, alertMs: 150, claim: async (room) => (rooms.push(room), answers.shift() ?? 0), failed: () => {} });
  loops.push(loop);
  loop.wake();
  await sleep(100);
  const duringSpell = rooms.length;
  expect(duringSpell).toBeGreaterThanOrEqual(3); // the finding claim, then empty ones every 20 ms
  await sleep(250);
  const afterSpell = rooms.length;
  expect(afterSpell).toBeLessThanOrEqual(12); // 150 ms of 20 ms looks at most, then the 10 s poll
  await sleep(100);
  expect(rooms.length).toBe(afterSpell);
});
