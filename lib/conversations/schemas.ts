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
  })
  .transform(({ client_id, ...rest }) => ({ ...rest, clientId: client_id }));

export type StartConversationInput = z.output<typeof startConversationBody>;
