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
const integerParam = (min: number, max: number) =>
  z
    .string()
    .regex(/^\d{1,10}$/, "must be a non-negative integer")
    .transform(Number)
    .pipe(z.number().int().min(min).max(max));

export const MAX_WAIT_SECONDS = 25;

/** GET /visitor/messages?cursor=&limit=[&wait=] — `wait` (seconds) turns the call into a long-poll. */
export const listMessagesQuery = z.strictObject({
  cursor: integerParam(0, MAX_SEQUENCE).default(0),
  limit: integerParam(1, 100).default(50),
  wait: integerParam(0, MAX_WAIT_SECONDS).default(0),
});
