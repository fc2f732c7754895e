import { db, sqlExecutor } from "../../db/client";
import { unsubscribeSource } from "./pruned-links";
import { addSuppression } from "./suppressions";

// The one-click unsubscribe of a visitor's automatic emails (links/unsubscribe-links.ts `siteUnsubscribe`,
// docs/notifications.md "Unsubscribe"): the signed link names an outbox email; its recipient and
// site are what the suppression list gets (once the email is pruned, its recipient's hash:
// pruned-links.ts). `site` (the default, and what a mail client's one-click POST does) lists the
// address for that site and also stops the email's conversation's follow-ups; `conversation`
// (offered on a follow-up) only stops those follow-ups.

export type UnsubscribeScope = "site" | "conversation";

export interface UnsubscribeTarget {
  siteName: string;
  /** The conversation the email was about, when it offers "only this conversation". */
  conversationId: string | null;
}

/** What the page asks about; null when the email is gone (erased) or not a visitor's. */
export async function unsubscribeTarget(emailId: string): Promise<UnsubscribeTarget | null> {
  const email = await unsubscribeSource(emailId);
  if (!email?.siteId) return null;
  const site = await (await db()).site.findUnique({ where: { id: email.siteId }, select: { name: true } });
  if (!site) return null;
  return { siteName: site.name, conversationId: followedUp(email) };
}

/** The conversation whose follow-ups an email is, if it is one. */
const followedUp = (email: { kind: string; conversationId: string | null }) => (email.kind === "visitor_follow_up" ? email.conversationId : null);

/** Records the unsubscribe and answers what it covered; null when the email is gone (erased). Twice changes nothing more. */
export async function unsubscribeEmail(emailId: string, scope: UnsubscribeScope): Promise<UnsubscribeScope | null> {
  const email = await unsubscribeSource(emailId);
  if (!email?.siteId) return null;
  const conversationId = followedUp(email);
  const covered = conversationId ? scope : "site";
  if (covered === "site") {
    // A pruned email left only the address's hash: the entry lists that (suppressions.ts).
    const address = email.recipient !== null ? { address: email.recipient } : { addressHash: email.addressHash! };
    await addSuppression(await sqlExecutor(), { ...address, reason: "unsubscribe", siteId: email.siteId });
  }
  if (conversationId) await unsubscribeConversation(conversationId);
  return covered;
}

/** Records the one-click unsubscribe of a conversation's follow-ups. */
export async function unsubscribeConversation(conversationId: string): Promise<boolean> {
  const prisma = await db();
  const conversation = await prisma.conversation.findUnique({ where: { id: conversationId }, select: { id: true } });
  if (!conversation) return false;
  await prisma.visitorFollowUp.upsert({
    where: { conversationId },
    create: { conversationId, unsubscribedAt: new Date() },
    update: { unsubscribedAt: new Date() },
  });
  return true;
}
