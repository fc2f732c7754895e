// npm run db:migrate: applies pending migrations (and, in embedded mode, the demo seed). On Vercel
// this is the release step (`npm run vercel-build`): functions there never migrate at a cold start.
import { closeDatabase, migratePostgres } from "../lib/db/client";
import { directDatabaseUrl } from "../lib/core/env";
import { prepareService } from "../lib/prepare-service";

try {
  const direct = directDatabaseUrl();
  if (direct) await migratePostgres(direct);
  await prepareService();
  console.log("Database is up to date.");
} finally {
  await closeDatabase();
}
