import { randomUUID } from "node:crypto";
import { db } from "../db/client";
import { isEmbeddedDatabase } from "../core/env";
import type { Conversation } from "../generated/prisma/client";
import { AppError } from "../core/errors";
import { appendInTransaction } from "./append-message";
import { signalMessage } from "../realtime/message-signals";
import type { SqlRow } from "../core/sql-row";

// Closing and reopening, for the operator API and the inbox alike. Closing appends a public
// system message first (the widget shows it), in the same transaction as the status change, and
// under the conversation's row lock, so two closes store one message.

export const CLOSED_MESSAGE = "This conversation was closed.";

const conversationNotFound = () => new AppError("conversation_not_found", "No conversation has this identifier.");

/** Closes an open conversation (a closed one stays as it is). */
export async function closeConversationWithNotice(id: string): Promise<void> {
  const prisma = await db();
  const closedNow = await prisma.$transaction(async (tx) => {
    const [row] = await tx.$queryRaw<SqlRow<Conversation, "status">[]>`SELECT status FROM conversations WHERE id = ${id} FOR UPDATE`;
    if (!row) throw conversationNotFound();
    if (row.status !== "open") return false;
    await appendInTransaction(tx, {
      conversationId: id,
      authorType: "system",
      authorId: "system",
      kind: "message",
      body: CLOSED_MESSAGE,
      clientId: `system_closed_${randomUUID()}`,
    });
    await tx.conversation.update({ where: { id }, data: { status: "closed", closedAt: new Date() } });
    return true;
  });
  // PostgreSQL delivered the NOTIFY on commit; embedded mode wakes its own long-polls.
  if (closedNow && isEmbeddedDatabase()) signalMessage(id);
}

/** Reopens a closed conversation: the visitor can send again. */
export async function reopenConversation(id: string): Promise<void> {
  const prisma = await db();
  const { count } = await prisma.conversation.updateMany({ where: { id, status: "closed" }, data: { status: "open", closedAt: null } });
  if (count === 0 && !(await prisma.conversation.findUnique({ where: { id }, select: { id: true } }))) throw conversationNotFound();
}
