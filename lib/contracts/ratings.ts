import { z } from "zod";
import { requiredText } from "../core/validation/strings";
import { isoTime, named } from "./wire";

/** POST /visitor/rating (decisions.md, round 3, "Satisfaction and reports"). */
export const rateConversationBody = z.strictObject({
  score: z.int().min(1).max(5),
  comment: requiredText(1000).optional(),
});
export type RateConversationInput = z.output<typeof rateConversationBody>;

export const rating = named(
  "Rating",
  z.object({
    score: z.int().min(1).max(5),
    comment: z.string().nullable(),
    closed_at: isoTime.describe("the close this rating is for"),
    created_at: isoTime,
  }),
);
