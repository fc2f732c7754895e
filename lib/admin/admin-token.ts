import { randomBytes } from "node:crypto";
import { bearerMatches, bearerOf, sha256 } from "../core/bearer";
import { db } from "../db/client";
import { env } from "../core/env";

// The operator credential. With ADMIN_TOKEN set, that is the token. In embedded mode without it,
// one is generated on first start, printed once, and only its SHA-256 is kept (settings table).

const GENERATED_TOKEN_SETTING = "admin_token_sha256";

async function expectedDigest(): Promise<Buffer | null> {
  const configured = env().ADMIN_TOKEN;
  if (configured) return sha256(configured);
  const stored = await (await db()).setting.findUnique({ where: { key: GENERATED_TOKEN_SETTING } });
  return stored ? Buffer.from(stored.value, "hex") : null;
}

export async function verifyAdminToken(authorization: string | null): Promise<boolean> {
  if (!bearerOf(authorization)) return false;
  const expected = await expectedDigest();
  return expected !== null && bearerMatches(authorization, expected);
}

/** Embedded mode without ADMIN_TOKEN: creates the token once and returns it (null when none was created). */
export async function ensureGeneratedAdminToken(): Promise<string | null> {
  if (env().ADMIN_TOKEN) return null;
  const prisma = await db();
  const token = `adm_${randomBytes(24).toString("base64url")}`;
  const { count } = await prisma.setting.createMany({
    data: [{ key: GENERATED_TOKEN_SETTING, value: sha256(token).toString("hex") }],
    skipDuplicates: true,
  });
  return count === 1 ? token : null;
}
