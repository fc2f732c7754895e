import { db } from "../db/client";
import type { Prisma } from "../generated/prisma/client";
import { encodeKeysetCursor } from "../core/validation/cursors";
import type { AuditEventWire, AuditFilters, AuditQuery } from "../contracts/audit";

// Reading the audit log: newest first, filtered by actor, action (or a kind, `webhook.*`) and a
// time range, paged by a keyset cursor over (at, id) — the table's (at DESC, id DESC) index.

function whereOf(filters: AuditFilters, cursor?: AuditQuery["cursor"]): Prisma.AuditEventWhereInput {
  const and: Prisma.AuditEventWhereInput[] = [];
  if (filters.actor) and.push({ actor: filters.actor });
  if (filters.action?.endsWith(".*")) and.push({ action: { startsWith: filters.action.slice(0, -1) } });
  else if (filters.action) and.push({ action: filters.action });
  if (filters.from) and.push({ at: { gte: filters.from } });
  if (filters.to) and.push({ at: { lt: filters.to } });
  if (cursor) and.push({ OR: [{ at: { lt: cursor.at } }, { at: cursor.at, id: { lt: cursor.id } }] });
  return { AND: and };
}

type AuditRow = Prisma.AuditEventGetPayload<object>;

const toWire = (row: AuditRow): AuditEventWire => ({
  id: row.id,
  at: row.at.toISOString(),
  actor: row.actor,
  actor_member_id: row.actorMemberId,
  action: row.action,
  target: row.target,
  ip: row.ip,
  details: (row.details ?? {}) as Record<string, unknown>,
});

const NEWEST_FIRST = [{ at: "desc" }, { id: "desc" }] as const satisfies Prisma.AuditEventOrderByWithRelationInput[];

export async function listAudit(query: AuditQuery) {
  const rows = await (await db()).auditEvent.findMany({
    where: whereOf(query, query.cursor),
    orderBy: [...NEWEST_FIRST],
    take: query.limit + 1,
  });
  const items = rows.slice(0, query.limit).map(toWire);
  const hasMore = rows.length > query.limit;
  const last = rows[query.limit - 1];
  return { items, next_cursor: hasMore && last ? encodeKeysetCursor(last) : null, has_more: hasMore };
}

/** Every matching row, newest first, up to `max`. */
export async function auditRows(filters: AuditFilters, max: number): Promise<AuditEventWire[]> {
  const rows = await (await db()).auditEvent.findMany({ where: whereOf(filters), orderBy: [...NEWEST_FIRST], take: max });
  return rows.map(toWire);
}
