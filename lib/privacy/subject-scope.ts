import type { Prisma } from "../generated/prisma/client";
import type { PrivacySubject } from "../contracts/privacy";

// What rows belong to one person (docs/security.md, "Privacy requests"): their conversations (by
// the visitor's email on every site, or on one site by the verified user id or the visitor id),
// their tickets (by email; tickets store no user id), their page views (by the browser's visitor
// id on that site, and the one each matched conversation recorded), and the emails to them.
// Everything else hangs off these: messages, files, ratings, replies, emails and webhook
// deliveries about those conversations and tickets.

export interface ErasureScope {
  conversationIds: string[];
  ticketIds: string[];
  /** Emails to this (lower-cased) address, besides those about the conversations and tickets. */
  recipientKey: string | null;
  /** Page views by (site, visitor id), as two parallel lists. */
  pageViewSites: string[];
  pageViewVisitors: string[];
}

type Tx = Prisma.TransactionClient;

export async function subjectScope(tx: Tx, subject: PrivacySubject): Promise<ErasureScope> {
  const conversations = await matchingConversations(tx, subject);
  const tickets =
    subject.kind === "email"
      ? await tx.$queryRaw<{ id: string }[]>`SELECT "id" FROM "tickets" WHERE lower("email") = ${subject.email}`
      : [];
  const pageViews = new Map<string, [string, string]>();
  if (subject.kind === "visitor_id") pageViews.set(`${subject.siteId}\n${subject.visitorId}`, [subject.siteId, subject.visitorId]);
  for (const { site_id, browser_visitor_id } of conversations) {
    if (browser_visitor_id) pageViews.set(`${site_id}\n${browser_visitor_id}`, [site_id, browser_visitor_id]);
  }
  return {
    conversationIds: conversations.map((row) => row.id),
    ticketIds: tickets.map((row) => row.id),
    recipientKey: subject.kind === "email" ? subject.email : null,
    pageViewSites: [...pageViews.values()].map(([site]) => site),
    pageViewVisitors: [...pageViews.values()].map(([, visitor]) => visitor),
  };
}

type ConversationKey = { id: string; site_id: string; browser_visitor_id: string | null };

function matchingConversations(tx: Tx, subject: PrivacySubject): Promise<ConversationKey[]> {
  switch (subject.kind) {
    case "email":
      return tx.$queryRaw`SELECT "id", "site_id", "browser_visitor_id" FROM "conversations" WHERE lower("visitor_email") = ${subject.email}`;
    case "user_id":
      return tx.$queryRaw`SELECT "id", "site_id", "browser_visitor_id" FROM "conversations"
                           WHERE "site_id" = ${subject.siteId} AND "user_id" = ${subject.userId} AND "identity_verified"`;
    case "visitor_id":
      return tx.$queryRaw`SELECT "id", "site_id", "browser_visitor_id" FROM "conversations"
                           WHERE "site_id" = ${subject.siteId} AND ("browser_visitor_id" = ${subject.visitorId} OR "visitor_id" = ${subject.visitorId})`;
  }
}

/** A scope of conversations and tickets only (retention): their own rows, files, emails and deliveries. */
export const recordsScope = (conversationIds: string[], ticketIds: string[]): ErasureScope => ({
  conversationIds,
  ticketIds,
  recipientKey: null,
  pageViewSites: [],
  pageViewVisitors: [],
});

/** `"<id>"` as it appears in a webhook payload's JSON: what marks a delivery as about that row. */
export const quotedIds = (scope: ErasureScope) => [...scope.conversationIds, ...scope.ticketIds].map((id) => JSON.stringify(id));
