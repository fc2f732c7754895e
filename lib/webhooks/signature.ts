import { createHmac, randomBytes } from "node:crypto";

// The Standard Webhooks signature: HMAC-SHA256 over "{id}.{timestamp}.{body}", keyed with the
// base64-decoded part of the secret after "whsec_", sent as "v1,<base64>".

const PREFIX = "whsec_";

export const newWebhookSecret = () => PREFIX + randomBytes(32).toString("base64");

export function signWebhook(secret: string, id: string, timestamp: number, body: string): string {
  const key = Buffer.from(secret.startsWith(PREFIX) ? secret.slice(PREFIX.length) : secret, "base64");
  return `v1,${createHmac("sha256", key).update(`${id}.${timestamp}.${body}`).digest("base64")}`;
}
