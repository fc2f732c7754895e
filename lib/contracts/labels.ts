import { z } from "zod";
import { clientId, displayName } from "../core/validation/strings";

// Labels on conversations (decisions.md, round 3). Owners create, rename and delete labels; every
// member applies them (docs/inbox.md, "Saved replies and labels").

export const MAX_LABEL_NAME = 40;
/** At most this many labels on one conversation. */
export const MAX_LABELS_PER_CONVERSATION = 20;

const name = displayName(MAX_LABEL_NAME);
/** `#rrggbb`, stored lower-case. */
const color = z
  .string()
  .regex(/^#[0-9a-fA-F]{6}$/, "must be a colour as #rrggbb")
  .transform((value) => value.toLowerCase());
const labelId = clientId(100);

/** POST /inbox/labels */
export const createLabelBody = z.strictObject({ name, color });
export type CreateLabelInput = z.output<typeof createLabelBody>;

/** PATCH /inbox/labels/{id} */
export const updateLabelBody = z
  .strictObject({ name: name.optional(), color: color.optional() })
  .refine((body) => Object.keys(body).length > 0, "must change at least one of name, color");
export type UpdateLabelInput = z.output<typeof updateLabelBody>;

/** PUT /inbox/conversations/{id}/labels: the whole set, replacing the one before. */
export const conversationLabelsBody = z.strictObject({
  labels: z
    .array(labelId)
    .max(MAX_LABELS_PER_CONVERSATION)
    .refine((ids) => new Set(ids).size === ids.length, "must not repeat a label"),
});

/** The case-insensitive key a label's name is unique by (the `name_key` column). */
export const labelNameKey = (value: string) => value.toLowerCase();
