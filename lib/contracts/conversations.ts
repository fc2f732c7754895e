import { z } from "zod";
import { clientId, displayName, email, requiredText } from "../core/validation/strings";

export const MAX_MESSAGE_LENGTH = 4000;

/** POST /widget/{siteID}/conversations: every field optional; `email` is required while the site is offline. */
export const startConversationBody = z
  .strictObject({
    body: requiredText(MAX_MESSAGE_LENGTH).optional(),
    client_id: clientId().optional(),
    name: displayName(80).optional(),
    email: email().optional(),
    // Identity verification (lib/identity): the site's user id and its HMAC under the site's secret.
    user_id: clientId(100).optional(),
    user_hash: z.string().max(128).optional(),
  })
  .transform(({ client_id, user_id, user_hash, ...rest }) => ({ ...rest, clientId: client_id, userId: user_id, userHash: user_hash }));

export type StartConversationInput = z.output<typeof startConversationBody>;

/** POST /admin/conversations/{id}/messages: a staff member's message or note. */
export const staffMessageBody = z
  .strictObject({
    author_id: clientId(), // a member id: never NUL (PostgreSQL cannot compare it: a 500)
    body: requiredText(MAX_MESSAGE_LENGTH),
    kind: z.enum(["message", "note"]).default("message"),
    client_id: clientId().optional(),
  })
  .transform(({ author_id, client_id, ...rest }) => ({ ...rest, authorId: author_id, clientId: client_id }));

/** POST /admin/conversations/{id}/presence. */
export const staffPresenceBody = z
  .strictObject({ actor_id: clientId(), typing: z.boolean() })
  .transform(({ actor_id, typing }) => ({ actorId: actor_id, typing }));
