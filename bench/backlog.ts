import { setTimeout as sleep } from "node:timers/promises";
import pg from "pg";

// What the service still owes after a turn of sends (the work it does after answering): the
// outbox's undispatched events, the rules' queued jobs, and (with an SLA policy) the conversations
// the sends marked for the SLA sweep. `settle` waits until all three are empty, so that work is
// charged to the service's turn (its CPU time is counted) and never falls in the baseline's.

const OWED = `SELECT (SELECT count(*) FROM notification_events)
                   + (SELECT count(*) FROM pgboss.job WHERE name = 'conversation-rules' AND state IN ('created', 'retry', 'active'))
                   + (SELECT count(*) FROM sla_stale_conversations) AS owed`;

/** A client kept for the run's polls; `settle()` answers how long it waited (ms). */
export async function backlogWatch(url: string, { pollMs = 50, timeoutMs = 60_000 } = {}) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const owed = async () => Number((await client.query<{ owed: string }>(OWED)).rows[0]!.owed);
  return {
    owed,
    /** Waits at most `timeoutMs`: a backlog still there then is left in the log (and in the figures' time), not thrown. */
    async settle(): Promise<number> {
      const started = performance.now();
      for (let left = await owed(); left > 0; left = await owed()) {
        if (performance.now() - started > timeoutMs) {
          console.warn(`the service's backlog did not drain within ${timeoutMs} ms (${left} left)`);
          break;
        }
        await sleep(pollMs);
      }
      return performance.now() - started;
    },
    close: () => client.end(),
  };
}
