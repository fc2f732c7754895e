import { randomUUID } from "node:crypto";
import { db, type PrismaClient } from "../db";
import { isEmbeddedDatabase } from "../env";
import { AppError } from "../http/errors";
import { Prisma } from "../generated/prisma/client";
import { MESSAGE_CHANNEL, signalMessage } from "../realtime/message-signals";
import { fromMessageSqlRow, MESSAGE_SQL_COLUMNS, toWireMessage, type MessageSqlRow, type WireMessage } from "./message-view";

type Transaction = Parameters<Parameters<PrismaClient["$transaction"]>[0]>[0];

export interface NewMessage {
  conversationId: string;
  authorType: "visitor" | "staff" | "system";
  authorId: string;
  memberId?: string;
  kind: "message" | "note";
  body: string;
  clientId: string;
}

export interface Appended {
  message: WireMessage;
  duplicate: boolean;
}

/**
 * Appends a message with the next sequence. The conversation row is locked first, so concurrent
 * appends queue up and sequences are 1, 2, 3… with no gap or repeat (the increment and the
 * insert commit or roll back together). A `clientId` already used in
 * the conversation returns the stored message (`duplicate`) when the body matches, else 409.
 */
export async function appendMessage(message: NewMessage): Promise<Appended> {
  const appended = await (await db()).$transaction((tx) => appendInTransaction(tx, message));
  // Embedded mode has no NOTIFY listener: wake this process's long-polls once committed.
  if (wakesVisitors(message, appended) && isEmbeddedDatabase()) signalMessage(message.conversationId);
  return appended;
}

const wakesVisitors = (message: NewMessage, appended: Appended) => !appended.duplicate && message.kind === "message";

export async function appendInTransaction(tx: Transaction, message: NewMessage): Promise<Appended> {
  const locked = await tx.$queryRaw<{ status: string; visitor_name: string | null }[]>`
    SELECT status, visitor_name FROM conversations WHERE id = ${message.conversationId} FOR UPDATE`;
  const conversation = locked[0];
  if (!conversation) throw new AppError("conversation_not_found", "No conversation has this identifier.");

  const [existing] = await tx.$queryRaw<MessageSqlRow[]>`
    SELECT ${Prisma.raw(MESSAGE_SQL_COLUMNS)}
    FROM messages m LEFT JOIN members mem ON mem.id = m.member_id
    WHERE m.conversation_id = ${message.conversationId} AND m.client_id = ${message.clientId}`;
  if (existing) {
    if (existing.body !== message.body || existing.author_type !== message.authorType || existing.kind !== message.kind) {
      throw new AppError("client_id_conflict", "This client_id was already used for a different message.");
    }
    return { message: toWireMessage(fromMessageSqlRow(existing), conversation.visitor_name), duplicate: true };
  }
  if (conversation.status !== "open") {
    throw new AppError("conversation_closed", "This conversation has been closed.");
  }

  // One statement: take the next sequence, store the message, read its author, and (for public
  // messages) NOTIFY long-polls in every process — delivered on commit, never on rollback.
  const notify = message.kind === "message" ? Prisma.sql`, pg_notify(${MESSAGE_CHANNEL}, m.conversation_id)::text AS notified` : Prisma.empty;
  const [stored] = await tx.$queryRaw<MessageSqlRow[]>`
    WITH bumped AS (
      UPDATE conversations SET last_sequence = last_sequence + 1 WHERE id = ${message.conversationId}
      RETURNING last_sequence
    ), m AS (
      INSERT INTO messages (id, conversation_id, sequence, client_id, author_type, author_id, member_id, kind, body)
      SELECT ${randomUUID()}, ${message.conversationId}, bumped.last_sequence, ${message.clientId}, ${message.authorType},
             ${message.authorId}, ${message.memberId ?? null}, ${message.kind}, ${message.body}
      FROM bumped
      RETURNING *
    )
    SELECT ${Prisma.raw(MESSAGE_SQL_COLUMNS)} ${notify}
    FROM m LEFT JOIN members mem ON mem.id = m.member_id`;
  return { message: toWireMessage(fromMessageSqlRow(stored!), conversation.visitor_name), duplicate: false };
}
