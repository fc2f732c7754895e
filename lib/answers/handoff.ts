import { randomUUID } from "node:crypto";
import { db } from "../db/client";
import { isEmbeddedDatabase } from "../core/env";
import { AppError } from "../core/errors";
import { appendInTransaction } from "../conversations/append-message";
import { assignRoundRobinFromBot, routeNewConversation } from "../conversations/routing";
import { signalMessage } from "../realtime/message-signals";
import { cycleState } from "./cycle";

// "Talk to a person" (decisions.md, round 4; docs/answers.md, "The handoff rule"): the only way a
// handoff happens, and code, not a model's decision. Once per cycle it appends a public system
// line (event `handoff_requested`) under the conversation's row lock — two taps store one — and
// routes the conversation as a new one would be; from then on in the cycle the bot is silent.

export const HANDOFF_MESSAGE = "You asked to talk to a person. Someone from the team will answer here.";

/** Answers whether this call asked for the handoff (false: already asked in this cycle). */
export async function requestHandoff(conversationId: string): Promise<boolean> {
  const prisma = await db();
  const asked = await prisma.$transaction(async (tx) => {
    const [row] = await tx.$queryRaw<{ status: string }[]>`SELECT status FROM conversations WHERE id = ${conversationId} FOR UPDATE`;
    if (!row) throw new AppError("conversation_not_found", "No conversation has this identifier.");
    if (row.status === "closed") throw new AppError("conversation_closed", "This conversation was closed.");
    if ((await cycleState(conversationId, tx))?.handedOff) return false;
    const { message } = await appendInTransaction(tx, {
      conversationId,
      authorType: "system",
      authorId: "system",
      kind: "message",
      body: HANDOFF_MESSAGE,
      clientId: `system_handoff_${randomUUID()}`,
    });
    await tx.message.update({ where: { id: message.id }, data: { event: "handoff_requested" } });
    return true;
  });
  if (!asked) return false;
  if (isEmbeddedDatabase()) signalMessage(conversationId);
  await routeAsNew(conversationId);
  return true;
}

/** Round robin where the conversation's team (or site) uses it and nobody (or only a bot) has the conversation. */
async function routeAsNew(conversationId: string): Promise<void> {
  const conversation = await (await db()).conversation.findUnique({
    where: { id: conversationId },
    select: { assignedMember: { select: { id: true, bot: true } } },
  });
  if (!conversation) return;
  const holder = conversation.assignedMember;
  if (!holder) await routeNewConversation(conversationId);
  else if (holder.bot) await assignRoundRobinFromBot(conversationId, holder.id);
}
