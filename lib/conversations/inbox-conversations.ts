import type { z } from "zod";
import { db, queryPrepared, type PreparedStatement } from "../db/client";
import { toInboxWireConversation } from "./conversation-view";
import type { Conversation, ConversationRead, Label, Member, Message, Site, Team } from "../generated/prisma/client";
import { visibleConversationSql } from "../teams/visibility";
import { assertMaySee, viewerOf } from "../teams/access";
import { AppError } from "../core/errors";
import type { inboxConversationSummary } from "../contracts/inbox-wire";
import { messageInclude, toInboxWireMessage } from "./message-view";
import { livePresence } from "./presence";
import { markRead } from "./staff-commands";
import type { OuterJoined, SqlRow } from "../core/sql-row";
import type { StaffMember } from "../staff/sessions";
import { encodeKeysetCursor, MAX_CURSOR_EPOCH_MS } from "../core/validation/cursors";
import { visitorLook } from "../visitors/generated-name";
import { readVisitorContext } from "../visitors/visitor-context";
import type { ConversationListQuery } from "../contracts/inbox";
import { conversationMetrics } from "../reports/conversation-metrics";
import { ATTRIBUTE_FILTER_SQL } from "../attributes/statements";
import { attributeFilterParams } from "../attributes/filters";
import { storedAttributes, storedConsent } from "../attributes/stored";
import { DUE_SOON_MINUTES } from "../contracts/sla";
import { refreshStaleSla } from "../sla/refresh";
import { toWireSla } from "../sla/wire";

// The inbox's reads of conversations: the list (newest activity first, unread per member) and a
// whole conversation (which marks it read). What a member does to one is in staff-commands.ts.
// The preview is the last public message (no note, no system line) with who wrote it, so the
// visitor's question is not hidden behind a note or "This conversation was closed."
// Activity and the last visitor message are kept on the conversation row by a trigger on messages
// (migration 20261123020000), so the list is one index walk, whatever its size; the label filter
// checks each conversation of that walk against conversation_labels (migration 20261126010000),
// or, for a label on few conversations or the member's few mentions, reads just those (Source, below).

const conversationNotFound = () => new AppError("conversation_not_found", "No conversation has this identifier.");

/** INBOX_PAGE's row; `unread` is a count. */
type ListRow = SqlRow<
  Conversation,
  | "id"
  | "site_id"
  | "status"
  | "visitor_id"
  | "browser_visitor_id"
  | "visitor_name"
  | "visitor_email"
  | "assigned_member_id"
  | "last_activity_at"
  | "created_at"
  | "identity_verified"
  | "snoozed_until"
  | "waiting_since"
  | "team_id"
  | "attributes"
  | "consent"
  | "sla_policy_id"
  | "sla_first_response_due_at"
  | "sla_next_response_due_at"
  | "sla_resolution_due_at"
  | "sla_breaches"
  | "sla_due_at"
> &
  SqlRow<Site, never, { site_name: "name" }> &
  OuterJoined<SqlRow<Team, never, { team_name: "name" }>> &
  SqlRow<ConversationRead, "read_sequence"> &
  OuterJoined<SqlRow<Member, never, { assigned_name: "name" }>> &
  OuterJoined<SqlRow<Message, never, { preview_body: "body"; preview_author_type: "authorType"; preview_kind: "kind" }>> &
  OuterJoined<SqlRow<Member, never, { preview_author_name: "name" }>> & {
    unread: bigint | number;
    /** The latest rating's score (the list's badge). */
    rating_score: number | null;
    /** json_agg of the conversation's labels, by name (the drivers parse json). */
    labels: SqlRow<Label, "id" | "name" | "color">[];
  };

export type ConversationSummary = z.infer<typeof inboxConversationSummary>;
type LastMessage = NonNullable<ConversationSummary["last_message"]>;

// Sorted by waiting, a conversation nobody waits on sorts (and pages) as if it waited since this
// time, after every waiting one: its cursor names the latest time a cursor may hold.
const NOT_WAITING = new Date(MAX_CURSOR_EPOCH_MS).toISOString();

/** Each sort's order (an index walk: last_activity_at's, or waiting_since's) and where a cursor resumes it. */
const SORTS = {
  newest: { order: "c.last_activity_at DESC, c.id DESC", after: "(c.last_activity_at, c.id) < ($5, $6::text)" },
  waiting: { order: "c.waiting_since ASC NULLS LAST, c.id ASC", after: `(COALESCE(c.waiting_since, '${NOT_WAITING}'), c.id) > ($5, $6::text)` },
  // The soonest SLA due time first (an overdue one is soonest), then those without one (docs/sla.md).
  sla: { order: "c.sla_due_at ASC NULLS LAST, c.id ASC", after: `(COALESCE(c.sla_due_at, '${NOT_WAITING}'), c.id) > ($5, $6::text)` },
} as const;

