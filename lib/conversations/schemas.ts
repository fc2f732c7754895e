import { z } from "zod";
import { clientId, displayName, email, requiredText } from "../validation/strings";

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
