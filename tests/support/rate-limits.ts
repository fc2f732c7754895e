import { randomInt } from "node:crypto";

// Helpers for the rate-limit tests, which run behind one trusted proxy (TRUSTED_PROXY_HOPS=1).

export const randomIp = () => `10.${randomInt(256)}.${randomInt(256)}.${randomInt(1, 255)}`;

/** As the trusted proxy forwards it: whatever the client wrote, then the address the proxy saw. */
export const forwardedFor = (ip: string, clientWritten?: string) => ({
  "X-Forwarded-For": clientWritten ? `${clientWritten}, ${ip}` : ip,
});

/**
 * Sliding windows weigh the previous fixed window by how much of it still overlaps, so a burst
 * that straddles a window edge is counted differently. Tests start their bursts clear of an edge.
 */
export async function awayFromWindowEdge(windowMs = 60_000, marginMs = 3_000): Promise<void> {
  const intoWindow = Date.now() % windowMs;
  if (intoWindow > windowMs - marginMs) await new Promise((resolve) => setTimeout(resolve, windowMs - intoWindow + 50));
}
