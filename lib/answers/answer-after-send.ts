import type { Site } from "../generated/prisma/client";

/**
 * The bot's turn after a visitor's message, for the route to run once its answer is sent: nothing
 * (no query, no code loaded) unless the site is in `bot` mode, so sends on other sites pay nothing.
 */
export function botTurnAfterSend(site: Pick<Site, "answers">, conversationId: string, question: string | undefined): (() => Promise<void>) | null {
  if (site.answers !== "bot" || !question) return null;
  return async () => (await import("./bot")).answerAsBot(conversationId, question);
}
