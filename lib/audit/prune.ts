import { sqlExecutor } from "../db/client";
import { paced } from "../core/paced";

// Retention of the audit log: the one way its rows are deleted. The table's trigger (migration
// 20261128030000) lets a DELETE through only inside a transaction that set `parley.audit_prune` to
// `on` and names in `parley.audit_keep_days` how many days are kept, and only for rows older than
// that; both settings are transaction-local. Deletes run in batches so no lock is held for long;
// the daily retention (lib/privacy/retention.ts) calls it with AUDIT_RETENTION_DAYS.

/** Deletes rows older than `keepDays` days (at least 1), `batch` per transaction; answers how many were deleted. */
export async function pruneAuditEvents(keepDays: number, batch = 500): Promise<number> {
  if (!Number.isInteger(keepDays) || keepDays < 1) throw new RangeError("keepDays must be a whole number of days, at least 1");
  const sql = await sqlExecutor();
  let deleted = 0;
  for (;;) {
    const count = await paced(() => sql.transaction(async (tx) => {
      await tx.executeSql(`SELECT set_config('parley.audit_prune', 'on', true), set_config('parley.audit_keep_days', $1, true)`, [String(keepDays)]);
      const { rowCount } = await tx.executeSql(
        `DELETE FROM audit_events WHERE id IN (
           SELECT id FROM audit_events WHERE at < now() - make_interval(days => $1::int) ORDER BY at LIMIT $2::int)`,
        [keepDays, batch],
      );
      return rowCount;
    }));
    deleted += count;
    if (count < batch) return deleted;
  }
}
