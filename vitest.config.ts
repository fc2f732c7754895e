import path from "node:path";
import { defineConfig } from "vitest/config";

// The PostgreSQL pass (.ci/run's second, TEST_DATABASE_URL set) repeats only what can differ by
// database. These files never open the run's database (pure units, the contract checks, a server of
// their own on an embedded DATA_DIR): the embedded pass ran them, and a second run only costs time.
const databaseFree = [
  "lib/!(members)/**/*.test.ts",
  "tests/contract/**",
  "tests/unit/**",
  "tests/widget-*.test.ts",
  "tests/bench-commit.test.ts",
  "tests/integration/production-server.test.ts",
  "tests/integration/inbound-smtp-limits.test.ts",
  "tests/security/page-headers.test.ts",
];
const onPostgres = Boolean(process.env.TEST_DATABASE_URL);

export default defineConfig({
  resolve: { alias: { "@": path.resolve(import.meta.dirname) } },
  test: {
    include: ["tests/**/*.test.ts", "lib/**/*.test.ts"],
    exclude: ["tests/e2e/**", "node_modules/**", ...(onPostgres ? databaseFree : [])],
    globalSetup: ["tests/support/global-setup.ts"],
    setupFiles: ["tests/support/database-per-file.ts"],
    pool: "forks",
    // Both cores: every file has a database of its own (tests/support/database-per-file.ts).
    maxWorkers: 2,
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
