import { randomUUID } from "node:crypto";
import { db, queryPrepared, type PreparedStatement, type PrismaClient } from "../db/client";
import { isUniqueViolation } from "../db/errors";
import { isEmbeddedDatabase } from "../core/env";
import type { Conversation } from "../generated/prisma/client";
import { AppError } from "../core/errors";
import { APPEND_MESSAGE, APPEND_MESSAGE_SIGNALLED_AFTER, CONVERSATION_WITH_CLIENT_ID } from "./statements";
import { signalMessage } from "../realtime/message-signals";
import { notifyAfterCommit } from "../realtime/coalesced-notify";
import { INBOX_CHANNEL, MESSAGE_CHANNEL, inboxMessagePayload, isVisibleToVisitor } from "../contracts/events";
import type { OuterJoined, SqlRow } from "../core/sql-row";
import { fromMessageSqlRow, toWireMessage, type MessageRow, type MessageSource, type MessageSqlRow, type WireMessage } from "./message-view";
import { assertUploaded, claimAttachments } from "./message-attachments";

type Transaction = Parameters<Parameters<PrismaClient["$transaction"]>[0]>[0];

export interface NewMessage {
  conversationId: string;
  authorType: "visitor" | "staff" | "system";
  authorId: string;
  memberId?: string;
  kind: "message" | "note";
  body: string;
  clientId: string;
  /** Ids of files uploaded into the conversation by the same side, sent with the message. */
  attachmentIds?: string[];
  /** The articles an answer was drawn from (the bot's always has one or more). */
  sources?: MessageSource[];
}

export interface Appended<Message = WireMessage> {
  message: Message;
  duplicate: boolean;
}

/** How the stored message is shown: the visitor's wire shape unless a staff caller asks for its own. */
export type View<Message> = (row: MessageRow, visitorName: string | null) => Message;

/**
 * Appends a message in one statement (APPEND_MESSAGE_SIGNALLED_AFTER: one round trip, no
 * interactive transaction, as sends are a hot path): a public message takes the next sequence, so
 * the visitor's sequences are 1, 2, 3… with no gap or repeat; a note takes the next note number
 * instead. A `clientId` already used in the conversation returns the stored message (`duplicate`)
 * when the body matches, else 409. Once committed, the message is signalled: on PostgreSQL by this
 * process's next coalesced NOTIFY (the statement commits without one: docs/performance.md, "The
 * notification lock"); on PGlite straight to this process's long-polls.
 */
export async function appendMessage<Message = WireMessage>(
  message: NewMessage,
  view: View<Message> = toWireMessage as View<Message>,
): Promise<Appended<Message>> {
  const embedded = isEmbeddedDatabase();
  // A message with files commits in a transaction of its own, and its NOTIFYs with it; PGlite's go in-process.
  const signalledAfter = !message.attachmentIds && !embedded;
  const append = message.attachmentIds
    ? appendWithAttachments(message, message.attachmentIds, view)
    : insertNext(queryPrepared, signalledAfter ? APPEND_MESSAGE_SIGNALLED_AFTER : APPEND_MESSAGE, message, view);
  const appended = await append.catch((error: unknown) => {
    // A replay of the same client_id committed while this statement waited for the row lock.
    if (isUniqueViolation(error)) return null;
    throw error;
  });
  if (!appended) return explainNothingAppended(queryPrepared, message, view);
  if (signalledAfter) {
    if (isVisibleToVisitor(message)) notifyAfterCommit(MESSAGE_CHANNEL, message.conversationId);
    notifyAfterCommit(INBOX_CHANNEL, inboxMessagePayload(message.conversationId, message.authorType, message.kind));
  }
  // Embedded mode has no NOTIFY listener: wake this process's long-polls once committed.
  if (isVisibleToVisitor(message) && embedded) signalMessage(message.conversationId);
  return appended;
}

/** The same inside a caller's transaction: a new conversation's first message. */
export async function appendInTransaction(tx: Transaction, message: NewMessage): Promise<Appended> {
  const run: Run = (statement, values) => tx.$queryRawUnsafe(statement.text, ...values);
  return (await insertNext(run, APPEND_MESSAGE, message, toWireMessage)) ?? explainNothingAppended(run, message, toWireMessage);
}

type Run = <Row>(statement: PreparedStatement, values: unknown[]) => Promise<Row[]>;

/**
 * A message with files (never a hot path's send): the files are checked first, then the message
 * is appended and the files claimed for it in one transaction, so a refused file stores nothing.
 * A replay (its files already claimed by the stored message) stores nothing and is explained.
 */
async function appendWithAttachments<Message>(message: NewMessage, ids: string[], view: View<Message>): Promise<Appended<Message> | null> {
  const uploader = message.authorType === "visitor" ? "visitor" : "staff";
  await assertUploaded(message.conversationId, uploader, ids);
  return (await db()).$transaction(async (tx) => {
    const run: Run = (statement, values) => tx.$queryRawUnsafe(statement.text, ...values);
    const [stored] = await run<MessageSqlRow & SqlRow<Conversation, "visitor_name">>(APPEND_MESSAGE, appendValues(message));
    if (!stored) return null;
    const attachments = await claimAttachments(tx, stored.id, message.conversationId, uploader, ids);
    return { message: view({ ...fromMessageSqlRow(stored), attachments }, stored.visitor_name), duplicate: false };
  });
}

async function insertNext<Message>(run: Run, statement: PreparedStatement, message: NewMessage, view: View<Message>): Promise<Appended<Message> | null> {
  const [stored] = await run<MessageSqlRow & SqlRow<Conversation, "visitor_name">>(statement, appendValues(message));
  return stored ? { message: view(fromMessageSqlRow(stored), stored.visitor_name), duplicate: false } : null;
}

/** APPEND_MESSAGE's values for a new message. */
export const appendValues = (message: NewMessage): unknown[] => [
  randomUUID(),
  message.conversationId,
  message.clientId,
  message.authorType,
  message.authorId,
  message.memberId ?? null,
  message.kind,
  message.body,
  message.attachmentIds !== undefined,
  message.sources?.length ? JSON.stringify(message.sources) : null,
];

/** The conversation, and the message with that client id if there is one (else its columns are null). */
type ClientIdRow = SqlRow<Conversation, "status" | "visitor_name"> & (MessageSqlRow | (OuterJoined<MessageSqlRow> & { id: null }));

/** Why nothing was appended: no such conversation (404), a replay (the stored message, or 409), or closed (409). */
async function explainNothingAppended<Message>(run: Run, message: NewMessage, view: View<Message>): Promise<Appended<Message>> {
  const [found] = await run<ConversationWithClientId>(CONVERSATION_WITH_CLIENT_ID, [message.conversationId, message.clientId]);
  return explainFound(found, message, view);
}

export type ConversationWithClientId = ClientIdRow;

/** The answer to an append that stored nothing, from CONVERSATION_WITH_CLIENT_ID's row. */
export function explainFound<Message>(found: ConversationWithClientId | undefined, message: NewMessage, view: View<Message>): Appended<Message> {
  if (!found) throw new AppError("conversation_not_found", "No conversation has this identifier.");
  if (found.id !== null) {
    if (found.body !== message.body || found.author_type !== message.authorType || found.kind !== message.kind) {
      throw new AppError("client_id_conflict", "This client_id was already used for a different message.");
    }
    return { message: view(fromMessageSqlRow(found), found.visitor_name), duplicate: true };
  }
  // Closed when the append ran (it may have been reopened since: the client sends again).
  throw new AppError("conversation_closed", "This conversation has been closed.");
}
