import { createHmac, hkdfSync } from "node:crypto";
import { keyring, type SealingKey } from "../secrets/keyring";

// How an audit row names an email address that belongs to no member (a failed sign-in's): by a
// keyed hash, never the address (docs/security.md, "Audit log"). What was typed may be a
// stranger's address or a password typed into the wrong box; the hash still lets a privacy request
// for that address find the rows, and repeated attempts on one address group together, while
// nobody holding only the table can test guesses without the service's key. The key is derived
// from each sealing key, so after a rotation the older keys still find the older rows; once a key
// is dropped, nothing links its rows to an address any more.

const digestKeys = new WeakMap<SealingKey, Buffer>();

function digestKey(sealing: SealingKey): Buffer {
  let key = digestKeys.get(sealing);
  if (!key) {
    key = Buffer.from(hkdfSync("sha256", sealing.key, "", "parley audit email v1", 32));
    digestKeys.set(sealing, key);
  }
  return key;
}

const targetUnder = (sealing: SealingKey, email: string) =>
  `email_hash:${createHmac("sha256", digestKey(sealing)).update(email.trim().toLowerCase()).digest("base64url").slice(0, 22)}`;

/** The target naming this address in a new row (under the current key). */
export const emailTarget = (email: string): string => targetUnder(keyring().current, email);

/** Every target that may name this address: one per key the service holds. */
export const emailTargets = (email: string): string[] => [...keyring().byId.values()].map((key) => targetUnder(key, email));
