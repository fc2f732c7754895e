import { randomBytes } from "node:crypto";
import { env } from "../core/env";
import { AppError } from "../core/errors";
import { logUnreadable, SealedSecretError } from "./seal";
import { sealedSetting } from "./sealed-setting";

// The service's signing secret: the key of every HMAC it signs and later takes back (lib/core/
// signing.ts: upload URLs, email links, reply and bounce addresses, suppressed-address hashes).
// UPLOAD_SIGNING_SECRET when set (the variable and the setting keep the names they were deployed
// with: uploads were its first use); otherwise one generated on first use and kept sealed in the
// settings table, so every instance sharing the database signs and verifies with the same secret.

let cached: string | undefined;
// One read at a time: a batch of emails signing reply addresses at once must not take a database
// connection each for the same setting.
let loading: Promise<string> | undefined;

export async function serviceSigningSecret(): Promise<string> {
  const configured = env().UPLOAD_SIGNING_SECRET;
  if (configured) return configured;
  if (cached) return cached;
  loading ??= loadSecret().finally(() => {
    loading = undefined;
  });
  return loading;
}

async function loadSecret(): Promise<string> {
  try {
    cached = await sealedSetting("upload_signing_secret", () => randomBytes(32).toString("base64url"));
  } catch (error) {
    if (!(error instanceof SealedSecretError)) throw error;
    logUnreadable(error);
    throw new AppError("service_unavailable", "File uploads are unavailable: the service cannot open its signing secret.");
  }
  return cached;
}
