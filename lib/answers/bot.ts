import { db } from "../db/client";
import { log } from "../core/log";
import { sendEndingTyping } from "../conversations/staff-commands";
import { setPresence } from "../conversations/presence";
import type { MessageSource } from "../conversations/message-view";
import { answerFromPassage, topPassages, type Passage } from "./best-answer";
import { modelAnswer, modelConfigured } from "./model";
import { botMayAnswer, cycleState } from "./cycle";

// The deterministic bot (decisions.md, round 4, "Answers and the human handoff"; docs/answers.md).
// It runs after the visitor's send has been answered (afterResponse), never inside it: it reads
// the cycle, types for a moment, reads the cycle again (a person or a handoff may have come in
// meanwhile), and answers with a passage and its sources — or, with no article above the
// threshold, says nothing and the conversation waits for people as before.

/** Longer than one presence poll (the widget's is 3 s), so a visitor sees it typing. */
const TYPING_MS = 3_500;
/** The bot every site without one of its own answers as. */
export const SHARED_BOT_ID = "parley-answers";

/**
 * Who answers for the site: its first bot among the widget's faces (the chosen team_member_ids;
 * with none chosen, the members every widget shows), else a shared bot created when first needed.
 * Never a bot only another site shows.
 */
async function botMemberFor(siteId: string): Promise<string> {
  const prisma = await db();
  const site = await prisma.site.findUnique({ where: { id: siteId }, select: { teamMemberIds: true } });
  const faces = site?.teamMemberIds ?? [];
  if (faces.length) {
    const bots = await prisma.member.findMany({ where: { id: { in: faces }, bot: true, deactivatedAt: null }, select: { id: true } });
    const first = faces.find((id) => bots.some((bot) => bot.id === id));
    if (first) return first;
  } else {
    const shown = await prisma.member.findFirst({ where: { bot: true, shownInWidget: true, deactivatedAt: null }, orderBy: [{ createdAt: "asc" }, { id: "asc" }], select: { id: true } });
    if (shown) return shown.id;
  }
  await prisma.member.upsert({ where: { id: SHARED_BOT_ID }, create: { id: SHARED_BOT_ID, name: "Answers", bot: true }, update: {} });
  return SHARED_BOT_ID;
}

/** The model's answer from the passages when one is configured and answers, else the deterministic one. */
async function phrase(siteId: string, question: string, passages: Passage[]): Promise<{ body: string; sources: MessageSource[] }> {
  if (modelConfigured()) {
    const site = await (await db()).site.findUnique({ where: { id: siteId }, select: { id: true, origins: true } });
    const phrased = site ? await modelAnswer(site, question, passages) : null;
    if (phrased) return phrased;
  }
  return answerFromPassage(passages[0]!);
}

/** Answers the visitor's `question` in `conversationId` when the rules allow and an article clears the threshold. */
export async function answerAsBot(conversationId: string, question: string, typingMs = TYPING_MS): Promise<void> {
  try {
    const state = await cycleState(conversationId);
    if (!botMayAnswer(state)) return;
    const passages = await topPassages(state.siteId, question);
    if (passages.length === 0) return;
    const botId = await botMemberFor(state.siteId);
    const typing = { conversationId, actorId: botId, authorType: "staff" as const };
    await setPresence(typing, true);
    // It types while a model phrases the answer, and at least typingMs in all.
    const typedUntil = Date.now() + typingMs;
    const answer = await phrase(state.siteId, question, passages);
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, typedUntil - Date.now())));
    if (botMayAnswer(await cycleState(conversationId))) {
      await sendEndingTyping(botId, conversationId, { body: answer.body, kind: "message", sources: answer.sources });
    } else {
      await setPresence(typing, false);
    }
  } catch (error) {
    log.warn("bot_answer_failed", { conversationId, error });
  }
}
