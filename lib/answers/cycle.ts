import { sqlExecutor } from "../db/client";
import { CYCLE_STATE, type CycleStateRow } from "./statements";

// Where a conversation's current cycle stands for the bot (docs/answers.md, "The handoff rule").
// Assignment is not in it: routing assigns at the start, and that must never silence the bot.

export interface CycleState {
  siteId: string;
  status: string;
  answers: string;
  handedOff: boolean;
  personReplied: boolean;
}

/** `tx`: read inside a caller's transaction (the handoff, under the conversation's lock). */
export async function cycleState(conversationId: string, tx?: { $queryRawUnsafe<T>(query: string, ...values: unknown[]): Promise<T> }): Promise<CycleState | null> {
  const rows = tx
    ? await tx.$queryRawUnsafe<CycleStateRow[]>(CYCLE_STATE, conversationId)
    : ((await (await sqlExecutor()).executeSql(CYCLE_STATE, [conversationId])).rows as CycleStateRow[]);
  const row = rows[0];
  if (!row) return null;
  return { siteId: row.site_id, status: row.status, answers: row.answers, handedOff: row.handed_off, personReplied: row.person_replied };
}

/** The bot may answer: the site is in `bot` mode, the conversation not closed, no person replied and no handoff in this cycle. */
export const botMayAnswer = (state: CycleState | null): state is CycleState =>
  state !== null && state.answers === "bot" && state.status !== "closed" && !state.handedOff && !state.personReplied;
