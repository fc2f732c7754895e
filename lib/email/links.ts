import { createHmac, timingSafeEqual } from "node:crypto";
import { serviceOrigin } from "../core/env";
import { uploadSigningSecret } from "../uploads/signing-secret";

// Links inside emails: the conversation in the inbox, and the signed one-click unsubscribe.

export const inboxConversationUrl = (conversationId: string) =>
  `${serviceOrigin()}/inbox/conversations/${encodeURIComponent(conversationId)}`;

async function unsubscribeSignature(conversationId: string): Promise<string> {
  // The service's signing secret, under a purpose of its own.
  return createHmac("sha256", await uploadSigningSecret()).update(`unsubscribe:${conversationId}`).digest("base64url");
}

export async function unsubscribeUrl(conversationId: string): Promise<string> {
  const query = new URLSearchParams({ conversation: conversationId, signature: await unsubscribeSignature(conversationId) });
  return `${serviceOrigin()}/api/v1/email/unsubscribe?${query}`;
}

export async function verifyUnsubscribe(conversationId: string, signature: string): Promise<boolean> {
  const expected = Buffer.from(await unsubscribeSignature(conversationId));
  const given = Buffer.from(signature);
  return expected.length === given.length && timingSafeEqual(expected, given);
}
