import { z } from "zod";
import { SAVED_REPLY_SCOPES } from "./saved-replies";
import { isoTime, named } from "./wire";

// The wire shapes of the agent's workspace (saved replies, labels), registered beside the others
// of lib/contracts/wire.ts and checked against every answer of the integration suite.

export const label = named(
  "Label",
  z.object({
    id: z.string(),
    name: z.string().max(40),
    color: z.string().regex(/^#[0-9a-f]{6}$/).describe("#rrggbb, lower-case"),
  }),
);

export const deletedLabel = named("DeletedLabel", z.object({ id: z.string(), deleted: z.literal(true) }));

export const conversationLabels = named(
  "ConversationLabels",
  z.object({ conversation_id: z.string(), labels: z.array(label).describe("by name") }),
);

export const savedReply = named(
  "SavedReply",
  z.object({
    id: z.string(),
    scope: z.enum(SAVED_REPLY_SCOPES).describe("`personal` replies are the signed-in member's own; no one else sees them"),
    shortcut: z.string().regex(/^[a-z0-9_-]{1,32}$/),
    title: z.string().max(80),
    body: z.string().max(4000).describe("may hold {{visitor.name}}, {{visitor.name|fallback}}, {{agent.name}}, {{site.name}}: filled in by the composer"),
    created_at: isoTime,
    updated_at: isoTime,
  }),
);

export const deletedSavedReply = named("DeletedSavedReply", z.object({ id: z.string(), deleted: z.literal(true) }));

export const snoozeState = named(
  "SnoozeState",
  z.object({
    conversation_id: z.string(),
    status: z.enum(["open", "snoozed", "closed"]),
    snoozed_until: isoTime.nullable().describe("null unless snoozed"),
  }),
);

export const bulkResults = named(
  "BulkResults",
  z.object({
    action: z.enum(["close", "assign", "label"]),
    results: z
      .array(
        z.object({
          id: z.string(),
          ok: z.boolean(),
          error: z.object({ code: z.string(), message: z.string() }).optional().describe("why this conversation did not take the act (e.g. `conversation_not_found`)"),
        }),
      )
      .describe("one per distinct id, in the order given"),
  }),
);

export const mentionList = named(
  "MentionList",
  z.object({
    items: z
      .array(
        z.object({
          id: z.string(),
          conversation_id: z.string(),
          message_id: z.string(),
          author_name: z.string().nullable(),
          excerpt: z.string().max(140),
          created_at: isoTime,
        }),
      )
      .max(20)
      .describe("the signed-in member's latest @mentions in notes, newest first"),
  }),
);
