import { randomUUID } from "node:crypto";
import { db, type PrismaClient } from "../db/client";
import { assertAssigneeMaySee } from "../teams/access";
import { AppError } from "../core/errors";
import type { TicketStatus } from "../contracts/inbox";

// A ticket's triage: its status (open, pending, solved), assignee and priority. Each change is one
// row in ticket_events, written in the transaction that makes it, so the ticket's page shows who
// changed what ("Ada set status to solved"); the filer's emailed reply reopens a pending or solved
// ticket with a row of no member.

type Transaction = Parameters<Parameters<PrismaClient["$transaction"]>[0]>[0];

export interface TriageChange {
  status?: TicketStatus;
  /** null unassigns. */
  assigneeId?: string | null;
  priority?: string;
}

interface Current {
  status: string;
  assignee_id: string | null;
  priority: string;
}

const ticketNotFound = () => new AppError("not_found", "No ticket has this identifier.");

/** Refuses anyone but an active member who can sign in (bots and deactivated members are not assignable). */
async function assertAssignable(memberId: string): Promise<void> {
  const member = await (await db()).member.findUnique({ where: { id: memberId }, select: { role: true, passwordHash: true, deactivatedAt: true, bot: true } });
  if (!member || !member.role || !member.passwordHash || member.deactivatedAt || member.bot) {
    throw new AppError("member_not_found", "No active team member has this id.");
  }
}

/** Applies `change` to the locked ticket inside `tx`; returns whether anything changed. */
async function applyChange(tx: Transaction, ticketId: string, change: TriageChange, actorMemberId: string | null): Promise<boolean> {
  const [current] = await tx.$queryRaw<Current[]>`SELECT status, assignee_id, priority FROM tickets WHERE id = ${ticketId} FOR UPDATE`;
  if (!current) throw ticketNotFound();
  const events: { field: string; oldValue: string | null; newValue: string | null }[] = [];
  if (change.status !== undefined && change.status !== current.status) events.push({ field: "status", oldValue: current.status, newValue: change.status });
  if (change.assigneeId !== undefined && change.assigneeId !== current.assignee_id) {
    events.push({ field: "assignee", oldValue: current.assignee_id, newValue: change.assigneeId });
  }
  if (change.priority !== undefined && change.priority !== current.priority) events.push({ field: "priority", oldValue: current.priority, newValue: change.priority });
  if (events.length === 0) return false;
  const now = new Date();
  const statusChange = events.some((event) => event.field === "status");
  await tx.ticket.update({
    where: { id: ticketId },
    data: {
      ...(change.status !== undefined ? { status: change.status } : {}),
      ...(change.assigneeId !== undefined ? { assigneeId: change.assigneeId } : {}),
      ...(change.priority !== undefined ? { priority: change.priority } : {}),
      ...(statusChange ? { solvedAt: change.status === "solved" ? now : null } : {}),
      updatedAt: now,
    },
  });
  await tx.ticketEvent.createMany({
    data: events.map((event) => ({ id: `te_${randomUUID()}`, ticketId, memberId: actorMemberId, ...event, createdAt: now })),
  });
  return true;
}

/** PATCH /inbox/tickets/{id}: checks everything before changing anything (a refusal changes nothing). */
export async function triageTicket(ticketId: string, change: TriageChange, actorMemberId: string): Promise<void> {
  if (change.assigneeId) {
    await assertAssignable(change.assigneeId);
    await assertAssigneeMaySee("ticket", ticketId, change.assigneeId);
  }
  await (await db()).$transaction((tx) => applyChange(tx, ticketId, change, actorMemberId));
}

/**
 * A reply in `tx`: bumps `updated_at` and sets the status it brings — a staff reply's "and set
 * pending" (or solved), or `open` for the filer's reply (actor null), which reopens a pending or solved ticket.
 */
export async function statusAfterReply(tx: Transaction, ticketId: string, status: TicketStatus | undefined, actorMemberId: string | null): Promise<void> {
  if (status === undefined || !(await applyChange(tx, ticketId, { status }, actorMemberId))) {
    await tx.ticket.update({ where: { id: ticketId }, data: { updatedAt: new Date() } });
  }
}
