import { performance } from "node:perf_hooks";
import { setTimeout as sleep } from "node:timers/promises";

// Background batches (the daily retention) share the database with the service. Deleting as
// fast as one connection can took 60 % of the sends a 2-core machine served (bench/retention.ts,
// docs/security.md): after each batch the work rests for REST_RATIO times as long as the batch
// took, so it holds one connection a quarter of the time and the service keeps the rest.

export const REST_RATIO = 3;

/** Runs one batch, then rests `restRatio` times its duration; answers the batch's result. */
export async function paced<T>(batch: () => Promise<T>, restRatio = REST_RATIO): Promise<T> {
  const started = performance.now();
  const result = await batch();
  await sleep((performance.now() - started) * restRatio);
  return result;
}
