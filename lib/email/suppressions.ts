import { createHmac, randomUUID } from "node:crypto";
import type { SqlQuery } from "../db/client";
import { uploadSigningSecret } from "../uploads/signing-secret";

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
  return createHmac("sha256", await uploadSigningSecret()).update(`suppressed-address:${addressKey(address)}`).digest("base64url");
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

/** Adds the address to the list in the caller's transaction (nothing when it is there already). */
export async function addSuppression(sql: SqlQuery, suppression: Suppression): Promise<void> {
  const siteId = suppression.reason === "unsubscribe" ? (suppression.siteId ?? null) : null;
  if (suppression.reason === "unsubscribe" && siteId === null) throw new Error("An unsubscribe names its site");
  const [key, hash] = "address" in suppression ? [addressKey(suppression.address), null] : [null, suppression.addressHash];
  await sql.executeSql(ADD, [`sup_${randomUUID()}`, key, hash, suppression.reason, siteId]);
}
