import { db } from "../db/client";
import { AppError, invalidRequest } from "../core/errors";
import { canSignInWhere } from "../members/can-sign-in";
import { fillPlaceholders } from "../contracts/placeholders";
import type { RuleAction } from "../contracts/rules";
import { assignConversation, sendStaffMessage } from "../conversations/staff-commands";
import { closeConversationWithNotice } from "../conversations/conversation-status";
import { snoozeConversation } from "../conversations/snooze";
import { moveConversationToTeam } from "../conversations/team-transfer";
import { addConversationLabel, setConversationLabels } from "../labels/conversation-labels";
import type { ActingRule } from "../core/acting-rule";
import { attributeSource } from "./attributes";

// A rule's actions (docs/rules.md, "Actions"). Each calls the service a member's action calls
// (assignment, teams, labels, snooze, close, messages), so visibility checks, the staff timeline,
// webhooks and pushes stay as they are; the caller runs them as the rule's (actAsRule), so what
// they write names the rule. Messages a rule writes (a saved reply, a note) are the rules bot's
// and carry the rule in their details. Saving checks what the actions name exists.

/** The member a rule's messages are written as: a bot, so they are never a person's first response. */
export const RULES_BOT_ID = "parley-rules";
const RULES_BOT_NAME = "Automation";

async function rulesBot(): Promise<string> {
  await (await db()).member.upsert({ where: { id: RULES_BOT_ID }, create: { id: RULES_BOT_ID, name: RULES_BOT_NAME, bot: true }, update: {} });
  return RULES_BOT_ID;
}

/** Marks a message the rule wrote as the rule's (the inbox names it; the idle check skips it). */
async function markAsRules(messageId: string, rule: ActingRule): Promise<void> {
  await (await db()).message.update({ where: { id: messageId }, data: { details: { rule: { id: rule.id, name: rule.name } } } });
}

/** Does one action to the conversation, as `rule`'s; throws what the service threw. */
export async function performAction(action: RuleAction, conversationId: string, rule: ActingRule): Promise<void> {
  switch (action.type) {
    case "assign_team":
      await moveConversationToTeam(conversationId, action.team_id, null);
      return;
    case "assign_member":
      await assignConversation(conversationId, action.member_id, null);
      return;
    case "add_label":
      await addConversationLabel(conversationId, action.label_id, null);
      return;
    case "remove_label": {
      const held = await (await db()).conversationLabel.findMany({ where: { conversationId }, select: { labelId: true } });
      if (held.some((row) => row.labelId === action.label_id)) {
        await setConversationLabels(conversationId, held.map((row) => row.labelId).filter((id) => id !== action.label_id), null);
      }
      return;
    }
    case "snooze":
      await snoozeConversation(conversationId, new Date(Date.now() + action.minutes * 60_000), null);
      return;
    case "close":
      await closeConversationWithNotice(conversationId);
      return;
    case "send_saved_reply": {
      const body = await savedReplyBody(action.saved_reply_id, conversationId);
      const sent = await sendStaffMessage(await rulesBot(), conversationId, { kind: "message", body });
      await markAsRules(sent.message.id, rule);
      return;
    }
    case "add_note": {
      const sent = await sendStaffMessage(await rulesBot(), conversationId, { kind: "note", body: action.body });
      await markAsRules(sent.message.id, rule);
      return;
    }
    case "set_attribute":
      await attributeSource.setValue(conversationId, action.key, action.value);
      return;
  }
}

/** A team saved reply's body with its placeholders filled for this conversation. */
async function savedReplyBody(savedReplyId: string, conversationId: string): Promise<string> {
  const prisma = await db();
  const reply = await prisma.savedReply.findFirst({ where: { id: savedReplyId, memberId: null }, select: { body: true } });
  if (!reply) throw new AppError("not_found", "The saved reply no longer exists.");
  const conversation = await prisma.conversation.findUnique({ where: { id: conversationId }, select: { visitorName: true, site: { select: { name: true } } } });
  if (!conversation) throw new AppError("conversation_not_found", "No conversation has this identifier.");
  return fillPlaceholders(reply.body, { visitorName: conversation.visitorName, agentName: RULES_BOT_NAME, siteName: conversation.site.name });
}

/**
 * 400 naming the first action whose team, member, label, saved reply (a team reply) or attribute
 * does not exist; nothing is saved.
 */
export async function checkActionReferences(actions: RuleAction[], path = "actions"): Promise<void> {
  const prisma = await db();
  const ids = (type: RuleAction["type"], pick: (action: never) => string) => actions.filter((action) => action.type === type).map((action) => pick(action as never));
  const teamIds = ids("assign_team", (action: { team_id: string }) => action.team_id);
  const memberIds = ids("assign_member", (action: { member_id: string }) => action.member_id);
  const labelIds = [...ids("add_label", (action: { label_id: string }) => action.label_id), ...ids("remove_label", (action: { label_id: string }) => action.label_id)];
  const replyIds = ids("send_saved_reply", (action: { saved_reply_id: string }) => action.saved_reply_id);
  const [teams, members, labels, replies] = await Promise.all([
    teamIds.length ? prisma.team.findMany({ where: { id: { in: teamIds } }, select: { id: true } }) : [],
    memberIds.length ? prisma.member.findMany({ where: { id: { in: memberIds }, ...canSignInWhere }, select: { id: true } }) : [],
    labelIds.length ? prisma.label.findMany({ where: { id: { in: labelIds } }, select: { id: true } }) : [],
    replyIds.length ? prisma.savedReply.findMany({ where: { id: { in: replyIds }, memberId: null }, select: { id: true } }) : [],
  ]);
  const known = new Set([...teams, ...members, ...labels, ...replies].map((row) => row.id));
  for (const [index, action] of actions.entries()) {
    const missing = await missingReference(action, known);
    if (missing) throw invalidRequest(`The action at ${path}.${index}: ${missing.problem}.`, [{ path: `${path}.${index}.${missing.field}`, problem: missing.problem }]);
  }
}

async function missingReference(action: RuleAction, known: Set<string>): Promise<{ field: string; problem: string } | null> {
  switch (action.type) {
    case "assign_team":
      return known.has(action.team_id) ? null : { field: "team_id", problem: "no team has this id" };
    case "assign_member":
      return known.has(action.member_id) ? null : { field: "member_id", problem: "no active team member has this id" };
    case "add_label":
    case "remove_label":
      return known.has(action.label_id) ? null : { field: "label_id", problem: "no label has this id" };
    case "send_saved_reply":
      return known.has(action.saved_reply_id) ? null : { field: "saved_reply_id", problem: "no team saved reply has this id" };
    case "set_attribute":
      return (await attributeSource.kindOf(action.key)) ? null : { field: "key", problem: "no attribute has this key" };
    default:
      return null;
  }
}
