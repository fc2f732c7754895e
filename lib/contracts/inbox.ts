import { z } from "zod";
import { messageContent, saysSomething } from "./conversations";
import { PRIORITIES, ticketReplyBody } from "./tickets";
import { keysetCursor, queryInteger } from "../core/validation/cursors";
import { clientId } from "../core/validation/strings";
import { ATTRIBUTE_FILTER_PARAM, attributeFilterRaw, MAX_ATTRIBUTE_FILTERS, type AttributeFilter } from "./attributes";
import { SLA_FILTERS } from "./sla";

const pathLike = clientId(100);

/** GET /inbox/conversations; besides these, `attr.<key>` filters (below). */
const conversationListFields = z.object({
  site: pathLike.optional(),
  /** `open` leaves snoozed conversations out (they come back by themselves), as Intercom's inbox does. */
  status: z.enum(["open", "snoozed", "closed", "all"]).default("open"),
  /** `newest`: latest activity first; `waiting`: the visitor waiting longest first, then those not waiting; `sla`: the soonest due first (docs/sla.md). */
  sort: z.enum(["newest", "waiting", "sla"]).default("newest"),
  /** `breached`: the current cycle missed an SLA target; `due_soon`: a target falls due within 15 minutes (docs/sla.md). */
  sla: z.enum(SLA_FILTERS).optional(),
  assigned: z.enum(["all", "me", "unassigned"]).default("all"),
  /** A label's id: only conversations that carry it (an unknown id lists nothing). */
  label: pathLike.optional(),
  /** A team's id, or `none`: only conversations of that team, or of no team (docs/teams.md). */
  team: pathLike.optional(),
  /** `me`: only conversations with a note that @mentions the member (the rail's Mentions view). */
  mentioned: z.enum(["me"]).optional(),
  /** From the previous page's `next_cursor`. */
  cursor: keysetCursor().optional(),
  limit: queryInteger(1, 100).default(50),
});

/**
 * GET /inbox/conversations. Any other parameter must be an attribute filter, `attr.<key>` (equal)
 * or `attr.<key>.gt` / `.lt` (docs/attributes.md); the values are typed against the definitions
 * by the service and reach SQL only as bound parameters.
 */
export const conversationListQuery = conversationListFields
  .catchall(attributeFilterRaw.describe("attr.<key>, attr.<key>.gt, attr.<key>.lt: a visitor attribute filter"))
  .transform((query, ctx) => {
    const { site, status, sort, sla, assigned, label, team, mentioned, cursor, limit, ...rest } = query;
    const attr: AttributeFilter[] = [];
    for (const [name, value] of Object.entries(rest)) {
      const match = ATTRIBUTE_FILTER_PARAM.exec(name);
      if (!match) ctx.addIssue({ code: "custom", path: [name], message: "is not a parameter of this list (attribute filters are attr.<key>, attr.<key>.gt, attr.<key>.lt)" });
      else attr.push({ key: match[1]!, op: (match[2] as "gt" | "lt" | undefined) ?? "eq", value: value as string });
    }
    if (attr.length > MAX_ATTRIBUTE_FILTERS) ctx.addIssue({ code: "custom", path: ["attr"], message: `at most ${MAX_ATTRIBUTE_FILTERS} attribute filters` });
    return { site, status, sort, sla, assigned, label, team, mentioned, cursor, limit, attr };
  });
export type ConversationListQuery = z.output<typeof conversationListQuery>;

export const inboxMessageBody = saysSomething(
  z.strictObject({
    ...messageContent,
    kind: z.enum(["message", "note"]).default("message"),
    client_id: clientId().optional(),
    /** A note's @mentioned members (ids from the member list). */
    mentions: z.array(pathLike).max(20).refine((ids) => new Set(ids).size === ids.length, "must not repeat an id").optional(),
  }),
);

/** POST /inbox/conversations/{id}/snooze (and the operator API's): until when, with its offset. */
export const snoozeBody = z.strictObject({
  until: z.iso.datetime({ offset: true }).transform((value) => new Date(value)),
});

/** POST /inbox/conversations/bulk: one act on at most 100 conversations, answered per id. */
export const bulkBody = z.discriminatedUnion("action", [
  z.strictObject({ action: z.literal("close"), ids: z.array(pathLike).min(1).max(100) }),
  z.strictObject({ action: z.literal("assign"), ids: z.array(pathLike).min(1).max(100), member_id: pathLike.nullable() }),
  z.strictObject({ action: z.literal("label"), ids: z.array(pathLike).min(1).max(100), label_id: pathLike }),
]);
export type BulkBody = z.output<typeof bulkBody>;

export const typingBody = z.strictObject({ typing: z.boolean() });

export const assignBody = z.strictObject({ member_id: pathLike.nullable() });

export const TICKET_STATUSES = ["open", "pending", "solved"] as const;
export type TicketStatus = (typeof TICKET_STATUSES)[number];

/** GET /inbox/tickets: every filter optional; `all` (the default) is every status. */
export const ticketListQuery = z.strictObject({
  site: pathLike.optional(),
  status: z.enum([...TICKET_STATUSES, "all"]).default("all"),
  /** `me`, `none` (unassigned) or a member's id (an unknown id lists nothing, as `site` does). */
  assignee: pathLike.optional(),
  priority: z.enum(PRIORITIES).optional(),
  /** A team's id, or `none` (docs/teams.md). */
  team: pathLike.optional(),
  /** `me`: only conversations with a note that @mentions the member (the rail's Mentions view). */
  mentioned: z.enum(["me"]).optional(),
  /** From the previous page's `next_cursor`. */
  cursor: keysetCursor().optional(),
  limit: queryInteger(1, 200).default(50),
});
export type TicketListQuery = z.output<typeof ticketListQuery>;

/** PATCH /inbox/tickets/{id}: any of the three; `assignee_id: null` unassigns. */
export const ticketTriageBody = z
  .strictObject({
    status: z.enum(TICKET_STATUSES).optional(),
    assignee_id: pathLike.nullable().optional(),
    priority: z.enum(PRIORITIES).optional(),
  })
  .refine((body) => Object.values(body).some((value) => value !== undefined), "send at least one of status, assignee_id, priority");
export type TicketTriageBody = z.output<typeof ticketTriageBody>;

/** POST /inbox/tickets/{id}/replies: the operator's body without `author_id` (the signed-in member writes). */
export const inboxTicketReplyBody = ticketReplyBody.in.pick({ body: true }).extend({
  /** "Reply and set pending" (or solved): the status the ticket takes with this reply. */
  status: z.enum(TICKET_STATUSES).optional(),
});
