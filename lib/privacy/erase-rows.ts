import type { Prisma } from "../generated/prisma/client";
import type { ErasureCounts } from "../contracts/privacy";
import { storageOf } from "../uploads/storage";
import { quotedIds, type ErasureScope } from "./subject-scope";

// Erasing a scope's rows (one transaction, the caller's) and its files' bytes (local disk or S3).
// Shared by erasure requests and the retention job. Rows that only point at a conversation
// (tokens, presence, reads, labels, alerts) go with it; counts name what a person would call their data.

type Tx = Prisma.TransactionClient;

export interface StoredFile {
  storage: string;
  storage_key: string;
}

/** The stored files of the scope's messages and tickets. */
export function storedFilesOf(tx: Tx, scope: ErasureScope): Promise<StoredFile[]> {
  return tx.$queryRaw<StoredFile[]>`
    SELECT "storage", "storage_key" FROM "message_attachments" WHERE "conversation_id" = ANY(${scope.conversationIds}::text[])
    UNION ALL
    SELECT "storage", "storage_key" FROM "ticket_attachments" WHERE "ticket_id" = ANY(${scope.ticketIds}::text[])`;
}

/** Deletes the bytes; a file already gone is fine, a storage that fails throws (the rows stay, so a retry finds them). */
export async function removeFiles(files: StoredFile[]): Promise<void> {
  for (const file of files) {
    const storage = storageOf(file.storage);
    if (!storage) throw new Error(`Files in ${file.storage} storage cannot be erased while it is not configured.`);
    await storage.remove(file.storage_key);
  }
}

/**
 * Deletes every row of the scope; answers how many of each kind (the audit log is redacted apart).
 * The tables it deleted from are added to `touched`, for scrubErasedRows (lib/db/client.ts).
 */
export async function eraseRows(tx: Tx, scope: ErasureScope, touched = new Set<string>()): Promise<Omit<ErasureCounts, "audit_events">> {
  const conversations = scope.conversationIds;
  const tickets = scope.ticketIds;
  const from = async (table: string, deleting: Promise<number>) => {
    const deleted = await deleting;
    if (deleted > 0) touched.add(table);
    return deleted;
  };
  const webhookDeliveries = await from("webhook_deliveries", tx.$executeRaw`
    DELETE FROM "webhook_deliveries" d
     WHERE EXISTS (SELECT 1 FROM unnest(${quotedIds(scope)}::text[]) AS q(id) WHERE strpos(d."payload", q.id) > 0)`);
  const emails = await from("emails", tx.$executeRaw`
    DELETE FROM "emails"
     WHERE "recipient_key" = ${scope.recipientKey}
        OR "conversation_id" = ANY(${conversations}::text[])
        OR "ticket_id" = ANY(${tickets}::text[])`);
  const pageViews = await from("page_views", tx.$executeRaw`
    DELETE FROM "page_views"
     WHERE ("site_id", "visitor_id") IN (SELECT * FROM unnest(${scope.pageViewSites}::text[], ${scope.pageViewVisitors}::text[]))`);
  await from("staff_alerts", tx.$executeRaw`DELETE FROM "staff_alerts" WHERE "conversation_id" = ANY(${conversations}::text[])`);
  await from("visitor_follow_ups", tx.$executeRaw`DELETE FROM "visitor_follow_ups" WHERE "conversation_id" = ANY(${conversations}::text[])`);
  // What pruning kept of their emails' unsubscribe links (lib/email/suppression/pruned-links.ts).
  await from("pruned_unsubscribe_links", tx.$executeRaw`
    DELETE FROM "pruned_unsubscribe_links" WHERE "conversation_id" = ANY(${conversations}::text[]) OR "ticket_id" = ANY(${tickets}::text[])`);
  await from("visitor_tokens", tx.$executeRaw`DELETE FROM "visitor_tokens" WHERE "conversation_id" = ANY(${conversations}::text[])`);
  await from("presence", tx.$executeRaw`DELETE FROM "presence" WHERE "conversation_id" = ANY(${conversations}::text[])`);
  const messageFiles = await from("message_attachments", tx.$executeRaw`DELETE FROM "message_attachments" WHERE "conversation_id" = ANY(${conversations}::text[])`);
  const ratings = await from("conversation_ratings", tx.$executeRaw`DELETE FROM "conversation_ratings" WHERE "conversation_id" = ANY(${conversations}::text[])`);
  const messages = await from("messages", tx.$executeRaw`DELETE FROM "messages" WHERE "conversation_id" = ANY(${conversations}::text[])`);
  const conversationRows = await from("conversations", tx.$executeRaw`DELETE FROM "conversations" WHERE "id" = ANY(${conversations}::text[])`);
  const ticketFiles = await from("ticket_attachments", tx.$executeRaw`DELETE FROM "ticket_attachments" WHERE "ticket_id" = ANY(${tickets}::text[])`);
  const ticketReplies = await from("ticket_replies", tx.$executeRaw`DELETE FROM "ticket_replies" WHERE "ticket_id" = ANY(${tickets}::text[])`);
  // The stored 201 reply of a ticket request repeats the ticket.
  await from("ticket_idempotency_keys", tx.$executeRaw`DELETE FROM "ticket_idempotency_keys" WHERE "ticket_id" = ANY(${tickets}::text[])`);
  const ticketRows = await from("tickets", tx.$executeRaw`DELETE FROM "tickets" WHERE "id" = ANY(${tickets}::text[])`);
  return {
    conversations: conversationRows,
    messages,
    ratings,
    tickets: ticketRows,
    ticket_replies: ticketReplies,
    attachments: messageFiles + ticketFiles,
    page_views: pageViews,
    emails,
    webhook_deliveries: webhookDeliveries,
  };
}
