import { z } from "zod";
import { messageContent, saysSomething } from "./conversations";
import { MAX_EPOCH_MS, queryInteger, sequenceCursor } from "../core/validation/cursors";
import { clientId } from "../core/validation/strings";

/** POST /visitor/messages. `kind: "note"` is recognised only to be refused (note_rejected). */
export const sendMessageBody = saysSomething(
  z.strictObject({
    ...messageContent,
    client_id: clientId(),
    kind: z.enum(["message", "note"]).default("message"),
  }),
).transform(({ client_id, ...rest }) => ({ ...rest, clientId: client_id }));

export const MAX_WAIT_SECONDS = 25;

/**
 * GET /visitor/messages?cursor=&limit=[&wait=][&presence=] — `wait` (seconds) turns the call into a
 * long-poll; `presence` (epoch ms: the newest `expires_at` of others' presence entries the client
 * has seen, 0 for none) adds typing presence to the answer, and a change of it ends the wait.
 */
export const listMessagesQuery = z.strictObject({
  cursor: sequenceCursor().default(0),
  limit: queryInteger(1, 100).default(50),
  wait: queryInteger(0, MAX_WAIT_SECONDS).default(0),
  presence: queryInteger(0, MAX_EPOCH_MS, 16).optional(),
});
