import { randomUUID } from "node:crypto";
import { textSignature } from "../../core/signing";
import type { SqlQuery } from "../../db/client";
import { serviceSigningSecret } from "../../secrets/signing-secret";

// The suppression list (docs/notifications.md): addresses the automatic emails (outbox.ts's capped
// kinds) are kept from. An unsubscribe names the site whose emails the visitor left; a hard bounce
// or complaint is about the address, so it holds for every site. An entry names the address, or
// only its keyed hash when it came from the unsubscribe link of an email already pruned
// (pruned-links.ts): drafts are matched by either.

export type SuppressionReason = "unsubscribe" | "hard_bounce" | "complaint";

/** How the list and the caps see an address: `Victim@Example.com ` and `victim@example.com` are one. */
export const addressKey = (address: string) => address.trim().toLowerCase();

/**
 * The address as kept once its emails are pruned: an HMAC under the service's signing secret, so
 * the rows alone do not give it back (unlike a plain hash of a guessable address).
 */
export async function addressHash(address: string): Promise<string> {
  return textSignature(await serviceSigningSecret(), { purpose: "suppressed-address", separator: ":" }, addressKey(address));
}

export type Suppression = ({ address: string } | { addressHash: string }) & {
  reason: SuppressionReason;
  /** Required for `unsubscribe`; ignored (every site) for the others. */
  siteId?: string;
};

// Entries are only ever added one at a time by a visitor or a bounce; a second identical one
// changes nothing, so it is skipped rather than stored twice.
const ADD = `
  INSERT INTO "email_suppressions" ("id", "address_key", "address_hash", "reason", "site_id")
  SELECT $1, $2, $3, $4, $5
   WHERE NOT EXISTS (SELECT 1 FROM "email_suppressions"
                      WHERE ("address_key" = $2 OR "address_hash" = $3) AND "reason" = $4 AND "site_id" IS NOT DISTINCT FROM $5)`;

// Entries older than the logs' retention keep only the address's hash (lib/privacy/retention.ts).
const OLD_ADDRESSES = `
  SELECT "id", "address_key" FROM "email_suppressions"
   WHERE "address_key" IS NOT NULL AND "created_at" < $1 ORDER BY "created_at" LIMIT $2`;
const KEEP_ONLY_HASHES = `
  UPDATE "email_suppressions" AS s SET "address_key" = NULL, "address_hash" = h.hash
    FROM unnest($1::text[], $2::text[]) AS h(id, hash)
   WHERE s."id" = h.id`;

/** One batch: entries listed before `cutoff` trade their address for its keyed hash. Answers how many. */
export async function hashSuppressedAddresses(sql: SqlQuery, cutoff: Date, limit: number): Promise<number> {
  const { rows } = await sql.executeSql(OLD_ADDRESSES, [cutoff, limit]);
  const entries = rows as { id: string; address_key: string }[];
  if (entries.length === 0) return 0;
  const hashes = await Promise.all(entries.map((entry) => addressHash(entry.address_key)));
  await sql.executeSql(KEEP_ONLY_HASHES, [entries.map((entry) => entry.id), hashes]);
  return entries.length;
}

/** Adds the address to the list in the caller's transaction (nothing when it is there already). */
export async function addSuppression(sql: SqlQuery, suppression: Suppression): Promise<void> {
  const siteId = suppression.reason === "unsubscribe" ? (suppression.siteId ?? null) : null;
  if (suppression.reason === "unsubscribe" && siteId === null) throw new Error("An unsubscribe names its site");
  // An address is listed with its hash too: an entry already known only by the hash is then found,
  // and retention can later drop the address and keep the hash.
  const [key, hash] = "address" in suppression ? [addressKey(suppression.address), await addressHash(suppression.address)] : [null, suppression.addressHash];
  await sql.executeSql(ADD, [`sup_${randomUUID()}`, key, hash, suppression.reason, siteId]);
}
