import { randomUUID } from "node:crypto";
import type { SqlQuery } from "../db/client";

// The suppression list (docs/notifications.md): addresses the automatic emails (outbox.ts's capped
// kinds) are kept from. An unsubscribe names the site whose emails the visitor left; a hard bounce
// or complaint is about the address, so it holds for every site.

export type SuppressionReason = "unsubscribe" | "hard_bounce" | "complaint";

export interface Suppression {
  address: string;
  reason: SuppressionReason;
  /** Required for `unsubscribe`; ignored (every site) for the others. */
  siteId?: string;
}

// Entries are only ever added one at a time by a visitor or a bounce; a second identical one
// changes nothing, so it is skipped rather than stored twice.
const ADD = `
  INSERT INTO "email_suppressions" ("id", "address_key", "reason", "site_id")
  SELECT $1, $2, $3, $4
   WHERE NOT EXISTS (SELECT 1 FROM "email_suppressions"
                      WHERE "address_key" = $2 AND "reason" = $3 AND "site_id" IS NOT DISTINCT FROM $4)`;

/** Adds the address to the list in the caller's transaction (nothing when it is there already). */
export async function addSuppression(sql: SqlQuery, suppression: Suppression): Promise<void> {
  const siteId = suppression.reason === "unsubscribe" ? (suppression.siteId ?? null) : null;
  if (suppression.reason === "unsubscribe" && siteId === null) throw new Error("An unsubscribe names its site");
  await sql.executeSql(ADD, [`sup_${randomUUID()}`, suppression.address.trim().toLowerCase(), suppression.reason, siteId]);
}