/**
 * Where a page's rows come from: a walk of every conversation in the sort's order, each checked
 * against the filters (a page ends as soon as it is full), or, for a label on few conversations
 * or the member's few mentions, those conversations, sorted. A walk for a filter that matches
 * little goes on through the whole table: at 1,000,000 conversations a label no open conversation
 * carries took 261 ms and "mentioning me" 510 ms (docs/performance.md).
 */
type Source = "walk" | "label" | "mentions";
const FROM: Record<Source, string> = {
  walk: "conversations c",
  label: "conversation_labels fl JOIN conversations c ON c.id = fl.conversation_id",
  mentions: "(SELECT DISTINCT conversation_id FROM message_mentions WHERE member_id = $1) fm JOIN conversations c ON c.id = fm.conversation_id",
};
const LABEL_FILTER = "($8::text IS NULL OR EXISTS (SELECT 1 FROM conversation_labels fl WHERE fl.conversation_id = c.id AND fl.label_id = $8))";
const MENTION_FILTER = "($14::text IS NULL OR EXISTS (SELECT 1 FROM message_mentions fm WHERE fm.member_id = $1 AND fm.conversation_id = c.id))";
const FILTERS: Record<Source, { label: string; mentioned: string }> = {
  walk: { label: LABEL_FILTER, mentioned: MENTION_FILTER },
  label: { label: "fl.label_id = $8", mentioned: MENTION_FILTER },
  // $14 is still named: PostgreSQL cannot type a parameter a statement leaves out.
  mentions: { label: LABEL_FILTER, mentioned: "$14::text IS NOT NULL" },
};

/** A label on at most this many conversations (or a member with at most this many mentions) is read from its own rows rather than walked to. */
export const FEW_ROWS = 2_000;

const COUNT_UP_TO_FEW = (table: string, column: string): PreparedStatement => ({
  name: `inbox_count_few_${table}`,
  text: `SELECT count(*) AS n FROM (SELECT 1 FROM ${table} WHERE ${column} = $1 LIMIT ${FEW_ROWS + 1}) few`,
});
const COUNT_LABELLED = COUNT_UP_TO_FEW("conversation_labels", "label_id");
const COUNT_MENTIONS = COUNT_UP_TO_FEW("message_mentions", "member_id");

const atMost = async (statement: PreparedStatement, value: string, few: number) =>
  Number((await queryPrepared<{ n: bigint | number | string }>(statement, [value]))[0]?.n ?? 0) <= few;

/** Where the page is read from: a label's or the member's mentions' rows when they are `few` or fewer, else the walk. */
async function sourceOf(member: StaffMember, query: ConversationListQuery, few: number): Promise<Source> {
  if (few < 0) return "walk";
  if (query.label !== undefined && (await atMost(COUNT_LABELLED, query.label, few))) return "label";
  if (query.mentioned !== undefined && (await atMost(COUNT_MENTIONS, member.id, few))) return "mentions";
  return "walk";
}

