import { createHmac, timingSafeEqual } from "node:crypto";
import { serviceOrigin } from "../core/env";
import { uploadSigningSecret } from "../uploads/signing-secret";
import { newEmailId } from "./outbox";
import { addressHash } from "./suppressions";

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
  url: string;
  /** What the email's draft takes (outbox.ts `EmailDraft`). */
  draft: {
    /** The outbox id the email must be stored under: the link names it, never the address. */
    id: string;
    /** RFC 8058 one-click: mail clients POST `List-Unsubscribe=One-Click` to the url. */
    headers: Record<string, string>;
    /** What an unsubscribe by the link lists once the email is pruned (pruned-links.ts). */
    addressHash: string;
  };
}

/**
 * The one-click unsubscribe of an automatic email to a visitor (outbox.ts's capped kinds): its
 * link signs the email's own id, so the address and site are read from the outbox when it is used
 * (or, once the email is pruned, from what pruned-links.ts kept of it).
 */
export async function siteUnsubscribe(recipient: string): Promise<SiteUnsubscribe> {
  const id = newEmailId();
  const url = `${serviceOrigin()}${UNSUBSCRIBE_PATH}?${new URLSearchParams({ email: id, signature: await sign("unsubscribe-email", id) })}`;
  const headers = { "List-Unsubscribe": `<${url}>`, "List-Unsubscribe-Post": "List-Unsubscribe=One-Click" };
  return { url, draft: { id, headers, addressHash: await addressHash(recipient) } };
}

export const verifySiteUnsubscribe = (emailId: string, signature: string) => verify("unsubscribe-email", emailId, signature);
