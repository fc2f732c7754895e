// npx tsx scripts/measure-cycles.ts: measures every conversation marked stale (docs/reports.md,
// "Precomputed"), e.g. the backfill that migration 20261129030000 marks on a large workspace,
// so the first report after the upgrade does not do it. Safe while the service runs.
import { closeDatabase } from "../lib/db/client";
import { measureStaleConversations } from "../lib/reports/cycles";

try {
  const measured = await measureStaleConversations((done) => process.stdout.write(`\rmeasured ${done.toLocaleString("en")} conversations`));
  console.log(`\nDone: ${measured.toLocaleString("en")} conversations measured; the reports read their cycles.`);
} finally {
  await closeDatabase();
}
