import { randomUUID } from "node:crypto";
import { db } from "../db/client";
import { appendInTransaction } from "./append-message";

// Staff-only timeline events: a system note with `event` set, which visitors never see.
// (Branch r3-triage builds the full module with this same signature; the two are reconciled at merge.)

export type TimelineEvent = "assigned" | "labelled" | "snoozed" | "unsnoozed" | "reassigned" | "rated";

export interface TimelineDetails {
  actorMemberId?: string | null;
  [key: string]: unknown;
}

export async function appendTimelineEvent(conversationId: string, event: TimelineEvent, details: TimelineDetails): Promise<void> {
  const { actorMemberId, ...rest } = details;
  const body = `${event}${Object.keys(rest).length > 0 ? ` ${JSON.stringify(rest)}` : ""}`;
  await (await db()).$transaction(async (tx) => {
    const { message } = await appendInTransaction(tx, {
      conversationId,
      authorType: "system",
      authorId: actorMemberId ?? "system",
      kind: "note",
      body,
      clientId: `timeline_${event}_${randomUUID()}`,
    });
    await tx.message.update({ where: { id: message.id }, data: { event } });
  });
}
