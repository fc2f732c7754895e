import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from "node:crypto";
import { AppError } from "../core/errors";
import { WorkGate, WorkGateFull } from "./work-gate";
import { processSingleton } from "../core/process-registry.mjs";

// Passwords: scrypt (memory-hard, in node:crypto), N = 2^15, r = 8, p = 1 — 32 MiB per hash, the
// parameters OWASP's Password Storage Cheat Sheet lists for scrypt. Stored as
// `scrypt$N$r$p$<salt base64>$<hash base64>` so the cost can be raised later without a migration.

const COST = { N: 2 ** 15, r: 8, p: 1 };
const KEY_BYTES = 32;
const SALT_BYTES = 16;

// Each hash takes ~100 ms of a libuv thread and 32 MiB, so concurrent hashing is capped for the
// whole process: as many running as libuv has threads by default (4: 128 MiB at most), a short
// queue (16: under half a second of waiting), and beyond it 503 at once. Sign-ins of one account
// from one IP are already one at a time (sign-in.ts); this bounds many accounts or many IPs.
export const passwordWork = processSingleton("password work", () => new WorkGate({ running: 4, queued: 16 }));

const BUSY_RETRY_AFTER_SECONDS = 1;

async function derive(password: string, salt: Buffer, cost: { N: number; r: number; p: number }): Promise<Buffer> {
  const options: ScryptOptions = { ...cost, maxmem: 256 * cost.N * cost.r };
  try {
    return await passwordWork.run(
      () =>
        new Promise<Buffer>((resolve, reject) =>
          scrypt(password.normalize("NFC"), salt, KEY_BYTES, options, (error, key) => (error ? reject(error) : resolve(key))),
        ),
    );
  } catch (error) {
    if (!(error instanceof WorkGateFull)) throw error;
    throw new AppError("service_unavailable", "Too many passwords are being checked right now. Please try again in a moment.", {
      retryAfter: BUSY_RETRY_AFTER_SECONDS,
    });
  }
}

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(SALT_BYTES);
  const key = await derive(password, salt, COST);
  return `scrypt$${COST.N}$${COST.r}$${COST.p}$${salt.toString("base64")}$${key.toString("base64")}`;
}

// Verified when the email is unknown, so both failures take the same time.
let decoy: Promise<string> | undefined;

function decoyHash(): Promise<string> {
  // Made once; a failed attempt (e.g. hashing busy: 503) is not kept, the next one tries again.
  decoy ??= hashPassword(randomBytes(16).toString("hex")).catch((error: unknown) => {
    decoy = undefined;
    throw error;
  });
  return decoy;
}

/** Whether `password` matches `stored`; with `stored` null, spends the same time and says no. */
export async function verifyPassword(password: string, stored: string | null): Promise<boolean> {
  const target = stored ?? (await decoyHash());
  const [scheme, n, r, p, salt, hash] = target.split("$");
  if (scheme !== "scrypt" || !salt || !hash) return false;
  const expected = Buffer.from(hash, "base64");
  const key = await derive(password, Buffer.from(salt, "base64"), { N: Number(n), r: Number(r), p: Number(p) });
  return stored !== null && key.length === expected.length && timingSafeEqual(key, expected);
}
