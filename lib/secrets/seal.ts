import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";
import { log } from "../core/log";
import { keyring as processKeyring, type Keyring } from "./keyring";

// A secret the service keeps to use later (it signs with it, so it cannot be hashed) is stored
// sealed: AES-256-GCM under the current key, as `sealed:v1:<key id>:<iv>:<ciphertext+tag>`
// (base64url). The additional data names the value's place — table, column and row — so a sealed
// value copied into another row, or another column, does not open. Opening costs microseconds: no
// plaintext is cached.

const PREFIX = "sealed:v1:";
const IV_BYTES = 12;
const TAG_BYTES = 16;

/** Where a sealed value lives: its table, its column, and its row's key. */
export interface SecretPlace {
  table: string;
  column: string;
  id: string;
}

export class SealedSecretError extends Error {
  constructor(
    readonly place: SecretPlace,
    readonly reason: "unknown_key" | "unreadable",
    keyId?: string,
  ) {
    super(
      reason === "unknown_key"
        ? `${describe(place)} was sealed with key id ${keyId}, which this process does not hold: set SECRET_KEY (or SECRET_KEYS_OLD) to that key, or restore its key file.`
        : `${describe(place)} cannot be opened: it was altered, or copied from another place.`,
    );
  }
}

const describe = ({ table, column, id }: SecretPlace) => `The sealed ${table}.${column} of row ${id}`;
const additionalData = ({ table, column, id }: SecretPlace) => Buffer.from(`parley v1\0${table}\0${column}\0${id}`, "utf8");

export const isSealed = (stored: string) => stored.startsWith(PREFIX);

/** Whether the value is sealed under the keyring's current key (nothing to re-seal). */
export const isSealedUnder = (stored: string, keyring: Keyring = processKeyring()) => stored.startsWith(`${PREFIX}${keyring.current.id}:`);

export function sealSecret(plaintext: string, place: SecretPlace, keyring: Keyring = processKeyring()): string {
  const { id, key } = keyring.current;
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv("aes-256-gcm", key, iv).setAAD(additionalData(place));
  const sealed = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final(), cipher.getAuthTag()]);
  return `${PREFIX}${id}:${iv.toString("base64url")}:${sealed.toString("base64url")}`;
}

/**
 * The secret a stored value holds. A value without the prefix is one stored before sealing existed
 * (the start re-seals those: lib/secrets/reseal.ts) and is returned as it is. Throws
 * SealedSecretError when the key is unknown or the value does not open.
 */
export function openSecret(stored: string, place: SecretPlace, keyring: Keyring = processKeyring()): string {
  if (!isSealed(stored)) return stored;
  const [keyId = "", iv = "", sealed = ""] = stored.slice(PREFIX.length).split(":");
  const key = keyring.byId.get(keyId);
  if (!key) throw new SealedSecretError(place, "unknown_key", keyId);
  const ivBytes = Buffer.from(iv, "base64url");
  const bytes = Buffer.from(sealed, "base64url");
  if (ivBytes.length !== IV_BYTES || bytes.length < TAG_BYTES) throw new SealedSecretError(place, "unreadable");
  try {
    const decipher = createDecipheriv("aes-256-gcm", key.key, ivBytes).setAAD(additionalData(place));
    decipher.setAuthTag(bytes.subarray(bytes.length - TAG_BYTES));
    return Buffer.concat([decipher.update(bytes.subarray(0, bytes.length - TAG_BYTES)), decipher.final()]).toString("utf8");
  } catch {
    throw new SealedSecretError(place, "unreadable");
  }
}

/** Says, once per failure and without the value, why a sealed secret did not open. */
export function logUnreadable(error: SealedSecretError): void {
  log.error("sealed_secret_unreadable", { table: error.place.table, column: error.place.column, id: error.place.id, reason: error.reason, detail: error.message });
}
