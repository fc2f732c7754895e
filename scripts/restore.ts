// npm run restore -- archive.tar.gz: restores `npm run backup`'s archive into an empty DATA_DIR
// (lib/backup/embedded-backup.ts). Run it with the service stopped.
import { restoreEmbedded } from "../lib/backup/embedded-backup";
import { configuredEmbeddedPaths } from "../lib/backup/embedded-paths";

const archive = process.argv[2];
if (!archive) {
  console.error("Usage: npm run restore -- <archive.tar.gz>");
  process.exit(1);
}
const manifest = await restoreEmbedded(archive, configuredEmbeddedPaths());
console.log(`Restored the backup of ${manifest.created_at}.${manifest.key_file ? "" : " It holds no key file: start with the SECRET_KEY it was made with."}`);
