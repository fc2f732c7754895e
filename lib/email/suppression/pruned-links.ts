import { db } from "../../db/client";
import type { Prisma } from "../../generated/prisma/client";
import { CAPPED_KINDS, type EmailKind } from "../email-kinds";
import { addressHash } from "./suppressions";

// One-click unsubscribe links outlive their email (docs/notifications.md, "One-click unsubscribe"):
// a link names its outbox email (links.ts `siteUnsubscribe`), which retention prunes after
// LOG_RETENTION_DAYS. Before a sent email with a link goes, what the link needs is kept: its kind,
// site, conversation or ticket, and the address's keyed hash (suppressions.ts), never the address;
// an unsubscribe by the link then lists the hash. Erased with the conversation or ticket.
//
// A link works for UNSUBSCRIBE_LINK_DAYS after its email was written, whether the email is still
// in the outbox or only this record is left; retention deletes the record when the link expires.
// A year: far beyond the 30 days RFC 8058 senders are held to (and CAN-SPAM's), and every email
// sent since carries a fresh link, so a visitor who still gets emails always has one that works.

export const UNSUBSCRIBE_LINK_DAYS = 365;
const DAY_MS = 86_400_000;

/** The oldest email whose link still works at `now`. */
export const unsubscribeLinksSince = (now = new Date()) => new Date(now.getTime() - UNSUBSCRIBE_LINK_DAYS * DAY_MS);

export interface UnsubscribeSource {
  kind: string;
  siteId: string | null;
  conversationId: string | null;
  /** The address, while the email is kept. */
  recipient: string | null;
  /** Its keyed hash, once the email is pruned. */
  addressHash: string | null;
}

/** The email a link names, from the outbox or from what its pruning kept; null when neither has it or the link expired. */
export async function unsubscribeSource(emailId: string): Promise<UnsubscribeSource | null> {
  const prisma = await db();
  const since = unsubscribeLinksSince();
  const email = await prisma.email.findUnique({ where: { id: emailId }, select: { kind: true, siteId: true, conversationId: true, recipient: true, createdAt: true } });
  if (email) return email.createdAt < since ? null : { kind: email.kind, siteId: email.siteId, conversationId: email.conversationId, recipient: email.recipient, addressHash: null };
  const pruned = await prisma.prunedUnsubscribeLink.findUnique({
    where: { emailId },
    select: { kind: true, siteId: true, conversationId: true, addressHash: true, emailCreatedAt: true },
  });
  if (!pruned || pruned.emailCreatedAt < since) return null;
  return { kind: pruned.kind, siteId: pruned.siteId, conversationId: pruned.conversationId, addressHash: pruned.addressHash, recipient: null };
}

export interface PrunableEmail {
  id: string;
  kind: string;
  status: string;
  recipient: string;
  siteId: string | null;
  conversationId: string | null;
  ticketId: string | null;
  createdAt: Date;
}

/** Which of the emails about to be pruned were sent with a link: the capped kinds, sent. */
const carriesUnsubscribeLink = (email: PrunableEmail) =>
  email.status === "sent" && email.siteId !== null && CAPPED_KINDS.includes(email.kind as EmailKind);

/** The records to keep for those emails, hashed before the pruning's transaction. */
export async function prunedLinks(emails: PrunableEmail[]): Promise<Prisma.PrunedUnsubscribeLinkCreateManyInput[]> {
  return Promise.all(
    emails.filter(carriesUnsubscribeLink).map(async (email) => ({
      emailId: email.id,
      kind: email.kind,
      siteId: email.siteId!,
      conversationId: email.conversationId,
      ticketId: email.ticketId,
      addressHash: await addressHash(email.recipient),
      emailCreatedAt: email.createdAt,
    })),
  );
}
