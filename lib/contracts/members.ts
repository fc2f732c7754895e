import { z } from "zod";
import { displayName } from "../core/validation/strings";
import { memberEmail as memberEmailSchema } from "../core/validation/member-email";
import { maxOpen } from "./routing";

export const PICTURE_TYPES = ["image/png", "image/jpeg", "image/gif", "image/webp"] as const;
export const MAX_PICTURE_BYTES = 512 * 1024;

const memberId = z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/, "must be 1-100 letters, digits, '.', '_' or '-'");

export const picture = z.strictObject({
  content_type: z.enum(PICTURE_TYPES),
  bytes: z.base64().max(Math.ceil(MAX_PICTURE_BYTES / 3) * 4, `must decode to at most ${MAX_PICTURE_BYTES} bytes`),
});

const memberEmail = memberEmailSchema();

/** shown_in_widget: among the team faces of the widget's empty state (site config); bot: an automatic agent. */
export const createMemberBody = z
  .strictObject({
    id: memberId,
    name: displayName(80),
    avatar: picture.optional(),
    email: memberEmail.optional(),
    notify: z.boolean().optional(),
    shown_in_widget: z.boolean().optional(),
    bot: z.boolean().optional(),
    max_open: maxOpen.optional(),
  })
  .transform(({ shown_in_widget, max_open, ...rest }) => ({ ...rest, shownInWidget: shown_in_widget, maxOpen: max_open }));
export const updateMemberBody = z
  .strictObject({
    name: displayName(80).optional(),
    avatar: picture.nullable().optional(),
    email: memberEmail.nullable().optional(),
    notify: z.boolean().optional(),
    shown_in_widget: z.boolean().optional(),
    bot: z.boolean().optional(),
    max_open: maxOpen.optional(),
  })
  .transform(({ shown_in_widget, max_open, ...rest }) => ({ ...rest, shownInWidget: shown_in_widget, maxOpen: max_open }));

export const STAFF_ROLES = ["owner", "agent"] as const;

/** POST /admin/members/{userID}/invite */
/** `send_email`: also email the link to the invitee, through the outbox (kept there, not sent, without SMTP_URL). */
export const inviteMemberBody = z.strictObject({ email: memberEmail, role: z.enum(STAFF_ROLES), send_email: z.boolean().optional() });

export type PictureInput = z.output<typeof picture>;
