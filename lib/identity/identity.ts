import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { db } from "../db/client";
import { AppError } from "../core/errors";
import { identitySecretPlace } from "../secrets/places";
import { logUnreadable, openSecret, SealedSecretError, sealSecret } from "../secrets/seal";

// Identity verification (decisions.md): a site's secret, created by an operator and shown once,
// signs the site's own user ids (user_hash = hex HMAC-SHA256 of user_id). A start that carries a
// pair must carry a valid one; a site with identity_required accepts no start without one.
//
// The secret cannot be hashed (checking an HMAC needs the key itself): it is kept sealed with
// SECRET_KEY (lib/secrets/), never returned again, never logged, never part of an error message.
// A sealed secret that does not open (altered, or its key missing) fails closed: the visitor's
// start is refused as unverified (403), and the log says why.

const invalid = () => new AppError("identity_invalid", "The user identity could not be verified.");

export async function createIdentitySecret(siteId: string): Promise<{ identity_secret: string }> {
  const secret = "ids_" + randomBytes(32).toString("base64url");
  const sealed = sealSecret(secret, identitySecretPlace(siteId));
  const { count } = await (await db()).site.updateMany({ where: { id: siteId }, data: { identitySecret: sealed } });
  if (count === 0) throw new AppError("site_not_found", "No site has this identifier.");
  return { identity_secret: secret };
}

export const identityHash = (secret: string, userId: string) => createHmac("sha256", secret).update(userId, "utf8").digest("hex");

/**
 * The verified user id, null for an anonymous start; throws identity_invalid otherwise. Only a
 * start that carries a pair reads the site's secret: an anonymous one (nearly all) costs no query.
 */
export async function verifyIdentity(
  site: { id: string; identityRequired: boolean },
  userId?: string,
  userHash?: string,
): Promise<{ userId: string } | null> {
  if (userId === undefined && userHash === undefined) {
    if (site.identityRequired) throw invalid();
    return null;
  }
  const found = await (await db()).site.findUnique({ where: { id: site.id }, select: { identitySecret: true } });
  if (!found?.identitySecret || userId === undefined || userHash === undefined) throw invalid();
  const expected = Buffer.from(identityHash(openIdentitySecret(site.id, found.identitySecret), userId), "hex");
  const given = /^[0-9a-fA-F]{64}$/.test(userHash) ? Buffer.from(userHash, "hex") : Buffer.alloc(0);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw invalid();
  return { userId };
}

function openIdentitySecret(siteId: string, stored: string): string {
  try {
    return openSecret(stored, identitySecretPlace(siteId));
  } catch (error) {
    if (!(error instanceof SealedSecretError)) throw error;
    logUnreadable(error);
    throw invalid();
  }
}
