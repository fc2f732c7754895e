import { formatDuration, measureCycles, type TimelineEntry } from "../reports/metrics";
import type { SlaKind } from "../contracts/sla";
import type { SlaClock } from "./sla-clock";

// What a policy's targets mean for one conversation (decisions.md, round 4, "SLA policies";
// docs/sla.md). Cycles are the reports' (measureCycles: the first visitor message and each reopen
// start one), measured with the SLA clock (the reports' hours clock, snoozes taken out):
// - first response: from the cycle's first visitor message to the first public reply by a person
//   (a bot's does not count); a close stops it too.
// - next response: after a person replied in the cycle, from a visitor message nobody answered yet
//   to the next public reply by a person; a close stops it.
// - resolution: from the cycle's start to its close.
// A target is breached when its due time passes before it stops.

export interface SlaTargets {
  firstResponseMinutes: number | null;
  nextResponseMinutes: number | null;
  resolutionMinutes: number | null;
}

export interface ComputedBreach {
  kind: SlaKind;
  /** When the target was due. */
  at: Date;
  why: string;
  /** Names the wait it belongs to: the same breach computed again has the same key. */
  key: string;
}

/** One target of one wait, for the reports' "% met". */
export interface SlaOutcome {
  kind: SlaKind;
  key: string;
  startedAt: Date;
  dueAt: Date;
  /** null while it runs and is not yet due. */
  met: boolean | null;
  /** The member who stopped it (replied, or closed); null when nobody did (yet). */
  by: string | null;
}

export interface SlaState {
  firstResponseDueAt: Date | null;
  nextResponseDueAt: Date | null;
  resolutionDueAt: Date | null;
  /** Every breach of every cycle, by due time. */
  breaches: ComputedBreach[];
  /** The current (last) cycle's first breach, null when none. */
  currentBreachedAt: Date | null;
  outcomes: SlaOutcome[];
}

/** One wait: from `start`, stopped at `stop` (null: still running). */
interface Wait {
  kind: SlaKind;
  start: Date;
  stop: Date | null;
  /** Whether it belongs to the last cycle. */
  current: boolean;
  by: string | null;
}

export function computeSla(targets: SlaTargets, timeline: readonly TimelineEntry[], clock: SlaClock, now: Date): SlaState {
  const cycles = measureCycles(timeline, clock);
  const waits: Wait[] = [];
  cycles.forEach((cycle, index) => {
    const current = index === cycles.length - 1;
    if (cycle.firstVisitorAt) {
      const by = cycle.respondedAt ? cycle.responderId : cycle.closedById;
      waits.push({ kind: "first_response", start: cycle.firstVisitorAt, stop: cycle.respondedAt ?? cycle.closedAt, current, by });
    }
    waits.push({ kind: "resolution", start: cycle.startedAt, stop: cycle.closedAt, current, by: cycle.closedById });
  });
  waits.push(...nextResponseWaits(timeline, cycles.length));

  const state: SlaState = { firstResponseDueAt: null, nextResponseDueAt: null, resolutionDueAt: null, breaches: [], currentBreachedAt: null, outcomes: [] };
  const keyOf = uniqueKeys();
  for (const wait of waits) {
    const minutes = targetOf(targets, wait.kind);
    if (minutes === null) continue;
    const due = clock.reach(wait.start, minutes * 60_000);
    if (!wait.stop && wait.current) setDue(state, wait.kind, due);
    if (!due) continue;
    const breached = wait.stop ? due.getTime() < wait.stop.getTime() : due.getTime() <= now.getTime();
    const key = keyOf(`${wait.kind}:${wait.start.getTime()}`);
    state.outcomes.push({ kind: wait.kind, key, startedAt: wait.start, dueAt: due, met: breached ? false : wait.stop ? true : null, by: wait.by });
    if (!breached) continue;
    state.breaches.push({ kind: wait.kind, at: due, why: explainBreach(clock, wait, due, minutes), key });
    if (wait.current && (!state.currentBreachedAt || due < state.currentBreachedAt)) state.currentBreachedAt = due;
  }
  state.breaches.sort((a, b) => a.at.getTime() - b.at.getTime() || a.key.localeCompare(b.key));
  return state;
}

/**
 * Two waits of one kind can start at the same instant (a close and a reopen in the same
 * millisecond start a cycle where the last one started): the second gets `#1`, and so on. The
 * timeline's order is fixed, so a wait computed again gets its key again.
 */
function uniqueKeys(): (base: string) => string {
  const seen = new Map<string, number>();
  return (base) => {
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    return count === 0 ? base : `${base}#${count}`;
  };
}

const targetOf = (targets: SlaTargets, kind: SlaKind) =>
  kind === "first_response" ? targets.firstResponseMinutes : kind === "next_response" ? targets.nextResponseMinutes : targets.resolutionMinutes;

function setDue(state: SlaState, kind: SlaKind, due: Date | null) {
  if (kind === "first_response") state.firstResponseDueAt = due;
  else if (kind === "next_response") state.nextResponseDueAt = due;
  else state.resolutionDueAt = due;
}

/** The next-response waits, cycle by cycle as measureCycles splits them (`cycleCount` of them). */
function nextResponseWaits(timeline: readonly TimelineEntry[], cycleCount: number): Wait[] {
  const waits: Wait[] = [];
  let cycle = 0; // the cycle being walked, 1-based; 0 before the first
  let open = false;
  let visitorWrote = false;
  let personReplied = false;
  let waitingSince: Date | null = null;
  const end = (stop: Date | null, by: string | null = null) => {
    if (waitingSince) waits.push({ kind: "next_response", start: waitingSince, stop, current: cycle === cycleCount, by });
    waitingSince = null;
  };
  for (const entry of timeline) {
    if (entry.kind === "visitor") {
      if (!open && cycle === 0) [cycle, open] = [1, true];
      if (!open) continue;
      if (personReplied && !waitingSince) waitingSince = entry.at;
      visitorWrote = true;
    } else if (entry.kind === "reopened") {
      end(entry.at);
      [cycle, open, visitorWrote, personReplied] = [cycle + 1, true, false, false];
    } else if (entry.kind === "closed") {
      end(entry.at, entry.memberId ?? null);
      open = false;
    } else if (open && visitorWrote && !entry.bot) {
      end(entry.at, entry.memberId ?? null);
      personReplied = true;
    }
  }
  if (open) end(null);
  return waits;
}

/** "waited 42 min inside service hours; 15 h outside them not counted (target 30 min)": until the stop, or the due time while it runs. */
function explainBreach(clock: SlaClock, wait: Wait, due: Date, minutes: number): string {
  const until = wait.stop ?? due;
  const { countedMs, outsideMs, snoozedMs } = clock.explain(wait.start, until);
  const seconds = (ms: number) => Math.round(ms / 1000);
  const parts = [clock.hasHours ? `waited ${formatDuration(seconds(countedMs))} inside service hours` : `waited ${formatDuration(seconds(countedMs))}`];
  if (clock.hasHours && outsideMs >= 60_000) parts.push(`${formatDuration(seconds(outsideMs))} outside them not counted`);
  if (snoozedMs >= 60_000) parts.push(`${formatDuration(seconds(snoozedMs))} snoozed not counted`);
  return `${parts.join("; ")} (target ${formatDuration(minutes * 60)})`;
}
