import { randomBytes } from "node:crypto";
import { env } from "../core/env";
import { AppError } from "../core/errors";
import { logUnreadable, SealedSecretError } from "../secrets/seal";
import { sealedSetting } from "../secrets/sealed-setting";

// UPLOAD_SIGNING_SECRET when set; otherwise one generated on first use and kept sealed in the
// settings table, so every instance sharing the database signs and verifies with the same secret.

let cached: string | undefined;
// One read at a time: a batch of emails signing reply addresses at once must not take a database
// connection each for the same setting.
let loading: Promise<string> | undefined;

export async function uploadSigningSecret(): Promise<string> {
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
