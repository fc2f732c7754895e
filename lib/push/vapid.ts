import { createECDH } from "node:crypto";
import webpush from "web-push";
import { env, serviceOrigin } from "../core/env";
import { processSingleton } from "../core/process-registry.mjs";
import { sealedSetting } from "../secrets/sealed-setting";

// The VAPID key pair that signs every push (RFC 8292): from VAPID_PUBLIC_KEY/VAPID_PRIVATE_KEY, or
// made once (web-push's generator) and kept in the settings table with the private key sealed. The
// public key is derived from the private one, so the two can never disagree.

export interface VapidKeys {
  publicKey: string;
  privateKey: string;
  subject: string;
}

export function vapidKeys(): Promise<VapidKeys> {
  const cache = processSingleton("vapid keys", () => ({ keys: null as Promise<VapidKeys> | null }));
  cache.keys ??= loadKeys().catch((error) => {
    cache.keys = null;
    throw error;
  });
  return cache.keys;
}

async function loadKeys(): Promise<VapidKeys> {
  const { VAPID_PUBLIC_KEY, VAPID_PRIVATE_KEY } = env();
  const subject = vapidSubject();
  if (VAPID_PUBLIC_KEY && VAPID_PRIVATE_KEY) return { publicKey: VAPID_PUBLIC_KEY, privateKey: VAPID_PRIVATE_KEY, subject };
  const privateKey = await sealedSetting("vapid_private_key", () => webpush.generateVAPIDKeys().privateKey);
  const ecdh = createECDH("prime256v1");
  ecdh.setPrivateKey(Buffer.from(privateKey, "base64url"));
  return { publicKey: ecdh.getPublicKey().toString("base64url"), privateKey, subject };
}

function vapidSubject(): string {
  const configured = env().VAPID_SUBJECT;
  if (configured) return configured;
  const origin = serviceOrigin();
  return origin.startsWith("https:") ? origin : `mailto:push@${new URL(origin).hostname}`;
}
