import { z } from "zod";
import { requiredText, singleLineText } from "../core/validation/strings";

// Saved replies (decisions.md, round 3): the composer's `/` picker. Owners manage the team's;
// every member manages their own (`personal`), which no one else sees.

export const SAVED_REPLY_SCOPES = ["team", "personal"] as const;
export type SavedReplyScope = (typeof SAVED_REPLY_SCOPES)[number];

export const MAX_SHORTCUT_LENGTH = 32;
export const MAX_SAVED_REPLY_TITLE = 80;
export const MAX_SAVED_REPLY_BODY = 4000;

/** What follows the `/`: 1..32 of a-z, 0-9, `-`, `_` (lower case only, so it is typed as it is shown). */
export const shortcut = z.string().regex(/^[a-z0-9_-]{1,32}$/, "must be 1-32 of a-z, 0-9, '-' or '_'");

const fields = {
  shortcut,
  title: singleLineText(MAX_SAVED_REPLY_TITLE),
  body: requiredText(MAX_SAVED_REPLY_BODY),
  scope: z.enum(SAVED_REPLY_SCOPES),
};

/** POST /inbox/saved-replies */
export const createSavedReplyBody = z.strictObject(fields);
export type CreateSavedReplyInput = z.output<typeof createSavedReplyBody>;

/** PATCH /inbox/saved-replies/{id}: any of the fields; moving a reply to `team` needs an owner. */
export const updateSavedReplyBody = z
  .strictObject({
    shortcut: fields.shortcut.optional(),
    title: fields.title.optional(),
    body: fields.body.optional(),
    scope: fields.scope.optional(),
  })
  .refine((body) => Object.keys(body).length > 0, "must change at least one of shortcut, title, body, scope");
export type UpdateSavedReplyInput = z.output<typeof updateSavedReplyBody>;
