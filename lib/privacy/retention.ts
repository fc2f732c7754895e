import { env } from "../core/env";
import { log } from "../core/log";
import { db, scrubErasedRows, sqlExecutor } from "../db/client";
import { paced } from "../core/paced";
import { pruneAuditEvents } from "../audit/prune";
import { prunedLinks, unsubscribeLinksSince } from "../email/suppression/pruned-links";
import { hashSuppressedAddresses } from "../email/suppression/suppressions";
import { pruneUnsentUploads } from "../uploads/prune-unsent";
import { eraseRows, removeFiles, storedFilesOf } from "./erase-rows";
import { recordsScope } from "./subject-scope";

// Retention (decisions.md, round 3; docs/security.md, "How long things are kept"): once a day
// (lib/jobs, the `retention` queue) closed conversations and tickets older than their site's
// `retention_days` are erased with their files; webhook delivery logs, outbox emails and page
// views older than LOG_RETENTION_DAYS, visitor tokens long expired and audit events older than
// AUDIT_RETENTION_DAYS are pruned, and chat files never sent are deleted
// (lib/uploads/prune-unsent.ts). Everything goes in batches of BATCH_SIZE rows,
// one short transaction each, so no lock is held for long, each followed by a rest
// (lib/core/paced.ts), so the service keeps most of the database while it runs.

export const BATCH_SIZE = 500;
const DAY_MS = 86_400_000;

export interface RetentionCounts {
  conversations: number;
  tickets: number;
  webhook_deliveries: number;
  emails: number;
  page_views: number;
  visitor_tokens: number;
  audit_events: number;
  unsent_uploads: number;
  unsubscribe_links: number;
  suppressed_addresses: number;
}

/**
 * Closed conversations whose close is older than their site's retention; tickets (which have no
 * state of their own) whose filing and last reply are both older than it.
 */
async function expiredBatch(kind: "conversations" | "tickets", now: Date): Promise<string[]> {
  const prisma = await db();
  const rows =
    kind === "conversations"
      ? await prisma.$queryRaw<{ id: string }[]>`
          SELECT c."id" FROM "conversations" c JOIN "sites" s ON s."id" = c."site_id"
           WHERE s."retention_days" IS NOT NULL AND c."status" = 'closed'
             AND c."closed_at" < ${now}::timestamptz - make_interval(days => s."retention_days")
           LIMIT ${BATCH_SIZE}`
      : await prisma.$queryRaw<{ id: string }[]>`
          SELECT t."id" FROM "tickets" t JOIN "sites" s ON s."id" = t."site_id"
           WHERE s."retention_days" IS NOT NULL
             AND t."created_at" < ${now}::timestamptz - make_interval(days => s."retention_days")
             AND NOT EXISTS (SELECT 1 FROM "ticket_replies" r WHERE r."ticket_id" = t."id"
                              AND r."created_at" >= ${now}::timestamptz - make_interval(days => s."retention_days"))
           LIMIT ${BATCH_SIZE}`;
  return rows.map((row) => row.id);
}

/**
 * Erases expired conversations, then expired tickets, a batch at a time; answers how many of each.
 * The tables it erased from are scrubbed once at the end (scrubErasedRows), not per batch.
 */
export async function eraseExpiredRecords(now = new Date()): Promise<{ conversations: number; tickets: number }> {
  const prisma = await db();
  const erased = { conversations: 0, tickets: 0 };
  const touched = new Set<string>();
  for (const kind of ["conversations", "tickets"] as const) {
    for (;;) {
      const ids = await paced(async () => {
        const ids = await expiredBatch(kind, now);
        if (ids.length === 0) return ids;
        const scope = kind === "conversations" ? recordsScope(ids, []) : recordsScope([], ids);
        // Bytes first: a storage that fails leaves the rows, and tomorrow's run tries again.
        await removeFiles(await prisma.$transaction((tx) => storedFilesOf(tx, scope)));
        const counts = await prisma.$transaction((tx) => eraseRows(tx, scope, touched), { timeout: 60_000 });
        erased[kind] += counts[kind];
        return ids;
      });
      if (ids.length < BATCH_SIZE) break;
    }
  }
  await scrubErasedRows(touched);
  return erased;
}

// What the daily run prunes by age, besides the records: each table, the column that dates a row,
// and the rows that are never pruned by age. Deliveries still to be attempted and emails still to be
// sent are work, not logs; a suppressed email (never sent) is a log like a sent one.
const PRUNED = {
  webhook_deliveries: { key: "id", dated: "created_at", spare: `AND "status" <> 'pending'` },
  page_views: { key: "id", dated: "created_at", spare: "" },
  visitor_tokens: { key: "id", dated: "expires_at", spare: "" },
  // What pruning kept of a sent email's unsubscribe link, once the link itself has expired.
  pruned_unsubscribe_links: { key: "email_id", dated: "email_created_at", spare: "" },
} as const;

