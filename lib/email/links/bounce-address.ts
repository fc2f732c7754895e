import { env } from "../../core/env";
import { openToken, sealToken } from "./signed-token";

// VERP (docs/notifications.md, "Bounces and complaints"): with MAIL_REPLY_DOMAIN, every email's
// envelope sender is `b+<token>@MAIL_REPLY_DOMAIN`, the token sealing the outbox email's id under a
// purpose of its own (a reply token is no bounce token). A delivery report comes back to that
// address, through the same inbound path as replies, and names the email, hence its recipient.

const PURPOSE = "parley-bounce-address-v1";
/** Outbox ids are `em_<uuid>` (outbox.ts): the UUID packs into 16 bytes, keeping the local part short. */
const EMAIL_ID = /^em_([0-9a-f]{8})-([0-9a-f]{4})-([0-9a-f]{4})-([0-9a-f]{4})-([0-9a-f]{12})$/;

/** The envelope sender of this email, or null without a reply domain (MAIL_FROM is used then). */
export async function bounceAddress(emailId: string): Promise<string | null> {
  const domain = env().MAIL_REPLY_DOMAIN;
  const match = EMAIL_ID.exec(emailId);
  if (!domain || !match) return null;
  return `b+${await sealToken(PURPOSE, Buffer.from(match.slice(1).join(""), "hex"))}@${domain}`;
}

/** The email a bounce token names, or null when it is malformed or forged. */
export async function bouncedEmailId(token: string): Promise<string | null> {
  const payload = await openToken(PURPOSE, token);
  if (payload?.length !== 16) return null;
  const hex = payload.toString("hex");
  return `em_${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
