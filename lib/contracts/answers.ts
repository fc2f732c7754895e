import { z } from "zod";
import { singleLineText } from "../core/validation/strings";

// Site settings of round 4 (decisions.md, "Help center (self-service)", "Answers and the human
// handoff"; docs/answers.md).

export const ANSWER_MODES = ["off", "suggest", "bot"] as const;
export type AnswerMode = (typeof ANSWER_MODES)[number];

export const MAX_HELP_CENTER_TITLE = 80;

/** PATCH a site: either field of `help_center` alone changes only that field. */
export const answerSiteFields = {
  help_center: z
    .strictObject({ enabled: z.boolean().optional(), title: singleLineText(MAX_HELP_CENTER_TITLE).optional() })
    .optional(),
  answers: z.enum(ANSWER_MODES).optional(),
};

/** The columns of answerSiteFields' values. */
export const answerSiteColumns = (fields: { help_center?: { enabled?: boolean; title?: string }; answers?: AnswerMode }) => ({
  helpCenterEnabled: fields.help_center?.enabled,
  helpCenterTitle: fields.help_center?.title,
  answers: fields.answers,
});

export const helpCenterSetting = z.object({
  enabled: z.boolean().describe("the public help center at /help/{siteID} (default false)"),
  title: z.string().describe("its title (1..80; default the widget's title, else the site's name)"),
});
