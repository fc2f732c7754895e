import { sqlExecutor } from "../../db/client";
import { AppError } from "../../core/errors";
import { encodeKeysetCursor } from "../../core/validation/cursors";
import type { EmailSuppressionWire, SuppressionQuery } from "../../contracts/suppressions";
import { addressHash, type SuppressionReason } from "./suppressions";

// The owners' view of the suppression list (suppressions.ts adds to it): newest first, filtered by
// reason, site and part of the address (a whole address also finds an entry kept only as its hash), paged by a keyset cursor over (created_at, id). Removing an
// entry lets the automatic emails reach the address again (an owner who knows the mailbox works).

// strpos, not LIKE: what the owner types is matched as it is, `_` and `%` included.
const LIST = `
  SELECT "id", "address_key", "reason", "site_id", "created_at"
    FROM "email_suppressions"
   WHERE ($1::text IS NULL OR "reason" = $1)
     AND ($2::text IS NULL OR "site_id" = $2)
     AND ($3::text IS NULL OR strpos("address_key", $3) > 0 OR "address_hash" = $7)
     AND ($4::timestamptz IS NULL OR ("created_at", "id") < ($4::timestamptz, $5::text))
   ORDER BY "created_at" DESC, "id" DESC
   LIMIT $6`;

interface Row {
  id: string;
  address_key: string | null;
  reason: SuppressionReason;
  site_id: string | null;
  created_at: Date | string;
}

export async function listSuppressions(query: SuppressionQuery) {
  const { rows } = await (await sqlExecutor()).executeSql(LIST, [
    query.reason ?? null,
    query.site ?? null,
    query.q?.toLowerCase() ?? null,
    query.cursor?.at ?? null,
    query.cursor?.id ?? null,
    query.limit + 1,
    // A whole address also finds the entries that keep only its hash (retention, pruned links).
    query.q?.includes("@") ? await addressHash(query.q) : null,
  ]);
  const page = (rows as Row[]).slice(0, query.limit).map(
    (row): EmailSuppressionWire => ({
      id: row.id,
      address: row.address_key,
      reason: row.reason,
      site: row.site_id,
      created_at: new Date(row.created_at).toISOString(),
    }),
  );
  const last = page.at(-1);
  return {
    suppressions: page,
    next_cursor: rows.length > query.limit && last ? encodeKeysetCursor({ at: new Date(last.created_at), id: last.id }) : null,
  };
}

export async function removeSuppression(id: string) {
  const { rows } = await (await sqlExecutor()).executeSql(`DELETE FROM "email_suppressions" WHERE "id" = $1 RETURNING "reason"`, [id]);
  const removed = (rows as Pick<Row, "reason">[])[0];
  if (!removed) throw new AppError("not_found", "No suppression has this identifier.");
  return { id, deleted: true as const, reason: removed.reason };
}
