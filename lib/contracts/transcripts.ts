import { z } from "zod";
import { named } from "./wire";

/** POST /visitor/transcript (decisions.md, round 3, "Email in both directions"): nothing to say but the request. */
export const transcriptBody = z.strictObject({});

export const transcriptQueued = named("TranscriptQueued", z.object({ queued: z.literal(true) }));
