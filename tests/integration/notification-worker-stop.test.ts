import { setTimeout as sleep } from "node:timers/promises";
import { describe, expect, test } from "vitest";
import { sqlExecutor, type SqlExecutor } from "../../lib/db/client";
import { QUEUES } from "../../lib/jobs/queue";
import { startNotificationWorker } from "../../lib/notifications/worker";

// A stopped worker sends nothing more: its caller closes the pool next (a test's afterAll, a
// process shutting down). pg-boss 10's own stop returns while a fetch is in flight, and that
// fetch's jobs then run and complete on the closed pool ("Cannot use a pool after calling end").
describe("stopping the notification worker", () => {
  test("waits for a fetch in flight, its batch and the batch's completion", async () => {
    const base = await sqlExecutor();
    let stopped = false;
    const lateQueries: string[] = [];
    let fetchStarted!: () => void;
    const fetching = new Promise<void>((resolve) => (fetchStarted = resolve));
    const executor: SqlExecutor = {
      executeSql: async (text, values) => {
        if (stopped) lateQueries.push(text.trim().slice(0, 60));
        // The reassign sweep the worker queues at its start: its fetch is held until stop() has begun.
        if (text.includes("SKIP LOCKED") && values?.[0] === QUEUES.reassign) {
          fetchStarted();
          await sleep(400);
        }
        return base.executeSql(text, values);
      },
      transaction: (work) => {
        if (stopped) lateQueries.push("a transaction");
        return base.transaction(work);
      },
    };
    const worker = await startNotificationWorker({ executor, timings: { dispatchPollMs: 50 } });
    await fetching;
    await worker.stop();
    stopped = true;
    await sleep(1_000);
    expect(lateQueries).toEqual([]);
    const { rows } = await base.executeSql(`SELECT state FROM pgboss.job WHERE name = $1`, [QUEUES.reassign]);
    expect(rows.map((row) => row.state)).toContain("completed");
  });
});
