import { db } from "../db/client";
import { AppError, invalidRequest } from "../core/errors";
import { labelColumns, toWireLabel, type WireLabel } from "./labels";
import { appendTimelineEvent } from "../conversations/timeline";

// A conversation's labels, set whole (PUT /inbox/conversations/{id}/labels) by any member. One
// transaction: the conversation is locked (two members setting labels at once: one after the
// other, never a mix), every id must name a label, and only then are rows removed and added — so
// a refused request changes nothing. A change is recorded in the staff-only timeline (`labelled`).

export async function setConversationLabels(
  conversationId: string,
  labelIds: string[],
  actorMemberId: string | null = null,
): Promise<{ conversation_id: string; labels: WireLabel[] }> {
  const prisma = await db();
  const labels = await prisma.$transaction(async (tx) => {
    const locked = await tx.$queryRaw<{ id: string }[]>`SELECT id FROM conversations WHERE id = ${conversationId} FOR UPDATE`;
    if (locked.length === 0) throw new AppError("conversation_not_found", "No conversation has this identifier.");
    const found = await tx.label.findMany({ where: { id: { in: labelIds } }, select: labelColumns, orderBy: [{ nameKey: "asc" }, { id: "asc" }] });
    if (found.length !== labelIds.length) {
      const known = new Set(found.map((row) => row.id));
      const fields = labelIds.flatMap((id, index) => (known.has(id) ? [] : [{ path: `labels.${index}`, problem: "no label has this id" }]));
      throw invalidRequest(`No label has the id at ${fields[0]!.path}${fields.length > 1 ? ` (and ${fields.length - 1} more)` : ""}.`, fields);
    }
    const before = await tx.conversationLabel.findMany({ where: { conversationId }, select: { label: { select: { id: true, name: true } } } });
    await tx.conversationLabel.deleteMany({ where: { conversationId, labelId: { notIn: labelIds } } });
    if (labelIds.length > 0) {
      await tx.conversationLabel.createMany({ data: labelIds.map((labelId) => ({ conversationId, labelId })), skipDuplicates: true });
    }
    const had = new Set(before.map(({ label }) => label.id));
    const added = found.filter((label) => !had.has(label.id)).map((label) => label.name);
    const removed = before.filter(({ label }) => !labelIds.includes(label.id)).map(({ label }) => label.name);
    if (added.length + removed.length > 0) await appendTimelineEvent(conversationId, "labelled", { actorMemberId, added, removed }, tx);
    return found;
  });
  return { conversation_id: conversationId, labels: labels.map(toWireLabel) };
}

/** Adds one label to a conversation, keeping its others (the list's bulk action). */
export async function addConversationLabel(conversationId: string, labelId: string, actorMemberId: string | null) {
  const current = await (await db()).conversationLabel.findMany({ where: { conversationId }, select: { labelId: true } });
  const ids = current.map((row) => row.labelId);
  return setConversationLabels(conversationId, ids.includes(labelId) ? ids : [...ids, labelId], actorMemberId);
}
