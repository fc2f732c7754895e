import { db } from "../db/client";
import { env } from "../core/env";
import type { Member } from "../generated/prisma/client";
import type { Availability } from "../contracts/routing";

// Who is there to answer (docs/routing.md). An open inbox tab's event stream beats every 15 s
// (lib/inbox/event-stream.ts) and writes members.inbox_tab_at; the tab reports input (keys,
// pointer, focus) at most once a minute into inbox_input_at; `away` is the member's own choice.
// Availability is derived from these when read, so a closed tab or an idle one needs no job.

/** Three missed heartbeats: the tab (or its server) is gone. */
export const TAB_GONE_AFTER_MS = 45_000;

export type AvailabilityColumns = Pick<Member, "inboxTabAt" | "inboxInputAt" | "away">;

/** The instants before which a heartbeat no longer counts, and input no longer keeps a member online. */
export function availabilityCutoffs(now: Date): { tabSince: Date; inputSince: Date } {
  const idleMinutes = env().AWAY_AFTER_IDLE_MINUTES;
  return {
    tabSince: new Date(now.getTime() - TAB_GONE_AFTER_MS),
    inputSince: idleMinutes === 0 ? new Date(0) : new Date(now.getTime() - idleMinutes * 60_000),
  };
}

export function availabilityOf(member: AvailabilityColumns, now = new Date()): Availability {
  const { tabSince, inputSince } = availabilityCutoffs(now);
  if (!member.inboxTabAt || member.inboxTabAt < tabSince) return "offline";
  const lastInput = member.inboxInputAt ?? member.inboxTabAt;
  return member.away || lastInput < inputSince ? "away" : "online";
}

/** The SQL condition for "online" over a members row `m`, with the cutoffs as parameters $tab and $input. */
export const onlineCondition = (tab: string, input: string) =>
  `m.inbox_tab_at >= ${tab} AND NOT m.away AND COALESCE(m.inbox_input_at, m.inbox_tab_at) >= ${input}`;

/** The member's choice; choosing `online` is input too. Answers the availability it leads to. */
export async function chooseAvailability(memberId: string, choice: "online" | "away"): Promise<Availability> {
  const now = new Date();
  const member = await (await db()).member.update({
    where: { id: memberId },
    data: choice === "away" ? { away: true } : { away: false, inboxInputAt: now },
    select: { inboxTabAt: true, inboxInputAt: true, away: true },
  });
  return availabilityOf(member, now);
}

/** The tab saw the member's input. */
export async function recordInboxInput(memberId: string): Promise<Availability> {
  const now = new Date();
  const member = await (await db()).member.update({
    where: { id: memberId },
    data: { inboxInputAt: now },
    select: { inboxTabAt: true, inboxInputAt: true, away: true },
  });
  return availabilityOf(member, now);
}

/** An inbox tab's stream is open (`opened`: it just connected, which counts as input too). */
export async function recordInboxTab(memberId: string, { opened = false } = {}): Promise<void> {
  const now = new Date();
  await (await db()).member.updateMany({ where: { id: memberId }, data: opened ? { inboxTabAt: now, inboxInputAt: now } : { inboxTabAt: now } });
}
