import { after } from "next/server";
import { log } from "../core/log";
import { holdShutdownFor } from "../core/lifecycle.mjs";

/**
 * Runs `task` once the response is sent (Next's `after()`, which keeps serverless functions alive
 * for it). Outside a Next request — tests, scripts, benchmarks, the front's hot routes — `after()`
 * throws; the task then runs detached instead. Either way a graceful shutdown waits for it.
 */
export function afterResponse(task: () => Promise<void>): void {
  const held = () => {
    const running = task();
    holdShutdownFor(running);
    return running;
  };
  try {
    after(held);
  } catch {
    held().catch((error: unknown) => log.warn("after_response_task_failed", { error }));
  }
}
