import { z } from "zod";
import { messageContent, saysSomething } from "./conversations";
import { ticketReplyBody } from "./tickets";
import { keysetCursor, queryInteger } from "../core/validation/cursors";
import { clientId } from "../core/validation/strings";

const pathLike = z.string().min(1).max(100).refine((value) => !/\p{Cc}/u.test(value), "must not contain control characters");

/** GET /inbox/conversations */
export const conversationListQuery = z.strictObject({
  site: pathLike.optional(),
  status: z.enum(["open", "closed", "all"]).default("open"),
  assigned: z.enum(["all", "me", "unassigned"]).default("all"),
  /** A label's id: only conversations that carry it (an unknown id lists nothing). */
  label: pathLike.optional(),
  /** From the previous page's `next_cursor`. */
  cursor: keysetCursor().optional(),
  limit: queryInteger(1, 100).default(50),
});
export type ConversationListQuery = z.output<typeof conversationListQuery>;

export const inboxMessageBody = saysSomething(
  z.strictObject({
    ...messageContent,
    kind: z.enum(["message", "note"]).default("message"),
    client_id: clientId().optional(),
  }),
);

export const typingBody = z.strictObject({ typing: z.boolean() });

export const assignBody = z.strictObject({ member_id: pathLike.nullable() });

export const ticketListQuery = z.strictObject({ site: pathLike.optional() });

/** POST /inbox/tickets/{id}/replies: the operator's body without `author_id` (the signed-in member writes). */
export const inboxTicketReplyBody = ticketReplyBody.in.pick({ body: true });
