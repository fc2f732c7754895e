import { defineConfig } from "prisma/config";

// Migrations are plain SQL files applied by scripts/migrate.ts (see lib/migrations), so the
// CLI is only used for `prisma generate`, which needs no connection.
export default defineConfig({
  schema: "prisma/schema.prisma",
  migrations: { path: "prisma/migrations" },
});