// Prepared (one plan per connection): the list is the inbox's commonest read, re-read on every
// live event by every open inbox. Filters are parameters; null means "any".
const inboxPage = (sort: keyof typeof SORTS, source: Source): PreparedStatement => ({
  name: `inbox_conversation_page_${sort}${source === "walk" ? "" : `_${source}`}`,
  text: `
    WITH page AS (
      SELECT c.* FROM ${FROM[source]}
      WHERE ($2::text IS NULL OR c.site_id = $2)
        AND ($3::text IS NULL OR c.status = $3)
        AND ($4::text IS NULL OR ($4 = 'me' AND c.assigned_member_id = $1) OR ($4 = 'unassigned' AND c.assigned_member_id IS NULL))
        AND ($5::timestamptz IS NULL OR ${SORTS[sort].after})
        AND ${FILTERS[source].label}
        AND ($9::text IS NULL OR ($9 = 'none' AND c.team_id IS NULL) OR c.team_id = $9)
        AND ${ATTRIBUTE_FILTER_SQL}
        AND ($13::text IS NULL OR ($13 = 'breached' AND c.sla_breached_at IS NOT NULL)
             OR ($13 = 'due_soon' AND c.sla_due_at > statement_timestamp() AND c.sla_due_at <= statement_timestamp() + make_interval(mins => ${DUE_SOON_MINUTES})))
        AND ${FILTERS[source].mentioned}
        AND ${visibleConversationSql({ row: "c", member: "$1", role: "$10" })}
      ORDER BY ${SORTS[sort].order}
      LIMIT $7
    )
    SELECT c.id, c.site_id, s.name AS site_name, c.status, c.visitor_id, c.browser_visitor_id, c.visitor_name, c.visitor_email,
           c.assigned_member_id, am.name AS assigned_name, c.last_activity_at, c.created_at,
           COALESCE(r.read_sequence, 0) AS read_sequence,
           (SELECT count(*) FROM messages um
             WHERE um.conversation_id = c.id AND um.author_type = 'visitor'
               AND um.sequence > COALESCE(r.read_sequence, 0)) AS unread,
           lm.body AS preview_body, lm.author_type AS preview_author_type, lm.kind AS preview_kind, lm.author_name AS preview_author_name,
           c.identity_verified, c.snoozed_until, c.waiting_since, c.team_id, tm.name AS team_name, c.attributes, c.consent,
           c.sla_policy_id, c.sla_first_response_due_at, c.sla_next_response_due_at, c.sla_resolution_due_at, c.sla_breaches, c.sla_due_at,
           (SELECT COALESCE(json_agg(json_build_object('id', l.id, 'name', l.name, 'color', l.color) ORDER BY l.name_key, l.id), '[]'::json)
              FROM conversation_labels cl JOIN labels l ON l.id = cl.label_id
             WHERE cl.conversation_id = c.id) AS labels,
           (SELECT cr.score FROM conversation_ratings cr WHERE cr.conversation_id = c.id ORDER BY cr.closed_at DESC LIMIT 1) AS rating_score
    FROM page c
    JOIN sites s ON s.id = c.site_id
    LEFT JOIN members am ON am.id = c.assigned_member_id
    LEFT JOIN teams tm ON tm.id = c.team_id
    LEFT JOIN conversation_reads r ON r.conversation_id = c.id AND r.member_id = $1
    LEFT JOIN LATERAL (
      SELECT m.body, m.author_type, m.kind, pm.name AS author_name FROM messages m
      LEFT JOIN members pm ON pm.id = m.member_id
      WHERE m.conversation_id = c.id AND m.kind = 'message' AND m.author_type <> 'system'
      ORDER BY m.sequence DESC LIMIT 1
    ) lm ON true
    ORDER BY ${SORTS[sort].order}`,
});
const pagesOf = (source: Source) => ({ newest: inboxPage("newest", source), waiting: inboxPage("waiting", source), sla: inboxPage("sla", source) });
const INBOX_PAGES: Record<Source, Record<keyof typeof SORTS, PreparedStatement>> = { walk: pagesOf("walk"), label: pagesOf("label"), mentions: pagesOf("mentions") };

/** `fewRows`: tests set -1 to walk for every filter (every source must list alike). */
export async function listInboxConversations(member: StaffMember, query: ConversationListQuery, { fewRows = FEW_ROWS } = {}) {
  const before = query.cursor?.at ?? null;
  const beforeId = query.cursor?.id ?? null;
  const assigned = query.assigned === "all" ? null : query.assigned;
  const status = query.status === "all" ? null : query.status;
  await refreshStaleSla(); // the SLA columns the page reads are up to date (lib/sla/refresh.ts)
  // The page first (a walk down the last_activity_at or waiting_since index), then per row its preview and unread count.
  const rows = await queryPrepared<ListRow>(INBOX_PAGES[await sourceOf(member, query, fewRows)][query.sort], [
    member.id,
    query.site ?? null,
    status,
    assigned,
    before,
    beforeId,
    query.limit + 1,
    query.label ?? null,
    query.team ?? null,
    member.role,
    ...(await attributeFilterParams(query.attr)),
    query.sla ?? null,
    query.mentioned ?? null,
  ]);
  const items = rows.slice(0, query.limit).map(toSummary);
  const last = rows.length > query.limit ? rows[query.limit - 1] : undefined;
  if (!last) return { items, next_cursor: null };
  const at =
    query.sort === "waiting"
      ? (last.waiting_since ?? new Date(MAX_CURSOR_EPOCH_MS))
      : query.sort === "sla"
        ? (last.sla_due_at ?? new Date(MAX_CURSOR_EPOCH_MS))
        : last.last_activity_at;
  return { items, next_cursor: encodeKeysetCursor({ at, id: last.id }) };
}

