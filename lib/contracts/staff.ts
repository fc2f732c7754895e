import { z } from "zod";
import { picture, STAFF_ROLES } from "./members";
import { maxOpen } from "./routing";
import { clientId, displayName, text } from "../core/validation/strings";
import { memberEmail } from "../core/validation/member-email";

const signInEmail = memberEmail();
const newPassword = text(200).min(10, "must be at least 10 characters");

export const signInBody = z.strictObject({ email: signInEmail, password: text(200).min(1, "must not be empty") });

/** Setup and invite links: the code from the link, the new password, and name/email when the link has none. */
export const acceptInviteBody = z.strictObject({
  code: clientId(200),
  password: newPassword,
  name: displayName(80).optional(),
  email: signInEmail.optional(),
});

export const staffRole = z.enum(STAFF_ROLES);

/** An owner invites someone from the inbox. */
/** `send_email`: also email the link to the invitee, through the outbox (kept there, not sent, without SMTP_URL). */
const sendEmail = z.boolean().optional();

export const teamInviteBody = z.strictObject({ email: signInEmail, name: displayName(80), role: staffRole, send_email: sendEmail });

export const teamMemberBody = z.strictObject({
  name: displayName(80).optional(),
  avatar: picture.nullable().optional(),
  email: signInEmail.optional(),
  notify: z.boolean().optional(),
  role: staffRole.optional(),
  max_open: maxOpen.optional(),
});
