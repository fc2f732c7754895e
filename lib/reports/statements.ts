import { Prisma } from "../generated/prisma/client";
import type { Conversation, Member, Site } from "../generated/prisma/client";
import { db, type PrismaClient } from "../db/client";
import type { SqlRow } from "../core/sql-row";
import type { ServiceHours } from "../service-hours/service-hours";
import type { TimelineEntry } from "./metrics";

// The reports' SQL and its rows. A conversation's timeline travels as two strings (one letter per
// public message: v visitor, s staff, b bot, c closed, r reopened; and their times in ms), one row
// per conversation: a 30-day report reads tens of thousands of timelines (docs/reports.md).

type TimelineRow = SqlRow<Conversation, "site_id" | "assigned_member_id" | "created_at", { conversation_id: "id" }> & {
  kinds: string | null;
  ats: string | null;
  /** Each entry's member (a reply's author, a close's closer), '' for none. */
  members: string | null;
};

// One lateral read per conversation walks its messages by the (conversation_id, sequence) index;
// a join grouped afterwards lets the planner scan every message of the table (docs/reports.md).
const TIMELINE_COLUMNS = Prisma.sql`
  c.id AS conversation_id, c.site_id, c.assigned_member_id, c.created_at, t.kinds, t.ats, t.members`;

const TIMELINE_MESSAGES = Prisma.sql`
  LEFT JOIN LATERAL (
    SELECT string_agg(CASE WHEN m.author_type = 'visitor' THEN 'v'
                           WHEN m.author_type = 'staff' AND COALESCE(mb.bot, false) THEN 'b'
                           WHEN m.author_type = 'staff' THEN 's'
                           WHEN m.event = 'conversation_closed' THEN 'c'
                           ELSE 'r' END, '' ORDER BY m.sequence) AS kinds,
           string_agg((extract(epoch FROM m.created_at) * 1000)::bigint::text, ',' ORDER BY m.sequence) AS ats,
           string_agg(coalesce(m.member_id, ''), ',' ORDER BY m.sequence) AS members
      FROM messages m LEFT JOIN members mb ON mb.id = m.member_id
     WHERE m.conversation_id = c.id AND m.kind = 'message'
       AND (m.author_type <> 'system' OR m.event IN ('conversation_closed', 'conversation_reopened'))
  ) t ON true`;

const KINDS: Record<string, TimelineEntry["kind"]> = { v: "visitor", s: "staff", b: "staff", c: "closed", r: "reopened" };

function toTimeline(row: TimelineRow): TimelineEntry[] {
  if (!row.kinds || !row.ats) return [];
  const times = row.ats.split(",");
  const members = (row.members ?? "").split(",");
  return Array.from(row.kinds, (letter, index) => {
    const at = new Date(Number(times[index]));
    const memberId = members[index] || null;
    if (letter === "s" || letter === "b") return { at, kind: "staff", bot: letter === "b", memberId };
    return letter === "c" ? { at, kind: "closed", memberId } : ({ at, kind: KINDS[letter]! } as TimelineEntry);
  });
}

export interface ConversationTimeline {
  conversationId: string;
  siteId: string;
  assignedMemberId: string | null;
  createdAt: Date;
  timeline: TimelineEntry[];
}

const toConversationTimeline = (row: TimelineRow): ConversationTimeline => ({
  conversationId: row.conversation_id,
  siteId: row.site_id,
  assignedMemberId: row.assigned_member_id,
  createdAt: row.created_at,
  timeline: toTimeline(row),
});

export async function timelineOf(conversationId: string): Promise<ConversationTimeline | null> {
  const rows = await (await db()).$queryRaw<TimelineRow[]>`
    SELECT ${TIMELINE_COLUMNS} FROM conversations c ${TIMELINE_MESSAGES}
    WHERE c.id = ${conversationId}`;
  return rows[0] ? toConversationTimeline(rows[0]) : null;
}

type Client = Pick<PrismaClient, "$queryRaw">;

/** The timelines of these conversations (those that exist), read with `client` (a transaction's, to measure what it locked). */
export async function timelinesOf(client: Client, conversationIds: string[]): Promise<ConversationTimeline[]> {
  const rows = await client.$queryRaw<TimelineRow[]>`
    SELECT ${TIMELINE_COLUMNS} FROM conversations c ${TIMELINE_MESSAGES}
    WHERE c.id = ANY(${conversationIds}::text[])`;
  return rows.map(toConversationTimeline);
}

export interface SiteSchedule extends ServiceHours {
  siteId: string;
  name: string;
}

type SiteRow = SqlRow<Site, "id" | "name" | "timezone" | "hours" | "holidays">;

/** Every site's hours (`siteId`: that one site's; empty when it does not exist). */
export async function siteSchedules(siteId: string | null, client?: Client): Promise<SiteSchedule[]> {
  const rows = await (client ?? (await db())).$queryRaw<SiteRow[]>`
    SELECT id, name, timezone, hours, holidays FROM sites WHERE (${siteId}::text IS NULL OR id = ${siteId})`;
  // hours is written only through serviceHoursFields (lib/contracts/service-hours.ts)
  return rows.map((row) => ({ siteId: row.id, name: row.name, timezone: row.timezone, hours: row.hours as ServiceHours["hours"], holidays: row.holidays }));
}

export async function memberNames(ids: string[]): Promise<Map<string, string>> {
  if (ids.length === 0) return new Map();
  const rows = await (await db()).$queryRaw<SqlRow<Member, "id" | "name">[]>`SELECT id, name FROM members WHERE id = ANY(${ids}::text[])`;
  return new Map(rows.map((row) => [row.id, row.name]));
}
