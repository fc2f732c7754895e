// @ts-check
import v8 from "node:v8";

// V8 lets the old generation grow to up to four times what survived the last full collection.
// An instance holding thousands of long-polls keeps most of its heap alive for their 25 s (about
// 15 KB each), so that headroom is mostly garbage waiting: at 16,700 open widgets one instance
// reached 892 MiB RSS, against 626 MiB with growth held to 30 % (docs/performance.md, step 24).
// Held growth means more frequent full collections, which cost the hot routes when few requests
// are held (idle poll 5–10 % slower), so the front switches it on by the requests in flight.

export const COMPACT_ABOVE = 4_000;
export const RELAXED_BELOW = 2_000;
export const COMPACT_GROWTH_PERCENT = 30;

/**
 * @param {(flags: string) => void} [setFlags]  V8's, or a test's
 * @returns {(requestsInFlight: number) => void}  to call whenever the number changes
 */
export function heapPolicy(setFlags = v8.setFlagsFromString) {
  let compact = false;
  return (requestsInFlight) => {
    if (!compact && requestsInFlight > COMPACT_ABOVE) {
      compact = true;
      setFlags(`--heap-growing-percent=${COMPACT_GROWTH_PERCENT}`);
    } else if (compact && requestsInFlight < RELAXED_BELOW) {
      compact = false;
      setFlags("--heap-growing-percent=0"); // 0: V8's own growth policy
    }
  };
}
