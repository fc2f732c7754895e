import type { SlaKind } from "../contracts/sla";
import { db } from "../db/client";
import type { Prisma, SlaPolicy } from "../generated/prisma/client";
import { hoursClock, type HoursClock } from "../reports/hours-clock";
import { siteSchedules, timelinesOf } from "../reports/statements";
import { computeSla } from "./compute";
import { slaClock } from "./sla-clock";
import { anyStale, clearStale, lockIds, lockMarks, replaceOutcomes, setAside, type OutcomeRow, factsOf, lockDue, lockStale, snoozesOf, writeColumns, type RecordedBreach, type SlaColumns, type SlaFacts } from "./statements";
import { log } from "../core/log";

// Keeps each conversation's SLA columns equal to what computeSla answers now (docs/sla.md). Triggers
// mark a conversation in the transaction of the change; a computation locks marked conversations,
// computes them again and writes their columns. Staff reads compute what is marked before they read
// (one batch: a read shows the current clock but after a change that marked thousands) and record
// nothing; the SLA sweep
// (lib/notifications/sla-sweep.ts, a job) also looks at every conversation whose next check is due,
// and only it records breaches, through the recorder it passes in.

const BATCH = 200;

/** The first policy in list order whose sites, teams and labels match (empty = any). */
export function matchingPolicy(policies: readonly SlaPolicy[], conversation: Pick<SlaFacts, "siteId" | "teamId" | "labelIds">): SlaPolicy | null {
  return (
    policies.find(
      (policy) =>
        (policy.siteIds.length === 0 || policy.siteIds.includes(conversation.siteId)) &&
        (policy.teamIds.length === 0 || (conversation.teamId !== null && policy.teamIds.includes(conversation.teamId))) &&
        (policy.labelIds.length === 0 || policy.labelIds.some((label) => conversation.labelIds.includes(label))),
    ) ?? null
  );
}

const earliest = (dates: (Date | null)[]) =>
  dates.reduce<Date | null>((soonest, date) => (date && (!soonest || date < soonest) ? date : soonest), null);

/** A breach the sweep recorded (lib/notifications/sla-sweep.ts). */
export interface SlaBreachEvent {
  conversationId: string;
  policyId: string;
  kind: SlaKind;
  /** When the target was due. */
  at: Date;
  why: string;
  /** The staff timeline event `sla_breached` that records it. */
  timelineEventId: string;
}

/**
 * Records one breach in the computing transaction and answers its staff timeline event's id: the
 * sweep's (lib/notifications/sla-sweep.ts writes the event, the outbox's `sla.breached` and, after
 * the commit, the rules hook). lib/sla itself never writes to another entity.
 */
export type BreachRecorder = (tx: Prisma.TransactionClient, breach: Omit<SlaBreachEvent, "timelineEventId"> & { policyName: string }) => Promise<string>;

/** Computes these (locked) conversations and writes their columns; with a `recorder`, records new breaches. */
export async function computeLocked(tx: Prisma.TransactionClient, ids: string[], now: Date, recorder: BreachRecorder | null): Promise<SlaBreachEvent[]> {
  if (ids.length === 0) return [];
  const [facts, timelines, snoozes, policies] = await Promise.all([
    factsOf(tx, ids),
    timelinesOf(tx, ids),
    snoozesOf(tx, ids),
    tx.slaPolicy.findMany({ orderBy: [{ position: "asc" }, { createdAt: "asc" }, { id: "asc" }] }),
  ]);
  const timelineOf = new Map(timelines.map((timeline) => [timeline.conversationId, timeline.timeline]));
  const clocks = new Map<string, HoursClock>();
  const clockOf = async (siteId: string) => {
    if (!clocks.has(siteId)) clocks.set(siteId, hoursClock((await siteSchedules(siteId, tx))[0] ?? null));
    return clocks.get(siteId)!;
  };
  const always = hoursClock(null);
  const columns: SlaColumns[] = [];
  const outcomes: OutcomeRow[] = [];
  const recorded: SlaBreachEvent[] = [];
  for (const conversation of facts) {
    const policy = matchingPolicy(policies, conversation);
    if (!policy) {
      columns.push({ id: conversation.id, policyId: null, firstResponseDueAt: null, nextResponseDueAt: null, resolutionDueAt: null, dueAt: null, breachedAt: null, checkAt: null, breaches: conversation.recorded });
      continue;
    }
    const clock = slaClock(policy.businessHours ? await clockOf(conversation.siteId) : always, snoozes.get(conversation.id) ?? []);
    const targets = { firstResponseMinutes: policy.firstResponseMinutes, nextResponseMinutes: policy.nextResponseMinutes, resolutionMinutes: policy.resolutionMinutes };
    const state = computeSla(targets, timelineOf.get(conversation.id) ?? [], clock, now);
    for (const outcome of state.outcomes) {
      const { kind, key, startedAt, dueAt, met } = outcome;
      const memberId = outcome.by ?? conversation.assignedMemberId;
      outcomes.push({ conversationId: conversation.id, key, kind, policyId: policy.id, siteId: conversation.siteId, teamId: conversation.teamId, memberId, startedAt, dueAt, met });
    }
    const breaches = [...conversation.recorded];
    const known = new Set(breaches.map((breach) => breach.key));
    const unrecorded = state.breaches.filter((breach) => !known.has(breach.key));
    if (recorder) {
      for (const breach of unrecorded) {
        const facts = { conversationId: conversation.id, policyId: policy.id, kind: breach.kind, at: breach.at, why: breach.why };
        const timelineEventId = await recorder(tx, { ...facts, policyName: policy.name });
        breaches.push({ kind: breach.kind, at: breach.at.toISOString(), why: breach.why, key: breach.key } satisfies RecordedBreach);
        recorded.push({ ...facts, timelineEventId });
      }
    }
    const pending = [state.firstResponseDueAt, state.nextResponseDueAt, state.resolutionDueAt];
    columns.push({
      id: conversation.id,
      policyId: policy.id,
      firstResponseDueAt: state.firstResponseDueAt,
      nextResponseDueAt: state.nextResponseDueAt,
      resolutionDueAt: state.resolutionDueAt,
      dueAt: earliest(pending),
      breachedAt: state.currentBreachedAt,
      // The sweep looks again at the next due time still ahead, or at once for a breach not yet recorded.
      checkAt: earliest([...pending.filter((due) => due && due > now), ...(recorder ? [] : unrecorded.map((breach) => breach.at))]),
      breaches,
    });
  }
  await writeColumns(tx, columns);
  await replaceOutcomes(tx, ids, outcomes);
  return recorded;
}

