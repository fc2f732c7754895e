// npm run backup [-- archive.tar.gz]: the embedded database, uploads and key file in one archive
// (lib/backup/embedded-backup.ts). Run it with the service stopped.
import { backupEmbedded } from "../lib/backup/embedded-backup";
import { configuredEmbeddedPaths } from "../lib/backup/embedded-paths";

const archive = process.argv[2] ?? `parley-backup-${new Date().toISOString().replace(/[:.]/g, "-")}.tar.gz`;
const manifest = await backupEmbedded(configuredEmbeddedPaths(), archive);
console.log(`Backed up to ${archive} (database${manifest.uploads ? ", uploads" : ""}${manifest.key_file ? ", key file" : ""}). It holds the key: keep it as safe as DATA_DIR.`);
