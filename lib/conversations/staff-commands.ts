import { randomUUID } from "node:crypto";
import { db } from "../db/client";
import { AppError } from "../core/errors";
import { appendMessage, type View } from "./append-message";
import { toWireMessage, type MessageSource, type WireMessage } from "./message-view";
import { endTypingQuietly, setPresence } from "./presence";
import { closeConversationWithNotice, reopenConversation } from "./conversation-status";
import { toWireConversation } from "./conversation-view";
import { appendTimelineEvent } from "./timeline";
import { storeMentions, checkMentions } from "./mentions";
import { canSignIn } from "../members/can-sign-in";
import { assertAssigneeMaySee } from "../teams/access";

// What a member does to a conversation, whichever audience asks: the inbox (the signed-in member)
// and the operator API (a member named in the request) call these same commands. Each audience
// checks who may act, then shapes the answer; the rules of the act live here once.

const conversationNotFound = () => new AppError("conversation_not_found", "No conversation has this identifier.");

export interface StaffMessageInput {
  body: string;
  kind: "message" | "note";
  clientId?: string;
  /** Files the staff side uploaded into the conversation. */
  attachments?: string[];
  /** Members a note @mentions (lib/conversations/mentions.ts). */
  mentions?: string[];
  /** The articles an answer was drawn from (the bot's). */
  sources?: MessageSource[];
}

/** A reply or a note by `memberId`; a note may mention members. */
export async function sendStaffMessage<Message extends { id: string } = WireMessage>(
  memberId: string,
  conversationId: string,
  input: StaffMessageInput,
  view: View<Message> = toWireMessage as unknown as View<Message>,
) {
  const mentions = input.mentions ?? [];
  await checkMentions(input.kind, mentions);
  const sent = await appendMessage(
    {
      conversationId,
      authorType: "staff",
      authorId: memberId,
      memberId,
      kind: input.kind,
      body: input.body,
      clientId: input.clientId ?? `staff_${randomUUID()}`,
      attachmentIds: input.attachments,
      sources: input.sources,
    },
    view,
  );
  if (mentions.length === 0) return sent;
  await storeMentions(sent.message.id, conversationId, mentions);
  return { ...sent, message: { ...sent.message, mentions } };
}

/**
 * A staff message from someone who was typing it: the typing ends in the message's own wake-up.
 * Ended after the message, with a signal of its own, it answered an open widget's held poll twice:
 * once with the message beside the stale "typing", then at once again for the stop. So a public
 * message's typing ends first, quietly, and the message's signal wakes the poll, which reads
 * presence with the messages (visitor-messages.ts). A note wakes no visitor, and a refused send
 * sends nothing: then the stop is signalled as usual.
 */
export async function sendEndingTyping<Message extends { id: string } = WireMessage>(
  memberId: string,
  conversationId: string,
  input: StaffMessageInput,
  view?: View<Message>,
) {
  const typist = { conversationId, actorId: memberId, authorType: "staff" as const };
  if (input.kind !== "message") {
    const sent = await sendStaffMessage(memberId, conversationId, input, view);
    await setPresence(typist, false);
    return sent;
  }
  const endedTyping = await endTypingQuietly(typist);
  try {
    return await sendStaffMessage(memberId, conversationId, input, view);
  } catch (error) {
    // The typing ended quietly but no message tells of it: say so. The send's own error is the answer.
    if (endedTyping) await setPresence(typist, false).catch(() => undefined);
    throw error;
  }
}

/**
 * A send from the inbox's composer: the message, which ends the member's typing (the composer set
 * it), and a public reply marks the conversation read for them up to it (read positions are the
 * inbox's).
 */
export async function sendFromComposer<Message extends { id: string; kind: string; sequence: number }>(
  memberId: string,
  conversationId: string,
  input: StaffMessageInput,
  view: View<Message>,
) {
  const sent = await sendEndingTyping(memberId, conversationId, input, view);
  if (sent.message.kind === "message") await markRead(memberId, conversationId, sent.message.sequence);
  return sent;
}

/** Records that `memberId` is (or stopped) typing; nobody types into a closed conversation. Answers what was recorded. */
export async function setStaffTyping(memberId: string, conversationId: string, typing: boolean): Promise<boolean> {
  const found = await (await db()).conversation.findUnique({ where: { id: conversationId }, select: { status: true } });
  if (!found) throw conversationNotFound();
  const recorded = typing && found.status !== "closed";
  await setPresence({ conversationId, actorId: memberId, authorType: "staff" }, recorded);
  return recorded;
}

/** How far the member had read the conversation (null: never opened it), before a read moves the mark. */
export async function readMark(memberId: string, conversationId: string): Promise<number | null> {
  const row = await (await db()).conversationRead.findUnique({ where: { memberId_conversationId: { memberId, conversationId } }, select: { readSequence: true } });
  return row?.readSequence ?? null;
}

/** The member has read the conversation up to `sequence` (never moves back). */
export async function markRead(memberId: string, conversationId: string, sequence: number): Promise<void> {
  await (await db()).$executeRaw`
    INSERT INTO conversation_reads (member_id, conversation_id, read_sequence) VALUES (${memberId}, ${conversationId}, ${sequence})
    ON CONFLICT (member_id, conversation_id)
    DO UPDATE SET read_sequence = GREATEST(conversation_reads.read_sequence, EXCLUDED.read_sequence)`;
}

export async function closeConversation(id: string, memberId?: string) {
  await closeConversationWithNotice(id, memberId);
  return readConversationSummary(id);
}

export async function reopenClosedConversation(id: string, memberId?: string) {
  await reopenConversation(id, memberId);
  return readConversationSummary(id);
}

/**
 * Assigns the conversation to an active member who may see it (docs/teams.md), or to nobody (`null`). A change is recorded in the
 * staff-only timeline (`assigned`), naming `actorMemberId` when a member did it.
 */
export async function assignConversation(conversationId: string, memberId: string | null, actorMemberId: string | null = null) {
  const prisma = await db();
  let assigneeName: string | null = null;
  if (memberId !== null) {
    const assignee = await prisma.member.findUnique({ where: { id: memberId }, select: { name: true, role: true, passwordHash: true, deactivatedAt: true, email: true } });
    if (!assignee || !canSignIn(assignee)) {
      throw new AppError("member_not_found", "No active team member has this id.");
    }
    assigneeName = assignee.name;
    await assertAssigneeMaySee("conversation", conversationId, memberId);
  }
  await prisma.$transaction(async (tx) => {
    const [row] = await tx.$queryRaw<{ assigned_member_id: string | null }[]>`SELECT assigned_member_id FROM conversations WHERE id = ${conversationId} FOR UPDATE`;
    if (!row) throw conversationNotFound();
    if (row.assigned_member_id === memberId) return;
    await tx.conversation.update({ where: { id: conversationId }, data: { assignedMemberId: memberId, assignedAt: memberId === null ? null : new Date() } });
    const details = { actorMemberId, assigneeMemberId: memberId, assigneeName, previousMemberId: row.assigned_member_id };
    await appendTimelineEvent(conversationId, "assigned", details, tx);
  });
  return { conversation_id: conversationId, assigned_member_id: memberId };
}

async function readConversationSummary(id: string) {
  const row = await (await db()).conversation.findUnique({ where: { id } });
  if (!row) throw conversationNotFound();
  return toWireConversation(row);
}
