import { z } from "zod";
import { db } from "../db";

// Typing presence: an entry per actor and conversation, alive for 10 s after it was last set.

export const PRESENCE_TTL_MS = 10_000;

const booleanParam = z.enum(["true", "false"]).transform((value) => value === "true");

/** GET /visitor/presence?typing=true|false */
export const presenceQuery = z.strictObject({ typing: booleanParam.optional() });

export interface PresenceActor {
  conversationId: string;
  actorId: string;
  authorType: "visitor" | "staff";
}

export async function setPresence(actor: PresenceActor, typing: boolean): Promise<void> {
  const expiresAt = new Date(Date.now() + PRESENCE_TTL_MS);
  await (await db()).presence.upsert({
    where: { conversationId_actorId: { conversationId: actor.conversationId, actorId: actor.actorId } },
    create: { ...actor, typing, expiresAt },
    update: { typing, expiresAt, authorType: actor.authorType },
  });
}

/** Live entries of everyone in the conversation except `viewerId`. */
export async function livePresence(conversationId: string, viewerId: string) {
  const rows = await (await db()).presence.findMany({
    where: { conversationId, actorId: { not: viewerId }, expiresAt: { gt: new Date() } },
    orderBy: { actorId: "asc" },
  });
  return rows.map((row) => ({
    conversation_id: row.conversationId,
    actor_id: row.actorId,
    author_type: row.authorType,
    typing: row.typing,
    expires_at: row.expiresAt.toISOString(),
  }));
}
