import { z } from "zod";
import { messageSource, named } from "./wire";

// "Suggest a reply" (decisions.md, round 4, "Answers and the human handoff"; docs/answers.md):
// a draft for the agent's composer, never sent without the agent's click.

export const suggestedReply = named(
  "SuggestedReply",
  z.object({
    body: z.string().describe("the draft; empty when nothing fits (no visitor question, no article or saved reply above the threshold)"),
    sources: z.array(messageSource).describe("the articles the draft was drawn from; [] for a saved reply or nothing"),
  }),
);
export type SuggestedReply = z.infer<typeof suggestedReply>;
