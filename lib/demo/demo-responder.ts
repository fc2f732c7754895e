import { sendStaffMessage } from "../conversations/staff-commands";
import { db } from "../db/client";
import { log } from "../core/log";
import { setPresence } from "../conversations/presence";
import { DEMO_MEMBER_ID, DEMO_SITE_ID } from "../seed/seed-demo";

// On the demo site only, a staff member answers every visitor message — typing first, then a
// reply — so a newcomer sees the whole loop with no setup. The demo agent is a bot (`bot` on its
// member row): once a person has replied in the conversation, or it is assigned to one, it steps
// back and leaves it to them.

// Longer than one presence poll interval (3 s is the widget's), so a visitor reliably sees it.
const TYPING_MS = 3_500;

// First match wins: the specific questions (what shipping costs) before the general ones.
const COST = /\b(price|prices|cost|costs|how much|cheap|discount|fee|fees|pay)\b/i;
const SHIPPING = /\b(ship|shipping|shipped|deliver|delivery|postage)\b/i;
const ANSWERS: [(text: string) => boolean, string][] = [
  [(t) => SHIPPING.test(t) && COST.test(t), "Shipping is free on orders over $50; below that it's a flat $5.95."],
  [(t) => /\b(how long|when|arrive|track|order)\b/i.test(t) || SHIPPING.test(t), "Orders leave our warehouse within one business day and usually arrive in 3–5 days."],
  [(t) => COST.test(t), "The Aurora lamp is $89, and there's free shipping on orders over $50."],
  [(t) => /\b(hi|hello|hey|hallo|bonjour)\b/i.test(t), "Hi there! I'm Mira, Lumen & Co.'s assistant. Ask me anything about the Aurora lamp."],
  [(t) => /\b(return|returns|refund)\b/i.test(t), "You can return it within 30 days for a full refund — no questions asked."],
];
const DEFAULT_ANSWER =
  "Thanks for your message! This is the Parley demo: a real staff member would answer here. Try asking about price, shipping or returns.";

export function demoAnswer(visitorText: string): string {
  return ANSWERS.find(([matches]) => matches(visitorText))?.[1] ?? DEFAULT_ANSWER;
}

export const isDemoSite = (siteId: string) => siteId === DEMO_SITE_ID;

/** Whether a person has taken the conversation: a public reply by a member who is not a bot, or an assignment to one. */
export async function humanHasTakenOver(conversationId: string): Promise<boolean> {
  const prisma = await db();
  const [reply, assigned] = await Promise.all([
    prisma.message.findFirst({
      where: { conversationId, authorType: "staff", kind: "message", member: { bot: false } },
      select: { id: true },
    }),
    prisma.conversation.findFirst({ where: { id: conversationId, assignedMember: { bot: false } }, select: { id: true } }),
  ]);
  return reply !== null || assigned !== null;
}

/** Types for a moment, then answers — unless a person has taken over. Meant to run after the response (Next's `after()`). */
export async function answerAsDemoAgent(conversationId: string, visitorText: string, typingMs = TYPING_MS): Promise<void> {
  const agent = { conversationId, actorId: DEMO_MEMBER_ID, authorType: "staff" as const };
  try {
    if (await humanHasTakenOver(conversationId)) return;
    await setPresence(agent, true);
    await new Promise((resolve) => setTimeout(resolve, typingMs));
    if (await humanHasTakenOver(conversationId)) {
      await setPresence(agent, false);
      return;
    }
    await sendStaffMessage(DEMO_MEMBER_ID, conversationId, { body: demoAnswer(visitorText), kind: "message" });
    await setPresence(agent, false);
  } catch (error) {
    log.warn("demo_reply_failed", { conversationId, error });
  }
}
