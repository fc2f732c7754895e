// One claim-and-hold loop for the tables whose rows are the work: the outbox
// (notification_events, lib/notifications/dispatcher.ts) and the webhook deliveries
// (lib/webhooks/delivery-loop.ts). Each claims rows with FOR UPDATE SKIP LOCKED and holds them for
// a while (claimed_until, locked_until), so every instance may run a loop over the same table.
// What is claimed, and how, is the caller's; this is when to look:
//
// - at once when woken (new work was written in this process; a claim in progress looks again after),
// - while there is room: a claim that filled it is followed by the next at once,
// - after a claim that found some but less than the room, a short wait for more to gather
//   (gatherMs: a batch costs the same statements however few it carries),
// - for a while after a claim that found some (alertMs), an empty claim also waits only gatherMs:
//   work comes in spells, and one empty look in a spell would otherwise cost a whole poll,
//   while an idle loop still looks once a poll,
// - at a time something falls due (a retry), when that is sooner than the next poll,
// - otherwise every pollMs (one indexed query),
// - and when held work ends: its room is free.

export interface ClaimLoopOptions {
  /** How many claimed rows may be in hand at once. */
  room: number;
  /**
   * Claims up to `room` rows, and either finishes them before it answers (the dispatcher: a batch
   * is one transaction) or hands each one's work to `hold` (webhook attempts, which take seconds).
   * Answers how many it claimed.
   */
  claim(room: number): Promise<number>;
  /** Look again after this long when nothing woke the loop. */
  pollMs: number;
  /** After a claim that found some but less than it had room for, look again after this long (default: pollMs). */
  gatherMs?: number;
  /** For this long after a claim that found some, an empty claim is followed after gatherMs, not pollMs (default: 0). */
  alertMs?: number;
  /** A claim failed (the database is down, say): report it; the next poll tries again. */
  failed(error: unknown): void;
}

export interface ClaimLoop {
  /** Claims now (the first call starts the loop); if a claim is running, another follows it. */
  wake(): void;
  /** Something falls due then (epoch ms): claim at that time, unless an earlier one is set (polls find the later ones). */
  wakeAt(at: number): void;
  /** Work on claimed rows: it takes room until it settles. It catches its own errors (one let through is reported to `failed`). */
  hold(work: Promise<void>): void;
  /** Stops claiming. Graceful waits for the work in hand; `abrupt` leaves it running, as a crash would. */
  stop(options: { abrupt: boolean }): Promise<void>;
}

export function claimLoop(options: ClaimLoopOptions): ClaimLoop {
  const { room, pollMs, gatherMs = pollMs, alertMs = 0 } = options;
  const inHand = new Set<Promise<void>>();
  let stopped = false;
  let claiming: Promise<void> | null = null;
  let wokenMeanwhile = false;
  let next: NodeJS.Timeout | undefined;
  let due: { at: number; timer: NodeJS.Timeout } | null = null;
  let roomFreed: NodeJS.Immediate | null = null;
  let lastFoundAt = -Infinity;

  /** Claims while there is room; answers how long to wait before looking again. */
  async function claimWhileRoom(): Promise<number> {
    while (!stopped && inHand.size < room) {
      const want = room - inHand.size;
      const claimed = await options.claim(want);
      if (claimed === 0) return performance.now() - lastFoundAt < alertMs ? gatherMs : pollMs;
      lastFoundAt = performance.now();
      if (claimed < want) return gatherMs;
    }
    return pollMs; // full: the work in hand wakes the loop as it ends
  }

  function wake(): void {
    if (stopped) return;
    if (claiming) {
      wokenMeanwhile = true;
      return;
    }
    clearTimeout(next);
    claiming = claimWhileRoom()
      .catch((error: unknown) => {
        options.failed(error);
        return pollMs;
      })
      .then((wait) => {
        claiming = null;
        if (wokenMeanwhile) {
          wokenMeanwhile = false;
          wake();
        } else if (!stopped) {
          next = setTimeout(wake, wait);
        }
      });
  }

  return {
    wake,
    wakeAt(at) {
      if (stopped || (due && due.at <= at)) return;
      if (due) clearTimeout(due.timer);
      due = { at, timer: setTimeout(() => ((due = null), wake()), Math.max(0, at - Date.now())) };
    },
    hold(work) {
      const held: Promise<void> = work.catch(options.failed).finally(() => {
        inHand.delete(held);
        // Claim into the freed room once for all the work that ends in this turn (answers are
        // recorded in batches, and a batch's work ends together), not once per piece.
        if (!stopped) roomFreed ??= setImmediate(() => ((roomFreed = null), wake()));
      });
      inHand.add(held);
    },
    async stop({ abrupt }) {
      stopped = true;
      clearTimeout(next);
      if (due) clearTimeout(due.timer);
      if (roomFreed) clearImmediate(roomFreed);
      await claiming;
      if (abrupt) return;
      while (inHand.size > 0) await Promise.all(inHand);
    },
  };
}

/**
 * What held work records, written in batches: the first value is written at once, and values that
 * come while a batch is written wait for the next one (one statement per batch however many).
 * Each call resolves when its batch is written, and rejects if that write failed.
 */
export function inBatches<Value>(write: (values: Value[]) => Promise<void>): (value: Value) => Promise<void> {
  let writing: Promise<void> = Promise.resolve();
  let gathering: { values: Value[]; written: Promise<void> } | null = null;
  return (value) => {
    if (!gathering) {
      const values: Value[] = [];
      const written = writing
        .catch(() => {}) // that batch's callers heard of its failure; this one is written anyway
        .then(() => {
          gathering = null;
          return write(values);
        });
      gathering = { values, written };
      writing = written;
    }
    gathering.values.push(value);
    return gathering.written;
  };
}
