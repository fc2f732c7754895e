import { after } from "next/server";
import { log } from "../log";

/**
 * Runs `task` once the response is sent (Next's `after()`, which keeps serverless functions alive
 * for it). Outside a Next request — tests, scripts, benchmarks — `after()` throws; the task then
 * runs detached instead.
 */
export function afterResponse(task: () => Promise<void>): void {
  try {
    after(task);
  } catch {
    task().catch((error: unknown) => log.warn("after_response_task_failed", { error }));
  }
}
