// npm run db:migrate: applies pending migrations (and, in embedded mode, the demo seed). On Vercel
// this is the release step (`npm run vercel-build`): functions there never migrate at a cold start.
import { closeDatabase, migratePostgres } from "../lib/db";
import { env } from "../lib/env";
import { prepareService } from "../lib/prepare-service";

try {
  const { DATABASE_URL } = env();
  if (DATABASE_URL) await migratePostgres(DATABASE_URL);
  await prepareService();
  console.log("Database is up to date.");
} finally {
  await closeDatabase();
}
