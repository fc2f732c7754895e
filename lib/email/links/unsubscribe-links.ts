import { serviceOrigin } from "../../core/env";
import { isSignature, textSignature, type SigningFormat } from "../../core/signing";
import { serviceSigningSecret } from "../../secrets/signing-secret";
import { newEmailId } from "../email-kinds";
import { addressHash } from "../suppression/suppressions";

// The signed one-click unsubscribe links inside emails, signed with the service's secret under a
// purpose of their own per kind of link.

const UNSUBSCRIBE_PATH = "/api/v1/email/unsubscribe";
/** Links in follow-ups sent before the site-wide unsubscribe: they name the conversation. */
const CONVERSATION_LINK: SigningFormat = { purpose: "unsubscribe", separator: ":" };
/** Links since: they name the outbox email. */
const EMAIL_LINK: SigningFormat = { purpose: "unsubscribe-email", separator: ":" };

const verify = async (format: SigningFormat, id: string, signature: string) => isSignature(await serviceSigningSecret(), format, id, signature);

/** Links in follow-ups sent before the site-wide unsubscribe: they stop that conversation's follow-ups. */
export const verifyUnsubscribe = (conversationId: string, signature: string) => verify(CONVERSATION_LINK, conversationId, signature);

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
  const url = `${serviceOrigin()}${UNSUBSCRIBE_PATH}?${new URLSearchParams({ email: id, signature: textSignature(await serviceSigningSecret(), EMAIL_LINK, id) })}`;
  const headers = { "List-Unsubscribe": `<${url}>`, "List-Unsubscribe-Post": "List-Unsubscribe=One-Click" };
  return { url, draft: { id, headers, addressHash: await addressHash(recipient) } };
}

export const verifySiteUnsubscribe = (emailId: string, signature: string) => verify(EMAIL_LINK, emailId, signature);
