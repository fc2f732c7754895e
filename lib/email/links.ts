import { createHmac, timingSafeEqual } from "node:crypto";
import { serviceOrigin } from "../core/env";
import { uploadSigningSecret } from "../uploads/signing-secret";
import { newEmailId } from "./outbox";

// Links inside emails: the conversation in the inbox, and the signed one-click unsubscribe.

export const inboxConversationUrl = (conversationId: string) =>
  `${serviceOrigin()}/inbox/conversations/${encodeURIComponent(conversationId)}`;

const UNSUBSCRIBE_PATH = "/api/v1/email/unsubscribe";

// The service's signing secret, under a purpose of its own per kind of link.
async function sign(purpose: string, id: string): Promise<string> {
  return createHmac("sha256", await uploadSigningSecret()).update(`${purpose}:${id}`).digest("base64url");
}

async function verify(purpose: string, id: string, signature: string): Promise<boolean> {
  const expected = Buffer.from(await sign(purpose, id));
  const given = Buffer.from(signature);
  return expected.length === given.length && timingSafeEqual(expected, given);
}

/** Links in follow-ups sent before the site-wide unsubscribe: they stop that conversation's follow-ups. */
export const verifyUnsubscribe = (conversationId: string, signature: string) => verify("unsubscribe", conversationId, signature);

export interface SiteUnsubscribe {
  /** The outbox id the email must be stored under: the link names it, never the address. */
  emailId: string;
  url: string;
  /** RFC 8058 one-click: mail clients POST `List-Unsubscribe=One-Click` to the url. */
  headers: Record<string, string>;
}

/**
 * The one-click unsubscribe of an automatic email to a visitor (outbox.ts's capped kinds): its
 * link signs the email's own id, so the address and site are read from the outbox when it is used.
 */
export async function siteUnsubscribe(): Promise<SiteUnsubscribe> {
  const emailId = newEmailId();
  const url = `${serviceOrigin()}${UNSUBSCRIBE_PATH}?${new URLSearchParams({ email: emailId, signature: await sign("unsubscribe-email", emailId) })}`;
  return { emailId, url, headers: { "List-Unsubscribe": `<${url}>`, "List-Unsubscribe-Post": "List-Unsubscribe=One-Click" } };
}

export const verifySiteUnsubscribe = (emailId: string, signature: string) => verify("unsubscribe-email", emailId, signature);
