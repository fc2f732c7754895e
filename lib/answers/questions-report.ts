import { db } from "../db/client";
import { AppError } from "../core/errors";
import type { AnswerOutcomes, AnswersReportQuery } from "../contracts/reports";
import type { z } from "zod";
import type { questionsReport } from "../contracts/reports";
import { bestArticle } from "./best-answer";
import { ANSWER_OUTCOMES, FEEDBACK_COUNTS, MODEL_USAGE_SUM, QUESTION_GROUPS, type AnswerOutcomeRow, type QuestionGroupRow } from "./statements";

// The reports' side of answers (decisions.md, round 4; docs/answers.md, "In the reports"): the
// questions no article answers, so an owner knows which article to write next, and what the
// answers did (the bot's, the handoffs, the votes, the model's calls).

type QuestionsReport = z.infer<typeof questionsReport>;

/** The largest groups looked at; each costs one article match. */
export const MAX_QUESTION_GROUPS = 100;

async function assertSite(siteId: string | null): Promise<void> {
  if (siteId && !(await (await db()).site.findUnique({ where: { id: siteId }, select: { id: true } }))) {
    throw new AppError("site_not_found", "No site has this identifier.");
  }
}

/** The first visitor messages of the range grouped; each group with the article that answers it now (the bot's threshold), unanswered groups first. */
export async function questionsNoArticleAnswers(query: AnswersReportQuery): Promise<QuestionsReport> {
  await assertSite(query.site);
  const prisma = await db();
  const groups = await prisma.$queryRawUnsafe<QuestionGroupRow[]>(QUESTION_GROUPS, query.site, query.from, query.to, MAX_QUESTION_GROUPS);
  const items = [];
  for (const group of groups) {
    const article = await bestArticle(group.site_id, group.question);
    items.push({ question: group.question, count: Number(group.count), examples: group.examples, article: article ? { id: article.id, title: article.title } : null });
  }
  // Stable: within each half the SQL's order (largest first) stays.
  return { items: [...items.filter((item) => !item.article), ...items.filter((item) => item.article)] };
}

const day = (at: Date) => at.toISOString().slice(0, 10);

export async function answerOutcomes(query: AnswersReportQuery): Promise<AnswerOutcomes> {
  await assertSite(query.site);
  const prisma = await db();
  const range = [query.site, query.from, query.to] as const;
  const [[outcomes], [feedback], [model]] = await Promise.all([
    prisma.$queryRawUnsafe<AnswerOutcomeRow[]>(ANSWER_OUTCOMES, ...range),
    prisma.$queryRawUnsafe<{ helpful: number; not_helpful: number }[]>(FEEDBACK_COUNTS, ...range),
    prisma.$queryRawUnsafe<{ calls: number; prompt_tokens: number; completion_tokens: number }[]>(MODEL_USAGE_SUM, query.site, day(query.from), day(new Date(query.to.getTime() - 1))),
  ]);
  return {
    from: query.from.toISOString(),
    to: query.to.toISOString(),
    site: query.site,
    conversations: outcomes!.conversations,
    bot_answered: outcomes!.bot_answered,
    bot_resolved: outcomes!.bot_resolved,
    handed_off: outcomes!.handed_off,
    feedback: { helpful: feedback!.helpful, not_helpful: feedback!.not_helpful },
    model: { calls: model!.calls, prompt_tokens: model!.prompt_tokens, completion_tokens: model!.completion_tokens },
  };
}
