// npm run secrets:rotate: seals every stored secret again under the current key (docs/security.md).
// Embedded mode: run it while the service is stopped (one process owns DATA_DIR).
import { closeDatabase } from "../lib/db/client";
import { rotateSecrets } from "../lib/secrets/rotate";

try {
  const { source, keyId, sealed, resealed, unreadable } = await rotateSecrets();
  console.log(`Secrets are sealed under key ${keyId} (${source}): ${resealed} re-sealed, ${sealed} sealed for the first time.`);
  for (const { table, column, id } of unreadable) console.log(`Could not open ${table}.${column} of row ${id} (altered, or its key is missing): left as it was.`);
  if (unreadable.length > 0) process.exitCode = 1;
  if (source === "SECRET_KEY") console.log("Once every instance runs with this SECRET_KEY, remove SECRET_KEYS_OLD (and any DATA_DIR/secret.key).");
} finally {
  await closeDatabase();
}
