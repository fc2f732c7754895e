import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from "node:crypto";

// Passwords: scrypt (memory-hard, in node:crypto), N = 2^15, r = 8, p = 1 — 32 MiB per hash, the
// parameters OWASP's Password Storage Cheat Sheet lists for scrypt. Stored as
// `scrypt$N$r$p$<salt base64>$<hash base64>` so the cost can be raised later without a migration.

const COST = { N: 2 ** 15, r: 8, p: 1 };
const KEY_BYTES = 32;
const SALT_BYTES = 16;

function derive(password: string, salt: Buffer, cost: { N: number; r: number; p: number }): Promise<Buffer> {
  const options: ScryptOptions = { ...cost, maxmem: 256 * cost.N * cost.r };
  return new Promise((resolve, reject) =>
    scrypt(password.normalize("NFC"), salt, KEY_BYTES, options, (error, key) => (error ? reject(error) : resolve(key))),
  );
}

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(SALT_BYTES);
  const key = await derive(password, salt, COST);
  return `scrypt$${COST.N}$${COST.r}$${COST.p}$${salt.toString("base64")}$${key.toString("base64")}`;
}

// Verified when the email is unknown, so both failures take the same time.
let decoy: Promise<string> | undefined;

/** Whether `password` matches `stored`; with `stored` null, spends the same time and says no. */
export async function verifyPassword(password: string, stored: string | null): Promise<boolean> {
  const target = stored ?? (await (decoy ??= hashPassword(randomBytes(16).toString("hex"))));
  const [scheme, n, r, p, salt, hash] = target.split("$");
  if (scheme !== "scrypt" || !salt || !hash) return false;
  const expected = Buffer.from(hash, "base64");
  const key = await derive(password, Buffer.from(salt, "base64"), { N: Number(n), r: Number(r), p: Number(p) });
  return stored !== null && key.length === expected.length && timingSafeEqual(key, expected);
}
