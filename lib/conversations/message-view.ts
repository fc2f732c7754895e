import type { Member, Message, MessageAttachment } from "../generated/prisma/client";
import type { TimelineEvent } from "./timeline";
import type { OuterJoined, SqlRow } from "../core/sql-row";

// The wire shape of a message (snake_case, as in the spec).

export type AttachmentRow = Pick<MessageAttachment, "id" | "name" | "contentType" | "bytes">;

/** `noteNumber`: 0 for a public message; a note's number (staff views only). */
export type MessageRow = Pick<
  Message,
  "id" | "conversationId" | "sequence" | "noteNumber" | "clientId" | "authorType" | "authorId" | "kind" | "body" | "createdAt" | "event" | "sources"
> & { member: Pick<Member, "name" | "avatarTag" | "bot"> | null; attachments: AttachmentRow[] };

export const messageInclude = {
  member: { select: { name: true, avatarTag: true, bot: true } },
  attachments: { select: { id: true, name: true, contentType: true, bytes: true }, orderBy: { position: "asc" } },
} as const;

/**
 * Hand-written SQL on the hot paths selects these columns from `messages m LEFT JOIN members mem`.
 * A message's files come in the same statement, and are looked for only where it has some.
 */
export const MESSAGE_SQL_COLUMNS = `m.id, m.sequence, m.note_number, m.conversation_id, m.client_id, m.author_type, m.author_id, m.kind,
  m.body, m.created_at, m.event, m.sources, mem.name AS member_name, mem.avatar_tag AS member_avatar_tag, mem.bot AS member_bot,
  CASE WHEN m.has_attachments THEN (
    SELECT json_agg(json_build_object('id', a.id, 'name', a.name, 'content_type', a.content_type, 'bytes', a.bytes) ORDER BY a.position)
    FROM message_attachments a WHERE a.message_id = m.id
  ) END AS attachments`;

/** An attachment as MESSAGE_SQL_COLUMNS aggregates it. */
export type AttachmentSqlRow = SqlRow<MessageAttachment, "id" | "name" | "content_type" | "bytes">;

export type MessageSqlRow = SqlRow<
  Message,
  "id" | "sequence" | "note_number" | "conversation_id" | "client_id" | "author_type" | "author_id" | "kind" | "body" | "created_at" | "event" | "sources"
> &
  OuterJoined<SqlRow<Member, never, { member_name: "name"; member_avatar_tag: "avatarTag"; member_bot: "bot" }>> & {
    attachments: AttachmentSqlRow[] | null;
  };

export const fromAttachmentSqlRow = (row: AttachmentSqlRow): AttachmentRow => ({ id: row.id, name: row.name, contentType: row.content_type, bytes: row.bytes });

export function fromMessageSqlRow(row: MessageSqlRow): MessageRow {
  return {
    id: row.id,
    conversationId: row.conversation_id,
    sequence: row.sequence,
    noteNumber: row.note_number,
    clientId: row.client_id,
    authorType: row.author_type,
    authorId: row.author_id,
    kind: row.kind,
    body: row.body,
    createdAt: row.created_at,
    event: row.event,
    sources: row.sources,
    member: row.member_name === null ? null : { name: row.member_name, avatarTag: row.member_avatar_tag, bot: row.member_bot === true },
    attachments: (row.attachments ?? []).map(fromAttachmentSqlRow),
  };
}

export const avatarPath = (memberId: string) => `/api/v1/chat/visitor/avatars/${encodeURIComponent(memberId)}`;

/** Where each side downloads a conversation's file: the visitor with its token, staff signed in. */
export const visitorAttachmentPath = (id: string) => `/api/v1/chat/visitor/attachments/${encodeURIComponent(id)}`;
export const inboxAttachmentPath = (id: string) => `/api/v1/inbox/attachments/${encodeURIComponent(id)}`;

