import { z } from "zod";
import { singleLineText, singleLineValue } from "../core/validation/strings";

// The leaf of visitor attributes' contract (docs/attributes.md): what the sites' and the start's
// contracts need (attribute keys and types, the pre-chat form), with no import of the wire
// shapes, which import the sites' contract themselves.

export const ATTRIBUTE_TYPES = ["text", "number", "date", "boolean", "list", "link"] as const;
export type AttributeType = (typeof ATTRIBUTE_TYPES)[number];

export const ATTRIBUTE_KEY = /^[a-z0-9_]{1,40}$/;
export const attributeKey = z.string().regex(ATTRIBUTE_KEY, "must be 1-40 of a-z, 0-9 and _");

// The pre-chat form (a site setting, through the sites' contract).
export const MAX_PRECHAT_FIELDS = 10;
export const prechatSetting = z
  .strictObject({
    fields: z
      .array(z.strictObject({ key: attributeKey, required: z.boolean().default(false) }))
      .max(MAX_PRECHAT_FIELDS)
      .refine((list) => new Set(list.map((field) => field.key)).size === list.length, "must not repeat a key"),
    consent: z.strictObject({ text: singleLineText(500), required: z.boolean().default(false) }).nullable().default(null),
  })
  .nullable();
export type PrechatSetting = z.output<typeof prechatSetting>;

/** The start's `fields` (name, email or attribute keys) and `consent`. */
export const prechatFields = z.record(attributeKey, z.union([singleLineValue(2000), z.number(), z.boolean(), z.null()])).refine((fields) => Object.keys(fields).length <= MAX_PRECHAT_FIELDS, "at most 10 fields");

