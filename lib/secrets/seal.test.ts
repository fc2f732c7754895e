import { describe, expect, test } from "vitest";
import { keyringFrom } from "./keyring";
import { isSealed, isSealedUnder, openSecret, SealedSecretError, sealSecret } from "./seal";

const KEY_A = "a-first-key-of-at-least-32-characters!";
const KEY_B = "another-key-of-at-least-32-characters!";
const place = { table: "webhooks", column: "secret", id: "wh_1" };
const secret = "whsec_c2VjcmV0LWJ5dGVzLW9mLWEtd2ViaG9vay0wMTIzNDU2Nzg5";

const failure = (open: () => unknown) => {
  try {
    open();
  } catch (error) {
    if (error instanceof SealedSecretError) return error.reason;
    throw error;
  }
  throw new Error("the sealed value opened");
};

describe("sealed secrets", () => {
  test("a sealed value names its key, hides the secret and opens to it; every seal differs", () => {
    const ring = keyringFrom([KEY_A]);
    const sealed = sealSecret(secret, place, ring);
    expect(sealed).toMatch(new RegExp(`^sealed:v1:${ring.current.id}:[A-Za-z0-9_-]{16}:[A-Za-z0-9_-]+$`));
    expect(sealed).not.toContain(secret.slice(6, 20));
    expect(sealSecret(secret, place, ring)).not.toBe(sealed);
    expect(openSecret(sealed, place, ring)).toBe(secret);
    expect(isSealedUnder(sealed, ring)).toBe(true);
  });

  test("a value copied to another row or column, or altered, does not open", () => {
    const ring = keyringFrom([KEY_A]);
    const sealed = sealSecret(secret, place, ring);
    expect(failure(() => openSecret(sealed, { ...place, id: "wh_2" }, ring))).toBe("unreadable");
    expect(failure(() => openSecret(sealed, { ...place, table: "sites", column: "identity_secret" }, ring))).toBe("unreadable");
    const last = sealed.at(-2) === "A" ? "B" : "A";
    expect(failure(() => openSecret(`${sealed.slice(0, -2)}${last}${sealed.at(-1)}`, place, ring))).toBe("unreadable");
    expect(failure(() => openSecret(sealed.split(":").slice(0, 4).join(":"), place, ring))).toBe("unreadable");
  });

  test("key ids come from the keys: an older key still opens, an unknown one is named", () => {
    const old = keyringFrom([KEY_A]);
    const rotated = keyringFrom([KEY_B, KEY_A]);
    expect(rotated.current.id).not.toBe(old.current.id);
    expect(keyringFrom([KEY_A]).current.id).toBe(old.current.id);
    const sealed = sealSecret(secret, place, old);
    expect(openSecret(sealed, place, rotated)).toBe(secret);
    expect(isSealedUnder(sealed, rotated)).toBe(false);
    const error = (() => {
      try {
        openSecret(sealed, place, keyringFrom([KEY_B]));
      } catch (caught) {
        return caught as SealedSecretError;
      }
    })();
    expect(error?.reason).toBe("unknown_key");
    expect(error?.message).toContain(old.current.id);
    expect(error?.message).not.toContain(secret);
  });

  test("a value stored before sealing existed is read as it is", () => {
    expect(isSealed(secret)).toBe(false);
    expect(openSecret(secret, place, keyringFrom([KEY_A]))).toBe(secret);
  });
});
