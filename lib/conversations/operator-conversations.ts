import { db } from "../db/client";
import { AppError } from "../core/errors";
import { messageInclude, toStaffWireMessage } from "./message-view";
import { toWireConversation } from "./conversation-view";
import { readVisitorContext } from "../visitors/visitor-context";
import { conversationMetrics } from "../reports/conversation-metrics";

// The operator API's reads of conversations. What a member does to one is in staff-commands.ts.

const conversationNotFound = () => new AppError("conversation_not_found", "No conversation has this identifier.");

export async function listConversations(siteId: string) {
  const prisma = await db();
  const site = await prisma.site.findUnique({ where: { id: siteId }, select: { id: true } });
  if (!site) throw new AppError("site_not_found", "No site has this identifier.");
  const rows = await prisma.conversation.findMany({ where: { siteId }, orderBy: { createdAt: "desc" }, take: 500, include: { team: { select: { id: true, name: true } } } });
  return rows.map(({ team, ...row }) => ({ ...toWireConversation(row), team }));
}

/** One conversation with every message, notes included, each note after the public message it follows. */
export async function readConversation(id: string) {
  const row = await (await db()).conversation.findUnique({
    where: { id },
    include: { messages: { orderBy: [{ sequence: "asc" }, { noteNumber: "asc" }], include: messageInclude }, team: { select: { id: true, name: true } } },
  });
  if (!row) throw conversationNotFound();
  const { messages, team, ...conversation } = row;
  const [context, metrics] = await Promise.all([readVisitorContext(conversation), conversationMetrics(id)]);
  return {
    ...toWireConversation(conversation),
    team,
    messages: messages.map((message) => toStaffWireMessage(message, conversation.visitorName)),
    visitor: context.visitor,
    visitor_conversations: context.conversations,
    metrics,
  };
}
