import { z } from "zod";
import { staffMessageBody, staffPresenceBody } from "../../../contracts/conversations";
import { snoozeBody } from "../../../contracts/inbox";
import { siteQuery } from "../../../contracts/sites";
import * as wire from "../../../contracts/wire";
import * as workspace from "../../../contracts/workspace-wire";
import { SNOOZE_RULES } from "../shared";
import { routes } from "../../operation";

export const adminConversations = routes({
  "v1/admin/conversations": {
    GET: {
      summary: "A site's conversations, newest first",
      extension: true,
      query: siteQuery,
      answers: { 200: z.array(wire.conversationListItem) },
      errors: ["site_not_found"],
    },
  },
  "v1/admin/conversations/[id]": {
    GET: {
      summary: "A conversation with every message, notes included",
      extension: true,
      answers: { 200: wire.conversationWithMessages },
      errors: ["conversation_not_found"],
    },
  },
  "v1/admin/conversations/[id]/messages": {
    POST: {
      summary: "Post a staff reply or note",
      extension: true,
      body: staffMessageBody,
      answers: { 201: wire.staffSentMessage, 200: wire.staffSentMessage },
      errors: ["conversation_not_found", "member_not_found", "conversation_closed", "client_id_conflict"],
    },
  },
  "v1/admin/conversations/[id]/presence": {
    POST: {
      summary: "Set a staff member's typing presence (10 s)",
      extension: true,
      body: staffPresenceBody,
      answers: { 200: wire.staffPresence },
      errors: ["conversation_not_found", "member_not_found"],
    },
  },
  "v1/admin/conversations/[id]/close": {
    POST: {
      summary: "Close a conversation",
      extension: true,
      answers: { 200: wire.conversation },
      errors: ["conversation_not_found"],
    },
  },
  "v1/admin/conversations/[id]/reopen": {
    POST: {
      summary: "Reopen a conversation",
      extension: true,
      answers: { 200: wire.conversation },
      errors: ["conversation_not_found"],
    },
  },
  "v1/admin/conversations/[id]/snooze": {
    POST: {
      summary: "Snooze a conversation until a time",
      description: SNOOZE_RULES,
      extension: true,
      body: snoozeBody,
      answers: { 200: workspace.snoozeState },
      errors: ["conversation_not_found", "conversation_closed"],
    },
  },
});
