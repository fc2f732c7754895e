import { randomUUID } from "node:crypto";
import { db } from "../db/client";
import { isEmbeddedDatabase } from "../core/env";
import type { Conversation } from "../generated/prisma/client";
import { AppError } from "../core/errors";
import { actingRule } from "../core/acting-rule";
import { appendInTransaction } from "./append-message";
import { signalMessage } from "../realtime/message-signals";
import type { SqlRow } from "../core/sql-row";
import type { MessageEvent } from "./message-view";
import { conversationLanguage, noticeText, type Notice } from "./notices";

// Closing and reopening, for the operator API and the inbox alike. Each appends a public system
// message (the widget acts on its `event`) in the same transaction as the status change, under
// the conversation's row lock, so two closes (or two reopens) store one message.

const conversationNotFound = () => new AppError("conversation_not_found", "No conversation has this identifier.");

/** Closes an open or snoozed conversation (a closed one stays as it is); `memberId`: the member who did it, if one did. */
export async function closeConversationWithNotice(id: string, memberId?: string): Promise<void> {
  await changeStatus(id, { from: ["open", "snoozed"], to: "closed", notice: "closed", event: "conversation_closed", memberId });
}

/** Reopens a closed conversation: the visitor can send again, in the same conversation. */
export async function reopenConversation(id: string, memberId?: string): Promise<void> {
  await changeStatus(id, { from: ["closed"], to: "open", notice: "reopened", event: "conversation_reopened", memberId });
}

interface StatusChange {
  from: ("open" | "snoozed" | "closed")[];
  to: "open" | "closed";
  /** Written in the conversation's language (notices.ts). */
  notice: Notice;
  event: MessageEvent;
  memberId?: string;
}

async function changeStatus(id: string, change: StatusChange): Promise<void> {
  const prisma = await db();
  const changedNow = await prisma.$transaction(async (tx) => {
    const [row] = await tx.$queryRaw<(SqlRow<Conversation, "status" | "locale"> & { site_locale: string | null })[]>`
      SELECT c.status, c.locale, s.locale AS site_locale FROM conversations c JOIN sites s ON s.id = c.site_id WHERE c.id = ${id} FOR UPDATE OF c`;
    if (!row) throw conversationNotFound();
    if (!(change.from as string[]).includes(row.status)) return false;
    // A closed conversation takes no message: reopen first, then tell the visitor.
    if (change.to === "open") await tx.conversation.update({ where: { id }, data: { status: "open", closedAt: null } });
    const { message } = await appendInTransaction(tx, {
      conversationId: id,
      authorType: "system",
      authorId: "system",
      kind: "message",
      body: noticeText(change.notice, conversationLanguage(row.site_locale, row.locale)),
      clientId: `system_${change.to === "open" ? "reopened" : "closed"}_${randomUUID()}`,
    });
    // Who did it is kept for staff (the inbox's "Closed by …"); the visitor's copy names nobody (message-view.ts).
    // A rule's close names the rule (docs/rules.md): the inbox shows it, and rules never act on it.
    const rule = actingRule();
    await tx.message.update({ where: { id: message.id }, data: { event: change.event, memberId: change.memberId ?? null, ...(rule ? { details: { rule: { id: rule.id, name: rule.name } } } : {}) } });
    // Nobody waits on a closed conversation, snoozed or not.
    if (change.to === "closed") {
      await tx.conversation.update({ where: { id }, data: { status: "closed", closedAt: new Date(), snoozedUntil: null, waitingSince: null } });
    }
    return true;
  });
  // PostgreSQL delivered the NOTIFY on commit; embedded mode wakes its own long-polls.
  if (changedNow && isEmbeddedDatabase()) signalMessage(id);
}