async function inTransaction<T>(work: (tx: Prisma.TransactionClient) => Promise<T>): Promise<T> {
  return (await db()).$transaction(work, { timeout: 60_000 });
}

/**
 * Computes the marked conversations (`only`: those of them) without recording breaches: what a
 * staff read does before it reads. At most `maxBatches` batches, so a read after a change that
 * marked a great many (a new policy) stays short; the sweep computes the rest within seconds.
 * Answers how many it computed.
 */
export async function refreshStaleSla(only: string[] | null = null, { now = new Date(), maxBatches = 1 } = {}): Promise<number> {
  if (!(await anyStale(await db(), only))) return 0; // the common case: nothing changed since the last computation
  let total = 0;
  for (let batch = 0; batch < maxBatches; batch++) {
    const { ids } = await computeBatch((tx) => lockStale(tx, BATCH, only), now, null);
    total += ids.length;
    if (ids.length < BATCH) break;
  }
  return total;
}

/** A conversation whose computation fails by itself is looked at again after this long. */
const SET_ASIDE_MS = 60 * 60_000;

/**
 * Locks a batch and computes it in one transaction. If that fails, each conversation of the batch
 * is computed in a transaction of its own, and one that fails alone is set aside (logged, its mark
 * dropped, the sweep's next look in an hour): one conversation's failure must not stop the others'
 * SLA, nor every staff read, which computes the marked ones before it reads.
 */
async function computeBatch(lock: (tx: Prisma.TransactionClient) => Promise<string[]>, now: Date, recorder: BreachRecorder | null): Promise<{ ids: string[]; recorded: SlaBreachEvent[] }> {
  let locked: string[] = [];
  const compute = (tx: Prisma.TransactionClient, ids: string[]) => computeLockedAndClear(tx, ids, now, recorder);
  try {
    return await inTransaction(async (tx) => {
      locked = await lock(tx);
      return { ids: locked, recorded: await compute(tx, locked) };
    });
  } catch (error) {
    if (locked.length === 0) throw error;
    const recorded: SlaBreachEvent[] = [];
    for (const id of locked) {
      try {
        recorded.push(...(await inTransaction(async (tx) => compute(tx, await lockIds(tx, [id])))));
      } catch (failure) {
        log.error("sla_compute_failed", { conversationId: id, error: failure });
        await inTransaction((tx) => setAside(tx, id, new Date(now.getTime() + SET_ASIDE_MS)));
      }
    }
    return { ids: locked, recorded };
  }
}

async function computeLockedAndClear(tx: Prisma.TransactionClient, ids: string[], now: Date, recorder: BreachRecorder | null): Promise<SlaBreachEvent[]> {
  const marks = await lockMarks(tx, ids);
  const recorded = await computeLocked(tx, ids, now, recorder);
  await clearStale(tx, marks);
  return recorded;
}

export interface SweepCounts {
  computed: number;
  breaches: SlaBreachEvent[];
}

/**
 * The SLA sweep's computation: every marked conversation, then every one whose check is due by
 * `now`, each batch in a transaction of its own; `recorder` records each new breach in it.
 */
export async function computeAllDue(now: Date, recorder: BreachRecorder): Promise<SweepCounts> {
  const counts: SweepCounts = { computed: 0, breaches: [] };
  const run = async (lock: (tx: Prisma.TransactionClient) => Promise<string[]>) => {
    for (;;) {
      const { ids, recorded } = await computeBatch(lock, now, recorder);
      counts.computed += ids.length;
      counts.breaches.push(...recorded);
      if (ids.length < BATCH) return;
    }
  };
  await run((tx) => lockStale(tx, BATCH));
  await run((tx) => lockDue(tx, now, BATCH));
  return counts;
}
