import { createHash, timingSafeEqual } from "node:crypto";

// Bearer credentials compared without leaking where they differ: both sides are hashed first, so
// the comparison takes the same time whatever the lengths (the operator token, the cron secret).

const BEARER = /^Bearer ([^\s]+)$/;

export const sha256 = (value: string): Buffer => createHash("sha256").update(value).digest();

/** The credential of an `Authorization: Bearer <credential>` header, or null. */
export const bearerOf = (authorization: string | null): string | null => authorization?.match(BEARER)?.[1] ?? null;

/** Whether the header presents the credential whose SHA-256 is `expected` (constant time). */
export function bearerMatches(authorization: string | null, expected: Buffer): boolean {
  const presented = bearerOf(authorization);
  return presented !== null && timingSafeEqual(sha256(presented), expected);
}