const toWireAttachments = (attachments: AttachmentRow[], path: (id: string) => string) =>
  attachments.map((attachment) => ({
    id: attachment.id,
    name: attachment.name,
    content_type: attachment.contentType,
    bytes: attachment.bytes,
    url: path(attachment.id),
  }));

export type MessageEvent = "conversation_closed" | "conversation_reopened" | "handoff_requested";

/** An article an answer was drawn from. */
export interface MessageSource {
  article_id: string;
  title: string;
  url: string;
}
/** What staff may see in `event`: the public events and the staff-only timeline's (lib/conversations/timeline.ts). */
export type StaffMessageEvent = MessageEvent | TimelineEvent;

/**
 * `visitorName` names the conversation's visitor; staff names and pictures come from the member.
 * A system message also carries its `event`, which clients act on (never on its text).
 */
export function toWireMessage(row: MessageRow, visitorName: string | null) {
  // A system line's member (who closed or reopened) is the staff side's to know, never the visitor's.
  const member = row.authorType === "system" ? null : row.member;
  const authorName = row.authorType === "visitor" ? visitorName : (member?.name ?? null);
  const authorAvatar = member?.avatarTag ? avatarPath(row.authorId) : null;
  const wire: {
    id: string;
    sequence: number;
    conversation_id: string;
    client_id: string;
    author_id: string;
    author_type: string;
    kind: string;
    body: string;
    created_at: string;
    author_name: string | null;
    author_avatar: string | null;
    event?: MessageEvent;
    attachments: ReturnType<typeof toWireAttachments>;
    sources: MessageSource[];
  } = {
    id: row.id,
    sequence: row.sequence,
    conversation_id: row.conversationId,
    client_id: row.clientId,
    author_id: row.authorId,
    author_type: row.authorType,
    kind: row.kind,
    body: row.body,
    created_at: row.createdAt.toISOString(),
    author_name: authorName,
    author_avatar: authorAvatar,
    attachments: toWireAttachments(row.attachments, visitorAttachmentPath),
    sources: (row.sources ?? []) as unknown as MessageSource[], // written only by appendMessage from MessageSource[]
  };
  if (row.event) wire.event = row.event as MessageEvent;
  return wire;
}

export type WireMessage = ReturnType<typeof toWireMessage>;

/**
 * The staff side's shape (operator API): the wire message plus `note_number`, 0 for a public
 * message. A note's `sequence` is the public sequence it follows; order by (sequence, note_number).
 */
export function toStaffWireMessage(row: MessageRow, visitorName: string | null) {
  return { ...toInboxWireMessage(row, visitorName), note_number: row.noteNumber };
}

/**
 * The inbox's shape: the wire message, whether a bot wrote it, and its files as staff download them.
 * A close or reopen line names the member who did it (`author_name`, null when the operator API did);
 * a timeline event (a read through Prisma has its `details`) carries them; a note its mentions.
 */
export function toInboxWireMessage(row: MessageRow & { details?: unknown; mentions?: { memberId: string }[] }, visitorName: string | null) {
  const { event, ...wire } = toWireMessage(row, visitorName);
  return {
    ...wire,
    author_name: row.authorType === "system" ? (row.member?.name ?? null) : wire.author_name,
    ...(event ? { event: event as StaffMessageEvent } : {}),
    ...(row.details ? { details: row.details as Record<string, unknown> } : {}),
    ...(row.mentions && row.mentions.length > 0 ? { mentions: row.mentions.map((mention) => mention.memberId) } : {}),
    author_bot: row.member?.bot ?? false,
    attachments: toWireAttachments(row.attachments, inboxAttachmentPath),
  };
}

/** The webhooks' shape: the wire message, its files at the staff side's download (never the visitor's). */
export function toWebhookWireMessage(row: MessageRow, visitorName: string | null) {
  return { ...toWireMessage(row, visitorName), attachments: toWireAttachments(row.attachments, inboxAttachmentPath) };
}

export type StaffWireMessage = ReturnType<typeof toStaffWireMessage>;
