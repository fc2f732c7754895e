// npm run backup [-- archive.tar.gz] / npm run restore -- archive.tar.gz: embedded mode's database,
// uploads and key file in one archive, and back into an empty DATA_DIR (lib/backup/embedded-backup.ts).
// Run both with the service stopped.
import { backupEmbedded, restoreEmbedded } from "../lib/backup/embedded-backup";
import { configuredEmbeddedPaths } from "../lib/backup/embedded-paths";

const [command, archive] = process.argv.slice(2);

async function run(): Promise<string> {
  if (command === "backup") {
    const file = archive ?? `parley-backup-${new Date().toISOString().replace(/[:.]/g, "-")}.tar.gz`;
    const manifest = await backupEmbedded(configuredEmbeddedPaths(), file);
    const parts = ["database", ...(manifest.uploads ? ["uploads"] : []), ...(manifest.key_file ? ["key file"] : [])];
    return `Backed up to ${file} (${parts.join(", ")}).${manifest.key_file ? " It holds the key: keep it as safe as DATA_DIR." : ""}`;
  }
  if (command === "restore" && archive) {
    const manifest = await restoreEmbedded(archive, configuredEmbeddedPaths());
    return `Restored the backup of ${manifest.created_at}.${manifest.key_file ? "" : " It holds no key file: start with the SECRET_KEY it was made with."}`;
  }
  throw new Error("Usage: npm run backup [-- <archive.tar.gz>], npm run restore -- <archive.tar.gz>");
}

try {
  console.log(await run());
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
}
