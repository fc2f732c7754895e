// @ts-check
import { randomBytes, timingSafeEqual } from "node:crypto";
import { processSingleton } from "./process-registry.mjs";

// How the front of `npm start` tells the route handlers which TCP peer sent a request (the key
// of per-IP rate limits, lib/rate-limits/client-ip.ts). A handler never sees the socket, so the
// front writes the peer into a private header, after deleting any copy a client sent, together
// with a secret made at random when the process starts. A handler believes the header only when
// the secret matches: a client talking straight to `next start` (no front, so no secret in the
// process) or guessing cannot forge it. The front and the handlers run in one process and share
// the secret through the process registry (Next bundles this module into the routes as a second copy).

export const PEER_HEADER = "x-parley-peer";

/** @type {{ secret?: string }} */
const front = processSingleton("front peer secret", () => ({}));

/** Called once by the front, before Next starts. */
export function installFrontSecret() {
  return (front.secret ??= randomBytes(32).toString("base64url"));
}

/** Whether a front serves this process (so every request carries its peer header). */
export function behindFront() {
  return typeof front.secret === "string";
}

/**
 * @param {string} secret
 * @param {string} address
 */
export const peerHeaderValue = (secret, address) => `${secret} ${address}`;

/**
 * The peer address the front wrote, or undefined when the header is absent, forged or no front
 * runs in this process.
 * @param {string | null | undefined} value
 * @returns {string | undefined}
 */
export function trustedPeer(value) {
  const secret = front.secret;
  if (!secret || !value) return undefined;
  const space = value.indexOf(" ");
  if (space === -1) return undefined;
  const given = Buffer.from(value.slice(0, space));
  const expected = Buffer.from(secret);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
  return value.slice(space + 1) || undefined;
}
