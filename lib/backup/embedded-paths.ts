import { env, isEmbeddedDatabase } from "../core/env";
import { uploadsDir } from "../uploads/local-storage";
import type { EmbeddedPaths } from "./embedded-backup";

/** This configuration's DATA_DIR and uploads folder, for `npm run backup` / `npm run restore`. */
export function configuredEmbeddedPaths(): EmbeddedPaths {
  const { DATA_DIR, S3_BUCKET } = env();
  if (!isEmbeddedDatabase()) throw new Error("DATABASE_URL is set: back up PostgreSQL with pg_dump and restore with pg_restore (docs/deploy.md, Backups).");
  if (DATA_DIR.startsWith("memory://")) throw new Error("DATA_DIR=memory:// keeps nothing to back up.");
  return { dataDir: DATA_DIR, uploadsDir: S3_BUCKET ? null : uploadsDir() };
}
