import { randomBytes } from "node:crypto";
import { readFileSync, renameSync, writeFileSync } from "node:fs";
import path from "node:path";

// Without SECRET_KEY the sealing key lives in DATA_DIR/secret.key, one key per line, the first one
// current (later lines: older keys, kept while `npm run secrets:rotate` re-seals). Created on first
// use with mode 0600, exclusively, so two processes starting at once end with one key.

export const KEY_FILE_NAME = "secret.key";

export const keyFilePath = (dataDir: string) => path.resolve(dataDir, KEY_FILE_NAME);

export const newKey = () => randomBytes(32).toString("base64url");

/** The file's keys, current first; null when there is no file. */
export function readKeyFile(file: string): string[] | null {
  try {
    return readFileSync(file, "utf8").split("\n").map((line) => line.trim()).filter(Boolean);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw error;
  }
}

/** The file's keys, creating the file with one new key when there is none. */
export function readOrCreateKeyFile(file: string): string[] {
  try {
    writeFileSync(file, `${newKey()}\n`, { mode: 0o600, flag: "wx" });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
  }
  const keys = readKeyFile(file);
  if (!keys?.length) throw new Error(`The key file ${file} holds no key: restore it from a backup, or set SECRET_KEY.`);
  return keys;
}

/** Replaces the file's keys at once (a rename: a crash leaves the old file or the new one, never half). */
export function writeKeyFile(file: string, keys: string[]): void {
  const next = `${file}.next`;
  writeFileSync(next, keys.map((key) => `${key}\n`).join(""), { mode: 0o600 });
  renameSync(next, file);
}
