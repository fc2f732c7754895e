import { randomUUID } from "node:crypto";
import { db } from "../db/client";
import { invalidRequest } from "../core/errors";
import { canSignInWhere } from "../members/can-sign-in";

// @mentions in notes (decisions.md round 3): a note names members by id (the composer's picker);
// each becomes a row of message_mentions, whose trigger writes `mention.created` for the outbox
// (an email when the member is away: lib/email/mention-emails.ts). The mentioned member's inbox
// lists its recent mentions ("mentioned you").

/** Refuses mentions outside a note, or of anyone who is not an active member who can sign in (400 naming the entry). */
export async function checkMentions(kind: "message" | "note", memberIds: string[]): Promise<void> {
  if (memberIds.length === 0) return;
  if (kind !== "note") throw invalidRequest("Only notes may mention members.", [{ path: "mentions", problem: "only notes may mention members" }]);
  const found = await (await db()).member.findMany({
    where: { id: { in: memberIds }, ...canSignInWhere },
    select: { id: true },
  });
  const known = new Set(found.map((row) => row.id));
  const fields = memberIds.flatMap((id, index) => (known.has(id) ? [] : [{ path: `mentions.${index}`, problem: "no active team member has this id" }]));
  if (fields.length > 0) throw invalidRequest(`No active team member has the id at ${fields[0]!.path}.`, fields);
}

/** Records the note's mentions (a replayed note's are already there: nothing new). */
export async function storeMentions(messageId: string, conversationId: string, memberIds: string[]): Promise<void> {
  if (memberIds.length === 0) return;
  await (await db()).messageMention.createMany({
    data: [...new Set(memberIds)].map((memberId) => ({ id: randomUUID(), messageId, conversationId, memberId })),
    skipDuplicates: true,
  });
}

/** The member's latest mentions, newest first: the inbox's "mentioned you" items. */
export async function listMentions(memberId: string, limit = 20) {
  const rows = await (await db()).messageMention.findMany({
    where: { memberId },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: limit,
    select: {
      id: true,
      createdAt: true,
      message: { select: { id: true, conversationId: true, body: true, member: { select: { name: true } } } },
    },
  });
  return {
    items: rows.map((row) => ({
      id: row.id,
      conversation_id: row.message.conversationId,
      message_id: row.message.id,
      author_name: row.message.member?.name ?? null,
      excerpt: row.message.body.slice(0, 140),
      created_at: row.createdAt.toISOString(),
    })),
  };
}
