import { z } from "zod";
import { displayName, singleLineText, singleLineValue } from "../core/validation/strings";
import { httpUrl } from "./page-views";
import { isoTime, named } from "./wire";
import { ATTRIBUTE_KEY, ATTRIBUTE_TYPES, attributeKey, type AttributeType } from "./prechat";

export { ATTRIBUTE_KEY, ATTRIBUTE_TYPES, attributeKey, MAX_PRECHAT_FIELDS, prechatFields, prechatSetting, type AttributeType, type PrechatSetting } from "./prechat";

// Visitor attributes (decisions.md, round 4, "Visitor attributes and the pre-chat form";
// docs/attributes.md): typed definitions, values on conversations, typed list filters.

/** Keys the pre-chat form gives another meaning (the visitor's own name and email), and the PATCH body's wrapper. */
export const RESERVED_ATTRIBUTE_KEYS = ["name", "email", "attributes"] as const;
export const MAX_ATTRIBUTE_OPTIONS = 50;
export const MAX_TEXT_VALUE = 500;
/** A list's filters beyond this many in one request are refused (400). */
export const MAX_ATTRIBUTE_FILTERS = 10;


/** POST /inbox/attributes */
export const createAttributeBody = z
  .strictObject({
    key: attributeKey.refine((key) => !(RESERVED_ATTRIBUTE_KEYS as readonly string[]).includes(key), "is reserved (name, email, attributes)"),
    label: displayName(60),
    type: z.enum(ATTRIBUTE_TYPES),
    options: z
      .array(displayName(100))
      .max(MAX_ATTRIBUTE_OPTIONS)
      .refine((list) => new Set(list).size === list.length, "must not repeat an option")
      .optional(),
  })
  .superRefine((body, ctx) => {
    if (body.type === "list" && !body.options?.length) ctx.addIssue({ code: "custom", path: ["options"], message: "a list needs at least one option" });
    if (body.type !== "list" && body.options?.length) ctx.addIssue({ code: "custom", path: ["options"], message: "only a list has options" });
  })
  .transform((body) => ({ ...body, options: body.type === "list" ? (body.options ?? []) : [] }));
export type CreateAttributeInput = z.output<typeof createAttributeBody>;

export interface AttributeDefinitionShape {
  key: string;
  label: string;
  type: AttributeType;
  options: string[];
}

const isCalendarDate = (value: string) => {
  const at = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(at.getTime()) && at.toISOString().slice(0, 10) === value;
};
const calendarDate = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, "must be a date as YYYY-MM-DD").refine(isCalendarDate, "must be a real date");

/** The schema a value of this definition must pass (stored as its output: typed JSON). */
export function attributeValue(definition: AttributeDefinitionShape): z.ZodType<string | number | boolean> {
  switch (definition.type) {
    case "text":
      return singleLineText(MAX_TEXT_VALUE);
    case "number":
      return z.number().finite().min(-1e15).max(1e15);
    case "date":
      return calendarDate;
    case "boolean":
      return z.boolean();
    case "list":
      return z.string().refine((value) => definition.options.includes(value), `must be one of: ${definition.options.join(", ").slice(0, 80)}`);
    case "link":
      return httpUrl;
  }
}

/** A value as a list filter sends it (`?attr.<key>=`): always a string, read as the definition's type. */
export function attributeFilterValue(definition: AttributeDefinitionShape): z.ZodType<string | number | boolean> {
  switch (definition.type) {
    case "number":
      return z
        .string()
        .regex(/^-?\d{1,16}(\.\d{1,10})?$/, "must be a number")
        .transform(Number);
    case "boolean":
      return z.enum(["true", "false"]).transform((value) => value === "true");
    default:
      return attributeValue(definition);
  }
}

/** A value on a conversation's wire (typed per definition). */
const attributeValueWire = z.union([z.string(), z.number(), z.boolean()]);
export const conversationAttributes = z.record(z.string(), attributeValueWire).describe("visitor attribute values by definition key, typed as the definition");

/** PATCH /inbox/conversations/{id}/attributes: `{attributes: {key: value | null}}` (null removes); a bare `{key: value}` is read the same. */
const attributeChanges = z.record(attributeKey, z.union([singleLineValue(2000), z.number(), z.boolean(), z.null()])).refine((changes) => Object.keys(changes).length <= 50, "at most 50 changes at once");
export const conversationAttributesBody = z
  .union([z.strictObject({ attributes: attributeChanges }), attributeChanges])
  .transform((body) => ("attributes" in body && typeof body.attributes === "object" && body.attributes !== null ? (body.attributes as Record<string, string | number | boolean | null>) : (body as Record<string, string | number | boolean | null>)));

export const attributeDefinition = named(
  "AttributeDefinition",
  z.object({
    key: z.string().max(40),
    label: z.string().max(60),
    type: z.enum(ATTRIBUTE_TYPES),
    options: z.array(z.string()).describe("a list's choices in order; [] for the other types"),
    created_at: isoTime,
  }),
);

export const deletedAttribute = named("DeletedAttribute", z.object({ key: z.string(), deleted: z.literal(true) }));

export const conversationAttributesResult = named(
  "ConversationAttributes",
  z.object({ conversation_id: z.string(), attributes: conversationAttributes }),
);

/** The consent stored on a conversation: exactly the text the visitor agreed to, and when. */
export const conversationConsent = z
  .object({ text: z.string().max(500), at: isoTime })
  .nullable()
  .describe("the pre-chat form's consent: exactly the text the visitor agreed to and when; null: none given");

/** `?attr.<key>=`, `?attr.<key>.gt=`, `?attr.<key>.lt=`: the list's attribute filters, gathered from the query. */
export const ATTRIBUTE_FILTER_PARAM = /^attr\.([a-z0-9_]{1,40})(?:\.(gt|lt))?$/;
export interface AttributeFilter {
  key: string;
  op: "eq" | "gt" | "lt";
  value: string;
}
export const attributeFilterRaw = singleLineValue(500);
