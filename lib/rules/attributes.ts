import type { AttributeType } from "../contracts/attributes";
import type { FieldKind } from "../contracts/rules";
import { definitionsOf } from "../attributes/definitions";
import { setConversationAttributes } from "../conversations/conversation-attributes";

// What rules need of visitor attributes (docs/attributes.md) besides a conversation's values (in
// its facts, ./facts.ts): how a defined attribute compares, and setting one through the
// attributes' own service (typed by its definition, recorded in the timeline; inside a rule's run
// the line names the rule).

export interface AttributeSource {
  /** How a defined attribute compares (text, link and list as text), or null when none has this key. */
  kindOf(key: string): Promise<FieldKind | null>;
  /** Sets one value (checked against its definition's type by the attributes' own service). */
  setValue(conversationId: string, key: string, value: string | number | boolean | null): Promise<void>;
}

const KIND_OF_TYPE: Record<AttributeType, FieldKind> = { text: "text", link: "text", list: "text", number: "number", date: "date", boolean: "boolean" };

export const attributeSource: AttributeSource = {
  kindOf: async (key) => {
    const definition = (await definitionsOf([key])).get(key);
    return definition ? KIND_OF_TYPE[definition.type] : null;
  },
  setValue: async (conversationId, key, value) => {
    await setConversationAttributes(conversationId, { [key]: value }, null);
  },
};
