import { z } from "zod";
import { MAX_MESSAGE_LENGTH } from "../conversations/schemas";
import { clientId, requiredText } from "../validation/strings";

/** POST /visitor/messages. `kind: "note"` is recognised only to be refused (note_rejected). */
export const sendMessageBody = z
  .strictObject({
    body: requiredText(MAX_MESSAGE_LENGTH),
    client_id: clientId(),
    kind: z.enum(["message", "note"]).default("message"),
  })
  .transform(({ client_id, ...rest }) => ({ ...rest, clientId: client_id }));

const MAX_SEQUENCE = 2_147_483_647;
const integerParam = (min: number, max: number, digits = 10) =>
  z
    .string()
    .regex(new RegExp(`^\\d{1,${digits}}$`), "must be a non-negative integer")
    .transform(Number)
    .pipe(z.number().int().min(min).max(max));

export const MAX_WAIT_SECONDS = 25;
/** The latest time a JavaScript Date can hold, in epoch milliseconds. */
const MAX_EPOCH_MS = 8_640_000_000_000_000;

/**
 * GET /visitor/messages?cursor=&limit=[&wait=][&presence=] — `wait` (seconds) turns the call into a
 * long-poll; `presence` (epoch ms: the newest `expires_at` of others' presence entries the client
 * has seen, 0 for none) adds typing presence to the answer, and a change of it ends the wait.
 */
export const listMessagesQuery = z.strictObject({
  cursor: integerParam(0, MAX_SEQUENCE).default(0),
  limit: integerParam(1, 100).default(50),
  wait: integerParam(0, MAX_WAIT_SECONDS).default(0),
  presence: integerParam(0, MAX_EPOCH_MS, 16).optional(),
});
