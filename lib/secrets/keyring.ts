import { createHash, hkdfSync, randomBytes } from "node:crypto";
import { mkdirSync } from "node:fs";
import { env } from "../core/env";
import { keyFilePath, readKeyFile, readOrCreateKeyFile } from "./key-file";

// The keys that seal secrets at rest. Each configured key (any string of 32+ characters: SECRET_KEY,
// SECRET_KEYS_OLD, the lines of the key file) is stretched by HKDF-SHA256 into an AES-256 key; its
// key id is a short fingerprint of that key, so a sealed value names the key that opens it and keys
// rotate without anyone naming them.

export interface SealingKey {
  id: string;
  key: Buffer;
}

export interface Keyring {
  current: SealingKey;
  byId: ReadonlyMap<string, SealingKey>;
}

function sealingKey(secret: string): SealingKey {
  const key = Buffer.from(hkdfSync("sha256", secret, "", "parley sealed secrets v1", 32));
  const id = createHash("sha256").update("parley key id\0").update(key).digest("base64url").slice(0, 10);
  return { id, key };
}

/** A keyring from configured keys, the first one current. */
export function keyringFrom([current, ...older]: [string, ...string[]]): Keyring {
  const keys = [current, ...older].map(sealingKey);
  return { current: keys[0]!, byId: new Map(keys.map((key) => [key.id, key])) };
}

/** Where the process's keys come from: SECRET_KEY, or the key file under DATA_DIR, or (DATA_DIR=memory://) memory. */
export type KeySource = "SECRET_KEY" | "key file" | "memory";

function configuredKeys(): { keys: [string, ...string[]]; source: KeySource } {
  const { SECRET_KEY, SECRET_KEYS_OLD, DATA_DIR } = env();
  const inMemory = DATA_DIR.startsWith("memory://");
  if (SECRET_KEY) {
    // A key file left from before SECRET_KEY was set still opens what it sealed.
    const fromFile = inMemory ? [] : (readKeyFile(keyFilePath(DATA_DIR)) ?? []);
    return { keys: [SECRET_KEY, ...SECRET_KEYS_OLD, ...fromFile], source: "SECRET_KEY" };
  }
  if (inMemory) return { keys: [memoryKey, ...SECRET_KEYS_OLD], source: "memory" };
  mkdirSync(DATA_DIR, { recursive: true, mode: 0o700 }); // docs/security.md, "The data directory"
  const [current, ...older] = readOrCreateKeyFile(keyFilePath(DATA_DIR));
  return { keys: [current!, ...older, ...SECRET_KEYS_OLD], source: "key file" };
}

// An in-memory database outlives no process; neither does its key.
const memoryKey = randomBytes(32).toString("base64url");

let loaded: { keyring: Keyring; source: KeySource } | undefined;

function load() {
  if (!loaded) {
    const { keys, source } = configuredKeys();
    loaded = { keyring: keyringFrom(keys), source };
  }
  return loaded;
}

/** The process's keyring, read once (the key file is created on first use). */
export const keyring = (): Keyring => load().keyring;

export const keySource = (): KeySource => load().source;

/** Reads the keys again: after `npm run secrets:rotate` has written a new key file. */
export function reloadKeyring(): Keyring {
  loaded = undefined;
  return keyring();
}
