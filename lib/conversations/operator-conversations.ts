import { randomUUID } from "node:crypto";
import { db } from "../db/client";
import { AppError } from "../core/errors";
import { appendMessage } from "./append-message";
import { messageInclude, toStaffWireMessage } from "./message-view";
import { assertMemberExists } from "../members/members";
import { setPresence } from "./presence";
import { closeConversationWithNotice, reopenConversation } from "./conversation-status";
import { toWireConversation } from "./conversation-view";

// The staff side of a conversation, for the operator API.

const conversationNotFound = () => new AppError("conversation_not_found", "No conversation has this identifier.");

export async function listConversations(siteId: string) {
  const prisma = await db();
  const site = await prisma.site.findUnique({ where: { id: siteId }, select: { id: true } });
  if (!site) throw new AppError("site_not_found", "No site has this identifier.");
  const rows = await prisma.conversation.findMany({ where: { siteId }, orderBy: { createdAt: "desc" }, take: 500 });
  return rows.map(toWireConversation);
}

/** One conversation with every message, notes included, each note after the public message it follows. */
export async function readConversation(id: string) {
  const row = await (await db()).conversation.findUnique({
    where: { id },
    include: { messages: { orderBy: [{ sequence: "asc" }, { noteNumber: "asc" }], include: messageInclude } },
  });
  if (!row) throw conversationNotFound();
  const { messages, ...conversation } = row;
  return {
    ...toWireConversation(conversation),
    messages: messages.map((message) => toStaffWireMessage(message, conversation.visitorName)),
  };
}

export async function postStaffMessage(
  conversationId: string,
  input: { authorId: string; body: string; kind: "message" | "note"; clientId?: string },
) {
  await assertMemberExists(input.authorId);
  return appendMessage(
    {
      conversationId,
      authorType: "staff",
      authorId: input.authorId,
      memberId: input.authorId,
      kind: input.kind,
      body: input.body,
      clientId: input.clientId ?? `staff_${randomUUID()}`,
    },
    toStaffWireMessage,
  );
}

export async function setStaffPresence(conversationId: string, input: { actorId: string; typing: boolean }) {
  await assertConversationExists(conversationId);
  await assertMemberExists(input.actorId);
  await setPresence({ conversationId, actorId: input.actorId, authorType: "staff" }, input.typing);
  return { conversation_id: conversationId, actor_id: input.actorId, typing: input.typing };
}

export async function closeConversation(id: string) {
  await closeConversationWithNotice(id);
  return readConversationSummary(id);
}

export async function reopenOperatorConversation(id: string) {
  await reopenConversation(id);
  return readConversationSummary(id);
}

async function assertConversationExists(id: string): Promise<void> {
  const found = await (await db()).conversation.findUnique({ where: { id }, select: { id: true } });
  if (!found) throw conversationNotFound();
}

async function readConversationSummary(id: string) {
  const row = await (await db()).conversation.findUnique({ where: { id } });
  if (!row) throw conversationNotFound();
  return toWireConversation(row);
}