/** Deletes rows of one table dated before the cutoff, BATCH_SIZE per statement; answers how many. */
async function pruneTable(table: keyof typeof PRUNED, cutoff: Date): Promise<number> {
  const prisma = await db();
  const { key, dated, spare } = PRUNED[table];
  let pruned = 0;
  for (;;) {
    const deleted = await paced(() =>
      prisma.$executeRawUnsafe(`DELETE FROM "${table}" WHERE "${key}" IN (SELECT "${key}" FROM "${table}" WHERE "${dated}" < $1 ${spare} LIMIT ${BATCH_SIZE})`, cutoff),
    );
    pruned += deleted;
    if (deleted < BATCH_SIZE) return pruned;
  }
}

/**
 * Deletes outbox emails dated before the cutoff (never one still to be sent), BATCH_SIZE at a time;
 * a sent email's unsubscribe link is kept working by the record written in the same transaction
 * (lib/email/suppression/pruned-links.ts), hashed before it. Answers how many.
 */
async function pruneEmails(cutoff: Date): Promise<number> {
  const prisma = await db();
  const where = { createdAt: { lt: cutoff }, status: { not: "pending" } };
  let pruned = 0;
  for (;;) {
    const { found, deleted } = await paced(async () => {
      const batch = await prisma.email.findMany({
        where,
        take: BATCH_SIZE,
        select: { id: true, kind: true, status: true, recipient: true, siteId: true, conversationId: true, ticketId: true, createdAt: true },
      });
      const links = await prunedLinks(batch);
      const [, deleted] = await prisma.$transaction([
        prisma.prunedUnsubscribeLink.createMany({ data: links, skipDuplicates: true }),
        prisma.email.deleteMany({ where: { ...where, id: { in: batch.map((email) => email.id) } } }),
      ]);
      return { found: batch.length, deleted: deleted.count };
    });
    pruned += deleted;
    if (found < BATCH_SIZE) return pruned;
  }
}

/**
 * Suppression-list entries older than the cutoff keep only their address's keyed hash
 * (suppressions.ts `addressHash`), BATCH_SIZE at a time: the entry still holds (drafts are matched
 * by hash too) for as long as it stays on the list, but the address itself is not kept in the
 * clear longer than the logs that named it. Answers how many.
 */
async function forgetSuppressedAddresses(cutoff: Date): Promise<number> {
  const sql = await sqlExecutor();
  let forgotten = 0;
  for (;;) {
    const done = await paced(() => hashSuppressedAddresses(sql, cutoff, BATCH_SIZE));
    forgotten += done;
    if (done < BATCH_SIZE) return forgotten;
  }
}

/**
 * Prunes delivery logs, outbox emails and page views older than `days` (default LOG_RETENTION_DAYS),
 * keeps suppressed addresses that old only as their hash, and deletes the records of unsubscribe
 * links that have expired (pruned-links.ts `UNSUBSCRIBE_LINK_DAYS`).
 */
export async function pruneLogs(now = new Date(), days = env().LOG_RETENTION_DAYS) {
  const cutoff = new Date(now.getTime() - days * DAY_MS);
  return {
    webhook_deliveries: await pruneTable("webhook_deliveries", cutoff),
    emails: await pruneEmails(cutoff),
    page_views: await pruneTable("page_views", cutoff),
    unsubscribe_links: await pruneTable("pruned_unsubscribe_links", unsubscribeLinksSince(now)),
    suppressed_addresses: await forgetSuppressedAddresses(cutoff),
  };
}

/**
 * Prunes visitor tokens expired for more than TOKEN_GRACE_DAYS (rotated ones included: they carry
 * their first expiry). Within the grace an expired token still answers 401 `token_expired`, which
 * tells the widget to start over; after it, the plain 401 of an unknown token.
 */
export const TOKEN_GRACE_DAYS = 30;
export const pruneExpiredTokens = (now = new Date()) => pruneTable("visitor_tokens", new Date(now.getTime() - TOKEN_GRACE_DAYS * DAY_MS));

/** Prunes audit events older than AUDIT_RETENTION_DAYS; 0 keeps them all. */
async function pruneAudit(): Promise<number> {
  const days = env().AUDIT_RETENTION_DAYS;
  return days === 0 ? 0 : pruneAuditEvents(days, BATCH_SIZE);
}

/**
 * The queue's job: claims today (UTC) in `settings` — one instance wins, the others and later
 * asks of the same day find it taken — then runs retention. Null when today was already claimed.
 */
export async function runDailyRetention(now = new Date()): Promise<RetentionCounts | null> {
  const day = now.toISOString().slice(0, 10);
  const claimed = await (await db()).$queryRaw<{ key: string }[]>`
    INSERT INTO "settings" ("key", "value") VALUES ('retention_last_day', ${day})
    ON CONFLICT ("key") DO UPDATE SET "value" = EXCLUDED."value" WHERE "settings"."value" < EXCLUDED."value"
    RETURNING "key"`;
  return claimed.length ? runRetention(now) : null;
}

/** Retention's work: all of the above. */
export async function runRetention(now = new Date()): Promise<RetentionCounts> {
  const counts = {
    ...(await eraseExpiredRecords(now)),
    ...(await pruneLogs(now)),
    visitor_tokens: await pruneExpiredTokens(now),
    audit_events: await pruneAudit(),
    unsent_uploads: await pruneUnsentUploads(now),
  };
  log.info("retention_done", { ...counts });
  return counts;
}