function toSummary(row: ListRow): ConversationSummary {
  const look = visitorLook(row.visitor_name, row.browser_visitor_id ?? row.visitor_id);
  return {
    id: row.id,
    site_id: row.site_id,
    site_name: row.site_name,
    status: row.status as ConversationSummary["status"],
    snoozed_until: row.snoozed_until?.toISOString() ?? null,
    waiting_since: row.waiting_since?.toISOString() ?? null,
    visitor_name: row.visitor_name,
    visitor_email: row.visitor_email,
    assigned_member_id: row.assigned_member_id,
    assigned_member_name: row.assigned_name,
    last_activity_at: row.last_activity_at.toISOString(),
    created_at: row.created_at.toISOString(),
    unread_count: Number(row.unread),
    last_message:
      row.preview_body === null
        ? null
        : {
            body: row.preview_body.slice(0, 140),
            author_type: row.preview_author_type as LastMessage["author_type"],
            kind: row.preview_kind as LastMessage["kind"],
            author_name: row.preview_author_type === "visitor" ? look.display_name : (row.preview_author_name ?? "Staff"),
          },
    identity_verified: row.identity_verified,
    labels: row.labels.map(({ id, name, color }) => ({ id, name, color })),
    visitor_display_name: look.display_name,
    visitor_avatar_color: look.avatar_color,
    rating: row.rating_score === null ? null : { score: row.rating_score },
    team: row.team_id === null ? null : { id: row.team_id, name: row.team_name ?? "" },
    attributes: storedAttributes(row.attributes),
    consent: storedConsent(row.consent),
    sla: toWireSla({
      policyId: row.sla_policy_id,
      firstResponseDueAt: row.sla_first_response_due_at,
      nextResponseDueAt: row.sla_next_response_due_at,
      resolutionDueAt: row.sla_resolution_due_at,
      breaches: row.sla_breaches,
    }),
  };
}

/** How many open conversations the member may see have visitor messages they have not read (the tab title's count). */
const UNREAD_TOTAL: PreparedStatement = {
  name: "inbox_unread_total",
  text: `
    SELECT count(*) AS n FROM conversations c
    LEFT JOIN conversation_reads r ON r.conversation_id = c.id AND r.member_id = $1
    WHERE c.status = 'open' AND c.last_visitor_sequence > COALESCE(r.read_sequence, 0)
      AND ${visibleConversationSql({ row: "c", member: "$1", role: "$2" })}`,
};

export async function unreadConversationCount(member: Pick<StaffMember, "id" | "role">): Promise<number> {
  const [row] = await queryPrepared<{ n: bigint | number | string }>(UNREAD_TOTAL, [member.id, member.role]);
  return Number(row?.n ?? 0);
}

/** One conversation, whole, notes included; reading it marks it read for this member. */
export async function readInboxConversation(member: StaffMember, id: string) {
  await assertMaySee(member, "conversation", id); // the inbox's page reads it without the route
  await refreshStaleSla([id]);
  const prisma = await db();
  const row = await prisma.conversation.findUnique({
    where: { id },
    include: {
      site: { select: { name: true } },
      team: { select: { id: true, name: true } },
      assignedMember: { select: { id: true, name: true } },
      messages: { orderBy: [{ sequence: "asc" }, { noteNumber: "asc" }], include: { ...messageInclude, mentions: { select: { memberId: true } } } },
      labels: { select: { label: { select: { id: true, name: true, color: true } } }, orderBy: [{ label: { nameKey: "asc" } }, { labelId: "asc" }] },
    },
  });
  if (!row) throw conversationNotFound();
  const lastSequence = row.messages.at(-1)?.sequence ?? row.lastSequence;
  await markRead(member.id, id, Math.max(lastSequence, row.lastSequence));
  const [presence, context, metrics] = await Promise.all([livePresence(id, member.id), readVisitorContext(row, await viewerOf(member)), conversationMetrics(id)]);
  const typing = presence.filter((entry) => entry.author_type === "visitor" && entry.typing);
  return {
    ...toInboxWireConversation(row, typing.length > 0),
    messages: row.messages.map((message) => toInboxWireMessage(message, row.visitorName)),
    visitor: context.visitor,
    visitor_conversations: context.conversations,
    metrics,
    sla: toWireSla({
      policyId: row.slaPolicyId,
      firstResponseDueAt: row.slaFirstResponseDueAt,
      nextResponseDueAt: row.slaNextResponseDueAt,
      resolutionDueAt: row.slaResolutionDueAt,
      breaches: row.slaBreaches,
    }),
  };
}

export type InboxConversation = Awaited<ReturnType<typeof readInboxConversation>>;
