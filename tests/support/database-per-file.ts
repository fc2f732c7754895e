import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll } from "vitest";
import { closeDatabase } from "../../lib/db/client";
import { flushed } from "../../lib/realtime/coalesced-notify";
import { stopListening } from "../../lib/realtime/message-signals";
import { databaseName, databaseUrlFor, onServer, testDatabaseUrl } from "./postgres";

// Each test file gets a database of its own: an in-memory PGlite, or on PostgreSQL a fresh
// database cloned from the migrated template. Files can then count rows without seeing others'.

export const TEST_ADMIN_TOKEN = "test-admin-token-0123456789abcdef";
process.env.ADMIN_TOKEN = TEST_ADMIN_TOKEN;
export const TEST_SECRET_KEY = "test-secret-key-0123456789abcdefghijklmnop";
process.env.LOG_LEVEL ??= "silent";
// Most files send far more than a visitor would; the rate-limit tests turn limits on themselves.
process.env.RATE_LIMITS ??= "off";
// Uploaded files go to a folder of this file's own, removed afterwards.
const uploadsDir = mkdtempSync(path.join(tmpdir(), "parley-test-uploads-"));
process.env.UPLOADS_DIR ??= uploadsDir;

const template = testDatabaseUrl();
let fileDatabase: string | undefined;

if (template) {
  fileDatabase = `parley_test_${randomBytes(6).toString("hex")}`;
  await onServer(template, `CREATE DATABASE "${fileDatabase}" TEMPLATE "${databaseName(template)}"`);
  process.env.DATABASE_URL = databaseUrlFor(template, fileDatabase);
  // Sealed secrets (lib/secrets/): a key of the suite's own, not a key file in the working copy.
  process.env.SECRET_KEY ??= TEST_SECRET_KEY;
} else {
  delete process.env.DATABASE_URL;
  process.env.DATA_DIR = "memory://";
}

afterAll(async () => {
  // A send's NOTIFY goes after its commit (lib/realtime/coalesced-notify.ts): sent before the
  // database closes and is dropped, as a shutdown waits for it.
  await flushed();
  await stopListening();
  await closeDatabase();
  rmSync(uploadsDir, { recursive: true, force: true });
  if (template && fileDatabase) await onServer(template, `DROP DATABASE IF EXISTS "${fileDatabase}" WITH (FORCE)`);
});
