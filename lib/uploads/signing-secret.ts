import { randomBytes } from "node:crypto";
import { db } from "../db/client";
import { env } from "../core/env";

// UPLOAD_SIGNING_SECRET when set; otherwise one generated on first use and kept in the settings
// table, so every instance sharing the database signs and verifies with the same secret.

const SETTING = "upload_signing_secret";
let cached: string | undefined;

export async function uploadSigningSecret(): Promise<string> {
  const configured = env().UPLOAD_SIGNING_SECRET;
  if (configured) return configured;
  if (cached) return cached;
  const prisma = await db();
  await prisma.setting.createMany({
    data: [{ key: SETTING, value: randomBytes(32).toString("base64url") }],
    skipDuplicates: true,
  });
  const stored = await prisma.setting.findUniqueOrThrow({ where: { key: SETTING } });
  cached = stored.value;
  return cached;
}
