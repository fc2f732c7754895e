import { db, sqlExecutor } from "../db/client";
import { unsubscribeConversation } from "./follow-ups";
import { addSuppression } from "./suppressions";

// The one-click unsubscribe of a visitor's automatic emails (links.ts `siteUnsubscribe`,
// docs/notifications.md "Unsubscribe"): the signed link names an outbox email; its recipient and
// site are what the suppression list gets. `site` (the default, and what a mail client's
// one-click POST does) lists the address for that site and also stops the email's conversation's
// follow-ups; `conversation` (offered on a follow-up) only stops those follow-ups.

export type UnsubscribeScope = "site" | "conversation";

export interface UnsubscribeTarget {
  siteName: string;
  /** The conversation the email was about, when it offers "only this conversation". */
  conversationId: string | null;
}

async function emailOf(emailId: string) {
  return (await db()).email.findUnique({
    where: { id: emailId },
    select: { recipient: true, siteId: true, conversationId: true, kind: true },
  });
}

/** What the page asks about; null when the email is gone (erased or pruned) or not a visitor's. */
export async function unsubscribeTarget(emailId: string): Promise<UnsubscribeTarget | null> {
  const email = await emailOf(emailId);
  if (!email?.siteId) return null;
  const site = await (await db()).site.findUnique({ where: { id: email.siteId }, select: { name: true } });
  if (!site) return null;
  return { siteName: site.name, conversationId: followedUp(email) };
}

/** The conversation whose follow-ups an email is, if it is one. */
const followedUp = (email: { kind: string; conversationId: string | null }) => (email.kind === "visitor_follow_up" ? email.conversationId : null);

/** Records the unsubscribe and answers what it covered; null when the email is gone. Twice changes nothing more. */
export async function unsubscribeEmail(emailId: string, scope: UnsubscribeScope): Promise<UnsubscribeScope | null> {
  const email = await emailOf(emailId);
  if (!email?.siteId) return null;
  const conversationId = followedUp(email);
  const covered = conversationId ? scope : "site";
  if (covered === "site") await addSuppression(await sqlExecutor(), { address: email.recipient, reason: "unsubscribe", siteId: email.siteId });
  if (conversationId) await unsubscribeConversation(conversationId);
  return covered;
}
