import { db } from "../db/client";
import { AppError } from "../core/errors";
import type { AttributeDefinitionShape } from "../contracts/attributes";
import { typedAttributeValues, type Change } from "../attributes/values";
import { LOCK_CONVERSATION_ATTRIBUTES, UPDATE_CONVERSATION_ATTRIBUTES } from "../attributes/statements";
import { storedAttributes, type AttributeValues } from "../attributes/stored";
import { appendTimelineEvent } from "./timeline";

// A conversation's attribute values (PATCH /inbox/conversations/{id}/attributes; docs/attributes.md).
// Each value must be of its definition's type (else 400, nothing saved); null removes a value.
// The change and its staff timeline event (`attributes_changed`) commit together.

export async function setConversationAttributes(conversationId: string, changes: Record<string, Change>, actorMemberId: string | null) {
  const { typed, definitions } = await typedAttributeValues(changes, (key) => `attributes.${key}`);
  const set = Object.fromEntries(Object.entries(typed).filter(([, value]) => value !== null));
  const removed = Object.keys(typed).filter((key) => typed[key] === null);
  const attributes = await (await db()).$transaction(async (tx) => {
    const [row] = await tx.$queryRawUnsafe<{ attributes: unknown }[]>(LOCK_CONVERSATION_ATTRIBUTES, conversationId);
    if (!row) throw new AppError("conversation_not_found", "No conversation has this identifier.");
    const before = storedAttributes(row.attributes);
    const changed = Object.keys(typed).filter((key) => (typed[key] === null ? key in before : before[key] !== typed[key]));
    if (changed.length === 0) return before;
    const [updated] = await tx.$queryRawUnsafe<{ attributes: unknown }[]>(UPDATE_CONVERSATION_ATTRIBUTES, conversationId, JSON.stringify(set), JSON.stringify(removed));
    const details = changed.map((key) => describe(definitions.get(key)!, key, before[key], typed[key] ?? null));
    await appendTimelineEvent(conversationId, "attributes_changed", { actorMemberId, changes: details }, tx);
    return storedAttributes(updated?.attributes);
  });
  return { conversation_id: conversationId, attributes };
}

const describe = (definition: AttributeDefinitionShape & { label: string }, key: string, from: AttributeValues[string] | undefined, to: Change) => ({
  key,
  label: definition.label,
  from: from ?? null,
  to,
});
