// The allowance draw as SQL text, shared by the Prisma path (tickets, lib/allowance/daily-allowance.ts)
// and the one-statement conversation start (lib/conversations/statements.ts). No imports: the bench's
// baseline loads the hot statements too.

/**
 * Draws `units` units (placeholders such as `$3`, or a literal) of inbox `inbox`'s allowance for
 * UTC day `day`: all of them or none. Returns the new `used`, or no row when they do not all fit.
 * The INSERT path reads the allowance too, so an allowance of 0 refuses the day's first draw. On
 * a conflict the row is locked and the WHERE re-checked against its latest committed value, so
 * no interleaving of concurrent draws can overdraw.
 */
export const drawAllowanceSql = (inbox: string, day: string, units: string) => `
  INSERT INTO inbox_daily_usage (inbox_id, day, used)
  SELECT id, ${day}::date, ${units} FROM inboxes WHERE id = ${inbox} AND daily_allowance >= ${units}
  ON CONFLICT (inbox_id, day) DO UPDATE SET used = inbox_daily_usage.used + EXCLUDED.used
  WHERE inbox_daily_usage.used + EXCLUDED.used <= (SELECT daily_allowance FROM inboxes WHERE id = EXCLUDED.inbox_id)
  RETURNING used`;
