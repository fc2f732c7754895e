import { hoursClock } from "./hours-clock";
import { explainCycle, measureCycles, toWireMetrics, type Cycle, type WireMetrics } from "./metrics";
import { siteSchedules, timelineOf } from "./statements";

// One conversation's metrics, for the staff reads (the inbox's and the operator API's) and the
// inbox sidebar's explanation.

export interface ExplainedCycle {
  cycle: Cycle;
  firstResponse: string;
  resolution: string;
}

async function cyclesOf(conversationId: string): Promise<{ cycles: Cycle[]; hasHours: boolean }> {
  const conversation = await timelineOf(conversationId);
  if (!conversation) return { cycles: [], hasHours: false };
  const [schedule] = await siteSchedules(conversation.siteId);
  const clock = hoursClock(schedule ?? null);
  return { cycles: measureCycles(conversation.timeline, clock), hasHours: clock.hasHours };
}

/** `metrics` of a staff conversation read (decisions.md). */
export async function conversationMetrics(conversationId: string): Promise<WireMetrics> {
  return toWireMetrics((await cyclesOf(conversationId)).cycles);
}

/** The cycles with why their figures are what they are (the inbox sidebar). */
export async function explainedConversationMetrics(conversationId: string): Promise<ExplainedCycle[]> {
  const { cycles, hasHours } = await cyclesOf(conversationId);
  return cycles.map((cycle) => ({ cycle, ...explainCycle(cycle, hasHours) }));
}
