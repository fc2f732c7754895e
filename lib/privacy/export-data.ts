import { strToU8, zipSync, type Zippable } from "fflate";
import { Prisma } from "../generated/prisma/client";
import type { PrivacySubject } from "../contracts/privacy";
import { storageOf } from "../uploads/storage";
import { quotedIds, type ErasureScope } from "./subject-scope";
import { auditRowsAboutEmail } from "../audit/about-email";

// A person's data as a zip (fflate, docs/security.md says why): one JSON file per kind of row,
// each row as the database holds it (column names as stored), and the bytes of every file under
// files/. Built in memory: one person's data, not a site's.

type Tx = Prisma.TransactionClient;

/** Each kind's rows, read in one snapshot (the caller's repeatable-read transaction). */
async function rowsOf(tx: Tx, scope: ErasureScope): Promise<Record<string, unknown[]>> {
  const conversations = scope.conversationIds;
  const tickets = scope.ticketIds;
  const sql = Prisma.sql;
  // Table names are this file's constants, never input.
  const all = async (table: string, where: Prisma.Sql) => {
    const [row] = await tx.$queryRaw<{ rows: unknown[] }[]>(
      sql`SELECT coalesce(json_agg(t ORDER BY t."created_at", t."id"), '[]'::json) AS rows FROM ${Prisma.raw(`"${table}"`)} t WHERE ${where}`,
    );
    return row?.rows ?? [];
  };
  return {
    conversations: await all("conversations", sql`t."id" = ANY(${conversations}::text[])`),
    messages: await all("messages", sql`t."conversation_id" = ANY(${conversations}::text[])`),
    message_attachments: await all("message_attachments", sql`t."conversation_id" = ANY(${conversations}::text[])`),
    ratings: await all("conversation_ratings", sql`t."conversation_id" = ANY(${conversations}::text[])`),
    tickets: await all("tickets", sql`t."id" = ANY(${tickets}::text[])`),
    ticket_replies: await all("ticket_replies", sql`t."ticket_id" = ANY(${tickets}::text[])`),
    ticket_attachments: await all("ticket_attachments", sql`t."ticket_id" = ANY(${tickets}::text[])`),
    page_views: await all(
      "page_views",
      sql`(t."site_id", t."visitor_id") IN (SELECT * FROM unnest(${scope.pageViewSites}::text[], ${scope.pageViewVisitors}::text[]))`,
    ),
    emails: await all(
      "emails",
      sql`(t."recipient_key" = ${scope.recipientKey} OR t."conversation_id" = ANY(${conversations}::text[]) OR t."ticket_id" = ANY(${tickets}::text[]))`,
    ),
    webhook_deliveries: await all(
      "webhook_deliveries",
      sql`EXISTS (SELECT 1 FROM unnest(${quotedIds(scope)}::text[]) AS q(id) WHERE strpos(t."payload", q.id) > 0)`,
    ),
    audit_events: scope.recipientKey ? await auditRowsAboutEmail(tx, scope.recipientKey) : [],
  };
}

interface FileRow {
  id: string;
  name: string;
  storage: string;
  storage_key: string;
  uploaded_at: string | null;
}

async function fileBytes(file: FileRow): Promise<Uint8Array | null> {
  if (!file.uploaded_at) return null;
  const stream = await storageOf(file.storage)?.read(file.storage_key);
  return stream ? new Uint8Array(await new Response(stream).arrayBuffer()) : null;
}

/** The request as it came in (snake_case on the wire). */
const wireRequest = (subject: PrivacySubject) =>
  subject.kind === "email"
    ? { email: subject.email }
    : subject.kind === "user_id"
      ? { user_id: subject.userId, site: subject.siteId }
      : { visitor_id: subject.visitorId, site: subject.siteId };

/** The zip of everything the scope holds. */
export async function exportArchive(tx: Tx, subject: PrivacySubject, scope: ErasureScope): Promise<Uint8Array> {
  const rows = await rowsOf(tx, scope);
  const entries: Zippable = {
    "request.json": strToU8(JSON.stringify({ ...wireRequest(subject), exported_at: new Date().toISOString() }, null, 2)),
  };
  for (const [kind, list] of Object.entries(rows)) entries[`${kind}.json`] = strToU8(JSON.stringify(list, null, 2));
  const files = [...(rows.message_attachments as FileRow[]), ...(rows.ticket_attachments as FileRow[])];
  for (const file of files) {
    const bytes = await fileBytes(file);
    // The id keeps names unique; the stored name is the sender's, so only its safe characters are kept.
    if (bytes) entries[`files/${file.id}-${file.name.replace(/[^\p{L}\p{N}._-]+/gu, "_")}`] = [bytes, { level: 0 }];
  }
  return zipSync(entries, { level: 6 });
}
