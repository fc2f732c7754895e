import { db } from "../db/client";
import { hoursClock, type HoursClock } from "./hours-clock";
import { measureCycles } from "./metrics";
import { lockStale, replaceCycles, type CycleRow } from "./cycle-statements";
import { siteSchedules, timelinesOf, type ConversationTimeline } from "./statements";

// Keeps conversation_cycles equal to what measureCycles answers for each conversation now
// (docs/reports.md, "Precomputed"). Triggers mark a conversation stale in the transaction of the
// change (a public message, a close, a reopen, an assignment, new hours, a member made a bot); a
// measurement locks marked conversations, measures their timelines again and replaces their rows.

const BATCH = 500;

/** The rows of one conversation: its cycles, and the closes that ended none (counted as closes only). */
export function cycleRows(conversation: ConversationTimeline, clock: HoursClock): CycleRow[] {
  const cycles = measureCycles(conversation.timeline, clock);
  const closesOfCycles = new Set(cycles.map((cycle) => cycle.closedAt));
  const base = { conversationId: conversation.conversationId, siteId: conversation.siteId, memberId: conversation.assignedMemberId };
  const rows: CycleRow[] = cycles.map((cycle, index) => ({
    ...base,
    position: index + 1,
    cycle: index + 1,
    startedAt: cycle.startedAt,
    firstResponseS: cycle.firstResponse?.seconds ?? null,
    firstResponseSkippedS: cycle.firstResponse?.skippedSeconds ?? null,
    botRepliesIgnored: cycle.botRepliesIgnored,
    resolutionS: cycle.resolution?.seconds ?? null,
    resolutionSkippedS: cycle.resolution?.skippedSeconds ?? null,
    closedAt: cycle.closedAt,
    firstResponderId: cycle.responderId,
    closedById: cycle.closedById,
  }));
  for (const entry of conversation.timeline) {
    if (entry.kind !== "closed" || closesOfCycles.has(entry.at)) continue;
    rows.push({ ...base, position: rows.length + 1, cycle: null, startedAt: null, firstResponseS: null, firstResponseSkippedS: null, botRepliesIgnored: 0, resolutionS: null, resolutionSkippedS: null, closedAt: entry.at, firstResponderId: null, closedById: entry.memberId ?? null });
  }
  return rows;
}

/** Measures one batch of stale conversations; answers how many. */
async function measureBatch(limit: number): Promise<number> {
  return (await db()).$transaction(
    async (tx) => {
      const ids = await lockStale(tx, limit);
      if (ids.length === 0) return 0;
      const timelines = await timelinesOf(tx, ids);
      const clocks = new Map<string, HoursClock>();
      for (const siteId of new Set(timelines.map((timeline) => timeline.siteId))) {
        const [schedule] = await siteSchedules(siteId, tx);
        clocks.set(siteId, hoursClock(schedule ?? null));
      }
      await replaceCycles(tx, ids, timelines.flatMap((timeline) => cycleRows(timeline, clocks.get(timeline.siteId)!)));
      return ids.length;
    },
    { timeout: 60_000 },
  );
}

/** Measures every stale conversation (a report does this before it reads; so does scripts/measure-cycles.ts). */
export async function measureStaleConversations(onBatch?: (measured: number) => void): Promise<number> {
  let total = 0;
  for (let measured = await measureBatch(BATCH); measured > 0; measured = await measureBatch(BATCH)) {
    total += measured;
    onBatch?.(total);
  }
  return total;
}
