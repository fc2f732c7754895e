import { onVercel } from "../core/env";
import { afterResponse } from "../http/after-response";
import { requestDeliveryRound } from "../notifications/round";

// Serverless only (Vercel): no long-lived worker runs there, so a request that may have written
// outbox events (any successful state change) runs one delivery round after its response, kept
// alive by Next's after() (Vercel's waitUntil). Elsewhere the worker's loops deliver, and nothing
// is added to the request: `npm start`'s front calls the pipelines directly and never comes here
// (lib/runtime/README.md).

const READS = new Set(["GET", "HEAD", "OPTIONS"]);

export function deliverAfterResponse(method: string, status: number): void {
  if (READS.has(method) || status >= 400 || !onVercel()) return;
  afterResponse(requestDeliveryRound);
}
