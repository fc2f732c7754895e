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
