// @ts-check
import v8 from "node:v8";

// V8 lets the old generation grow to up to four times what survived the last full collection.
// An instance holding thousands of long-polls keeps most of its heap alive for their 25 s (about
// 15 KB each), so that headroom is mostly garbage waiting: at 16,700 open widgets one instance
// reached 892 MiB RSS, against 626 MiB with growth held to 30 % (docs/performance.md, step 24).
// Held growth means more frequent full collections, which cost the hot routes when few requests
// are held (idle poll 5–10 % slower), so the front switches it on by the requests in flight.

/**
 * V8 flags for the server process, set once at its start before the app loads (scripts/start.mjs).
 *
 * Allocation-site pretenuring off: V8 watches how many objects from each allocation site survive
 * young-generation collections and, past a threshold, allocates that site's objects straight into
 * the old generation. A server holding requests (long-polls, a warm-up burst) trips it for the
 * sites of its request pipeline — the session read from a row, the answer's headers — whose
 * objects then fill the old generation for the rest of the process's life although nearly all of
 * them die with their request a few milliseconds later. Measured on the idle poll: 1.0 MB promoted
 * per scavenge and 70 µs of CPU per request with it, 0.3 MB and 55–61 µs without
 * (docs/performance.md, step 29).
 * @param {(flags: string) => void} [setFlags]  V8's, or a test's
 */
export function configureHeap(setFlags = v8.setFlagsFromString) {
  setFlags("--no-allocation-site-pretenuring");
}

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
