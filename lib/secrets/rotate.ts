import { env } from "../core/env";
import { keyFilePath, newKey, readOrCreateKeyFile, writeKeyFile } from "./key-file";
import { keySource, reloadKeyring, type KeySource } from "./keyring";
import { resealSecrets, type ResealCounts } from "./reseal";

// `npm run secrets:rotate`: every sealed secret is sealed again under the current key.
// - With SECRET_KEY: the current key is SECRET_KEY; the old one must still be configured (in
//   SECRET_KEYS_OLD, or the key file it replaces) for this to open what it sealed.
// - With the key file: a new key is written to the front of the file, everything is re-sealed
//   under it, then the old keys are dropped from the file.

export interface Rotation extends ResealCounts {
  source: KeySource;
  keyId: string;
}

export async function rotateSecrets(): Promise<Rotation> {
  const source = keySource();
  if (source !== "key file") {
    const counts = await resealSecrets({ rotate: true });
    return { source, keyId: reloadKeyring().current.id, ...counts };
  }
  const file = keyFilePath(env().DATA_DIR);
  const key = newKey();
  writeKeyFile(file, [key, ...readOrCreateKeyFile(file)]);
  const keyring = reloadKeyring();
  const counts = await resealSecrets({ rotate: true }, keyring);
  writeKeyFile(file, [key]);
  reloadKeyring();
  return { source, keyId: keyring.current.id, ...counts };
}
