import { conversationAttributesBody, conversationAttributesResult } from "../../../contracts/attributes";
import { assignBody, bulkBody, conversationListQuery, inboxMessageBody, snoozeBody, typingBody } from "../../../contracts/inbox";
import * as inbox from "../../../contracts/inbox-wire";
import { conversationLabelsBody } from "../../../contracts/labels";
import { suggestedReply } from "../../../contracts/suggestions";
import { conversationTeam, conversationTeamBody } from "../../../contracts/teams";
import { fileDescriptor } from "../../../contracts/tickets";
import * as wire from "../../../contracts/wire";
import * as workspace from "../../../contracts/workspace-wire";
import { SNOOZE_RULES } from "../shared";
import { routes } from "../../operation";

// The inbox's conversations: the list and its filters, a thread, replies and notes, triage
// (snooze, bulk actions; docs/api.md, "Triage (inbox)"), labels, teams, attributes, suggestions.

export const inboxConversations = routes({
  "v1/inbox/conversations": {
    GET: {
      summary: "Conversations, newest activity first, with unread counts",
      extension: true,
      query: conversationListQuery,
      answers: { 200: inbox.inboxConversationPage },
    },
  },
  "v1/inbox/conversations/[id]": {
    GET: {
      summary: "A whole conversation, notes included (marks it read for this member)",
      extension: true,
      answers: { 200: inbox.inboxConversation },
      errors: ["conversation_not_found"],
    },
  },
  "v1/inbox/conversations/[id]/messages": {
    POST: {
      summary: "Reply or add a note as the signed-in member",
      description: "201 for a new message; 200 with `duplicate: true` for a replayed client_id. Clears the member's typing.",
      extension: true,
      body: inboxMessageBody,
      answers: { 201: inbox.inboxSentMessage, 200: inbox.inboxSentMessage },
      errors: ["conversation_not_found", "conversation_closed", "client_id_conflict", "not_found", "upload_incomplete"],
    },
  },
  "v1/inbox/conversations/[id]/uploads": {
    POST: {
      summary: "Describe a file to send in the conversation; answers its one-use upload URL",
      description: "As POST /api/v1/chat/visitor/uploads, for the staff side: send the id in a reply's or note's `attachments`.",
      extension: true,
      body: fileDescriptor,
      answers: { 201: wire.chatUpload },
      errors: ["conversation_not_found"],
    },
  },
  "v1/inbox/conversations/[id]/typing": {
    POST: {
      summary: "Set the member's typing presence (the visitor sees it, 10 s)",
      extension: true,
      body: typingBody,
      answers: { 200: inbox.inboxTyping },
      errors: ["conversation_not_found"],
    },
  },
  "v1/inbox/conversations/[id]/assign": {
    POST: {
      summary: "Assign a conversation to an active member (null: unassign)",
      extension: true,
      body: assignBody,
      answers: { 200: inbox.inboxAssignment },
      errors: ["conversation_not_found", "member_not_found"],
    },
  },
  "v1/inbox/conversations/[id]/close": {
    POST: {
      summary: "Close a conversation",
      extension: true,
      answers: { 200: wire.conversation },
      errors: ["conversation_not_found"],
    },
  },
  "v1/inbox/conversations/[id]/reopen": {
    POST: {
      summary: "Reopen a conversation",
      extension: true,
      answers: { 200: wire.conversation },
      errors: ["conversation_not_found"],
    },
  },
  "v1/inbox/conversations/[id]/labels": {
    PUT: {
      summary: "Set a conversation's labels (the whole set)",
      description: "An id that names no label: 400 `invalid_request` with `fields: [{path: \"labels.<index>\"}]`, nothing changed.",
      extension: true,
      body: conversationLabelsBody,
      answers: { 200: workspace.conversationLabels },
      errors: ["conversation_not_found"],
    },
  },
  "v1/inbox/conversations/[id]/snooze": {
    POST: {
      summary: "Snooze a conversation until a time",
      description: SNOOZE_RULES,
      extension: true,
      body: snoozeBody,
      answers: { 200: workspace.snoozeState },
      errors: ["conversation_not_found", "conversation_closed"],
    },
  },
  "v1/inbox/conversations/[id]/unsnooze": {
    POST: {
      summary: "Open a snoozed conversation now",
      description: "An open or closed conversation stays as it is.",
      extension: true,
      answers: { 200: workspace.snoozeState },
      errors: ["conversation_not_found"],
    },
  },
  "v1/inbox/conversations/bulk": {
    POST: {
      summary: "Close, assign or label up to 100 conversations, answered per id",
      description:
        "`action: \"close\"`, `\"assign\"` with `member_id` (null: nobody) or `\"label\"` with `label_id` (added to each). An unknown member (404 `member_not_found`) or label (404 `not_found`) refuses the whole request; an unknown conversation is reported in its own result. Each act records its timeline event.",
      extension: true,
      body: bulkBody,
      answers: { 200: workspace.bulkResults },
      errors: ["member_not_found", "not_found"],
    },
  },
  "v1/inbox/conversations/[id]/suggest": {
    POST: {
      summary: "Suggest a reply",
      description:
        "No body. A draft answering the visitor's latest message, for the composer; nothing is sent. With a model configured (`AI_BASE_URL`), the model's answer " +
        "from the top three passages Parley's search found, citing them; otherwise (or when the model fails) the best of the member's saved replies or the best article " +
        "passage, whichever holds more of the question's words, each only above the bot's threshold. Nothing fits: `{body: \"\", sources: []}`.",
      extension: true,
      answers: { 200: suggestedReply },
      errors: ["conversation_not_found"],
    },
  },
  "v1/inbox/conversations/[id]/team": {
    PUT: {
      summary: "Move a conversation to a team, or out of every team (`team_id: null`)",
      description:
        "Writes the staff timeline event `team_changed`. An open, unassigned conversation moved into a round-robin team is routed inside it. An unknown `team_id`: 400.",
      extension: true,
      body: conversationTeamBody,
      answers: { 200: conversationTeam },
      errors: ["conversation_not_found", "not_found"],
    },
  },
  "v1/inbox/conversations/[id]/attributes": {
    PATCH: {
      summary: "Set or remove (null) a conversation's attribute values",
      description:
        "Body `{attributes: {key: value | null}}` (a bare `{key: value}` is read the same). Each value must be of its definition's type (text, number, date as YYYY-MM-DD, boolean, one of a list's options, an http(s) link); an unknown key or a wrong type: 400, nothing saved. A change writes the staff timeline event `attributes_changed`.",
      extension: true,
      body: conversationAttributesBody,
      answers: { 200: conversationAttributesResult },
      errors: ["conversation_not_found", "not_found"],
    },
  },
});
