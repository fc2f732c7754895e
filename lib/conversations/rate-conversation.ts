import { randomUUID } from "node:crypto";
import { AppError } from "../core/errors";
import { db } from "../db/client";
import { isUniqueViolation } from "../db/errors";
import type { RateConversationInput } from "../contracts/ratings";
import type { ConversationRating } from "../generated/prisma/client";
import { appendTimelineEvent } from "./timeline";

// A visitor's rating after a close (decisions.md, round 3): one per close, keyed by the close's
// time, so a reopened and closed-again conversation can be rated again. The insert's trigger
// writes the outbox's `conversation.rated` in the same transaction.

const ratingClosed = () => new AppError("rating_closed", "This conversation cannot be rated now: it is open, or this close was already rated.");

export const toWireRating = (row: Pick<ConversationRating, "score" | "comment" | "closedAt" | "createdAt">) => ({
  score: row.score,
  comment: row.comment,
  closed_at: row.closedAt.toISOString(),
  created_at: row.createdAt.toISOString(),
});

/** `close`: the close an email's link rates (another close of the conversation is 409, like an open one). */
export async function rateConversation(conversationId: string, { score, comment }: RateConversationInput, close?: Date) {
  const prisma = await db();
  const conversation = await prisma.conversation.findUnique({ where: { id: conversationId }, select: { status: true, closedAt: true } });
  if (!conversation) throw new AppError("conversation_not_found", "No conversation has this identifier.");
  if (conversation.status !== "closed" || !conversation.closedAt) throw ratingClosed();
  if (close && close.getTime() !== conversation.closedAt.getTime()) throw ratingClosed();
  try {
    const row = await prisma.conversationRating.create({
      data: { id: randomUUID(), conversationId, closedAt: conversation.closedAt, score, comment: comment ?? null },
    });
    await appendTimelineEvent(conversationId, "rated", { actorMemberId: null, score, comment: comment ?? null });
    return toWireRating(row);
  } catch (error) {
    if (isUniqueViolation(error)) throw ratingClosed();
    throw error;
  }
}

/** A conversation's ratings, newest first (staff reads). */
export async function ratingsOf(conversationId: string) {
  const rows = await (await db()).conversationRating.findMany({ where: { conversationId }, orderBy: { createdAt: "desc" } });
  return rows.map(toWireRating);
}
