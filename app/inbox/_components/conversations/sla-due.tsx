"use client";

import { useEffect, useState } from "react";
import type { WireSla } from "@/lib/sla/wire";
import styles from "../../inbox.module.css";

// A conversation's SLA clock in the list: "first response due in 12 min", or a red badge once a
// target is overdue (docs/sla.md). Kept current like "waiting 12 min".

const KIND_NAMES = { first_response: "first response", next_response: "next response", resolution: "resolution" } as const;
type Kind = keyof typeof KIND_NAMES;

function span(minutes: number): string {
  if (minutes < 1) return "<1 min";
  if (minutes < 60) return `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  return hours < 24 ? `${hours} h ${minutes % 60} min` : `${Math.floor(hours / 24)} d ${hours % 24} h`;
}

/** The soonest running target: its kind and due time; null when nothing runs. */
export function soonestDue(sla: NonNullable<WireSla>): { kind: Kind; at: string } | null {
  const running: { kind: Kind; at: string | null }[] = [
    { kind: "first_response", at: sla.first_response_due_at },
    { kind: "next_response", at: sla.next_response_due_at },
    { kind: "resolution", at: sla.resolution_due_at },
  ];
  return running
    .filter((entry): entry is { kind: Kind; at: string } => entry.at !== null)
    .sort((a, b) => Date.parse(a.at) - Date.parse(b.at))[0] ?? null;
}

/** "first response due in 12 min" or "first response overdue by 3 min". */
export function slaDueText(due: { kind: Kind; at: string }, now: number): { text: string; overdue: boolean } {
  const minutes = Math.round((Date.parse(due.at) - now) / 60_000);
  const name = KIND_NAMES[due.kind];
  return Date.parse(due.at) <= now ? { text: `${name} overdue by ${span(-minutes)}`, overdue: true } : { text: `${name} due in ${span(minutes)}`, overdue: false };
}

export function SlaDue({ sla }: { sla: WireSla }) {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 30_000);
    return () => clearInterval(timer);
  }, []);
  if (!sla) return null;
  const due = soonestDue(sla);
  if (!due) return null;
  const { text, overdue } = slaDueText(due, now);
  const soon = !overdue && Date.parse(due.at) - now <= 15 * 60_000;
  return (
    <span className={overdue ? styles.slaBreached : soon ? styles.slaSoon : styles.slaDue} data-testid="sla-due" data-overdue={overdue} suppressHydrationWarning>
      {overdue ? "SLA breached: " : ""}
      {text}
    </span>
  );
}
