// npm run db:migrate: applies pending migrations (and, in embedded mode, the demo seed).
import { closeDatabase } from "../lib/db";
import { prepareService } from "../lib/prepare-service";

try {
  await prepareService();
  console.log("Database is up to date.");
} finally {
  await closeDatabase();
}
