import { AppError } from "../core/errors";
import { db } from "../db/client";
import type { BulkBody } from "../contracts/inbox";
import { addConversationLabel } from "../labels/conversation-labels";
import { assignConversation, closeConversation } from "../conversations/staff-commands";
import { assertMaySee, type Looker } from "../teams/access";

// The list's bulk actions (POST /inbox/conversations/bulk): one act on up to 100 conversations,
// each through the same staff command a single one goes through (so each records its own
// timeline event), answered per id. What the whole request names (the member, the label) is
// checked first: a bad one refuses the request and changes nothing. A conversation that cannot
// take the act (unknown id) is reported in its own result; the others go ahead.

export interface BulkResult {
  id: string;
  ok: boolean;
  error?: { code: string; message: string };
}

export async function runBulkAction(actor: Looker, body: BulkBody): Promise<{ action: BulkBody["action"]; results: BulkResult[] }> {
  await checkTarget(body);
  const results: BulkResult[] = [];
  for (const id of [...new Set(body.ids)]) {
    try {
      await assertMaySee(actor, "conversation", id); // hidden: not_found in its own result, as one route would answer
      await act(id, body, actor.id);
      results.push({ id, ok: true });
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      results.push({ id, ok: false, error: { code: error.code, message: error.message } });
    }
  }
  return { action: body.action, results };
}

async function act(id: string, body: BulkBody, actorMemberId: string): Promise<unknown> {
  switch (body.action) {
    case "close":
      return closeConversation(id);
    case "assign":
      return assignConversation(id, body.member_id, actorMemberId);
    case "label":
      return addConversationLabel(id, body.label_id, actorMemberId);
  }
}

async function checkTarget(body: BulkBody): Promise<void> {
  const prisma = await db();
  if (body.action === "assign" && body.member_id !== null) {
    const member = await prisma.member.findUnique({ where: { id: body.member_id }, select: { role: true, passwordHash: true, deactivatedAt: true } });
    if (!member?.role || !member.passwordHash || member.deactivatedAt) throw new AppError("member_not_found", "No active team member has this id.");
  }
  if (body.action === "label" && !(await prisma.label.findUnique({ where: { id: body.label_id }, select: { id: true } }))) {
    throw new AppError("not_found", "No label has this id.");
  }
}
