import { z } from "zod";
import type { Family, Operation } from "./operation";
import { staffMessageBody, staffPresenceBody, startConversationBody } from "../contracts/conversations";
import type { ErrorCode } from "../core/errors";
import { createMemberBody, updateMemberBody } from "../contracts/members";
import { listMessagesQuery, sendMessageBody } from "../contracts/messages";
import { pageViewBody } from "../contracts/page-views";
import { presenceQuery } from "../contracts/presence";
import { rateConversationBody, rating } from "../contracts/ratings";
import { createSiteBody, siteQuery, updateSiteBody } from "../contracts/sites";
import { transcriptBody, transcriptQueued } from "../contracts/transcripts";
import { FILE_CONTENT_TYPES, fileDescriptor, ticketBody } from "../contracts/tickets";
import { auditOperations } from "./audit-operations";
import { inboxNotificationOperations } from "./inbox-notification-operations";
import { inboxOperations } from "./inbox-operations";
import { notificationOperations } from "./notification-operations";
import { privacyOperations } from "./privacy-operations";
import { searchOperations } from "./search-operations";
import { articleOperations } from "./article-operations";
import { answerOperations } from "./answer-operations";
import { reportOperations } from "./report-operations";
import { widgetOperations } from "./widget-operations";
import { workspaceOperations } from "./workspace-operations";
import { triageOperations } from "./triage-operations";
import { teamOperations } from "./team-operations";
import { ruleOperations } from "./rule-operations";
import { attributeOperations } from "./attribute-operations";
import { slaOperations } from "./sla-operations";
import * as wire from "../contracts/wire";

// Every operation of the API, for the OpenAPI document (lib/openapi/document.ts). Requests are the
// schemas the routes validate with — tests/contract/openapi.test.ts checks that each route file
// validates with exactly these objects, that no route is missing here, and every answer of the
// integration suite against `answers`. To add a route: add its operation below.


/** The errors every route of a family can answer, besides its operation's own. */
export const FAMILY_ERRORS: Record<Family, ErrorCode[]> = {
  widget: ["invalid_request", "site_not_found", "origin_not_allowed", "rate_limited", "internal_error", "service_unavailable"],
  visitor: [
    "invalid_request",
    "unauthorized",
    "token_expired",
    "origin_mismatch",
    "origin_not_allowed",
    "rate_limited",
    "internal_error",
    "service_unavailable",
  ],
  admin: ["invalid_request", "unauthorized", "internal_error", "service_unavailable"],
  // not_found: an unsupported method, and what the member's teams hide from them (docs/teams.md).
  inbox: ["invalid_request", "unauthorized", "forbidden", "origin_not_allowed", "not_found", "internal_error", "service_unavailable"],
  upload: ["invalid_request", "upload_url_invalid", "upload_url_expired", "origin_not_allowed", "internal_error", "service_unavailable"],
  cron: ["unauthorized", "internal_error", "service_unavailable"],
  inbound: ["invalid_request", "unauthorized", "internal_error", "service_unavailable"],
  probe: ["internal_error"],
};

const WIDGET = "/api/v1/chat/widget/{siteID}";
const VISITOR = "/api/v1/chat/visitor";
const ADMIN = "/api/v1/admin";

const visitorServiceAndOperatorOperations: Operation[] = [
  {
    method: "POST",
    path: `${WIDGET}/conversations`,
    family: "widget",
    summary: "Start a conversation",
    description: "Issues a visitor token bound to this conversation and to the request's Origin (24 h).",
    body: startConversationBody,
    answers: { 201: wire.startedConversation },
    errors: ["email_required", "identity_invalid", "client_id_conflict", "daily_allowance_exhausted"],
  },
  {
    method: "POST",
    path: `${WIDGET}/tickets`,
    family: "widget",
    summary: "File a request (ticket) with files",
    body: ticketBody,
    headers: [
      {
        name: "Idempotency-Key",
        description: "Optional; a replay within 24 h returns the original reply and draws nothing.",
        schema: { type: "string", minLength: 1, maxLength: 100, pattern: "^[\\x21-\\x7E]+$" },
      },
    ],
    answers: { 201: wire.ticketReceipt },
    errors: ["idempotency_conflict", "daily_allowance_exhausted"],
  },
  {
    method: "POST",
    path: `${WIDGET}/visitors`,
    family: "widget",
    summary: "Record a page view",
    body: pageViewBody,
    answers: { 201: null },
  },
  {
    method: "POST",
    path: `${VISITOR}/messages`,
    family: "visitor",
    summary: "Send a message",
    description: "201 for a new message; 200 with `duplicate: true` for a retry with the same client_id and body.",
    body: sendMessageBody,
    answers: { 201: wire.sentMessage, 200: wire.sentMessage },
    errors: ["note_rejected", "client_id_conflict", "conversation_closed", "not_found", "upload_incomplete"],
  },
  {
    method: "POST",
    path: `${VISITOR}/uploads`,
    family: "visitor",
    summary: "Describe a file to send in the chat; answers its one-use upload URL",
    extension: true,
    description:
      "The tickets' types and limits. PUT the bytes to `upload_url` (with `upload_headers`, if any), then send `attachments: [attachment_id]` " +
      "with a message. Bytes that do not start with the declared type's signature are refused and the file never appears.",
    body: fileDescriptor,
    answers: { 201: wire.chatUpload },
  },
  {
    method: "GET",
    path: `${VISITOR}/attachments/{id}`,
    family: "visitor",
    summary: "Download a file of the token's conversation",
    extension: true,
    description: "A file sent in a public message, or the visitor's own upload; any other id (another conversation's) is 404.",
    answers: {},
    rawAnswer: {
      status: 200,
      contentType: "application/octet-stream",
      description:
        "The file's bytes (not the envelope), `Content-Type` the stored media type, `Content-Disposition: inline` for PNG, JPEG, GIF and WebP " +
        "and `attachment` for every other type, `X-Content-Type-Options: nosniff`, `Content-Security-Policy: default-src 'none'; sandbox`.",
    },
    errors: ["not_found"],
  },
  {
    method: "GET",
    path: `${VISITOR}/messages`,
    family: "visitor",
    summary: "List messages (and long-poll with `wait`, an extension)",
    description:
      "Public messages with sequence > cursor, ascending. `wait` (0..25 s, a Parley extension) holds the request until one arrives. " +
      "`presence` (a Parley extension: epoch milliseconds, the newest `expires_at` of others' presence entries the client has seen, 0 for none) " +
      "adds the live presence entries to the answer (`presence`), and a held request also answers when one of them is newer than that " +
      "(staff started or stopped typing): one held request for messages and typing. GET /visitor/presence works as before.",
    query: listMessagesQuery,
    answers: { 200: wire.messagePage },
  },
  {
    method: "GET",
    path: `${VISITOR}/presence`,
    family: "visitor",
    summary: "Read typing presence (and set the visitor's own with `typing`)",
    query: presenceQuery,
    answers: { 200: z.array(wire.presenceEntry) },
  },
  {
    method: "GET",
    path: `${VISITOR}/avatars/{userID}`,
    family: "visitor",
    summary: "A staff member's picture",
    description: "Only for a member who posted a public message in this conversation.",
    answers: { 200: wire.memberPicture },
    errors: ["member_not_found"],
  },
  {
    method: "POST",
    path: `${VISITOR}/rating`,
    family: "visitor",
    summary: "Rate the conversation after a close (round 3)",
    description:
      "Once per close: again after the next close. 409 `rating_closed` while the conversation is open or when this close was already rated. " +
      "Emails after a close carry one-click links to /api/v1/chat/rate (HTML pages for people, not in this document: GET confirms, POST records under these rules; docs/api.md).",
    extension: true,
    body: rateConversationBody,
    answers: { 201: rating },
    errors: ["rating_closed"],
  },
  {
    method: "POST",
    path: `${VISITOR}/transcript`,
    family: "visitor",
    summary: "Email the conversation's transcript to the visitor (round 3)",
    description:
      "Any status (the widget offers it after a close). Body `{}`. Every public message with its sender and time, file names and sizes (never links), " +
      "answerable by email. Asked again with nothing new said since the last transcript: 202 and no second email. A capped automatic email: over the " +
      "recipient's caps or to an address on the suppression list it is kept in the outbox as `suppressed`, and the answer is the same 202. " +
      "400 `email_required` when the conversation has no email.",
    extension: true,
    body: transcriptBody,
    answers: { 202: transcriptQueued },
    errors: ["email_required"],
  },
  {
    method: "POST",
    path: `${VISITOR}/renew`,
    family: "visitor",
    summary: "Renew (rotate) the visitor token",
    answers: { 200: wire.renewedToken },
  },
  {
    method: "PUT",
    path: "/api/v1/uploads/{attachmentId}",
    family: "upload",
    summary: "Upload a ticket's or a chat's file (the service's own signed upload URL)",
    extension: true,
    rawBody: FILE_CONTENT_TYPES,
    answers: { 200: wire.uploadedFile },
    errors: ["already_uploaded"],
  },
  {
    method: "POST",
    path: `${ADMIN}/sites`,
    family: "admin",
    summary: "Create a site (and its inbox)",
    extension: true,
    body: createSiteBody,
    answers: { 201: wire.site },
    errors: ["already_exists"],
  },
  {
    method: "PATCH",
    path: `${ADMIN}/sites/{siteID}`,
    family: "admin",
    summary: "Update a site",
    extension: true,
    body: updateSiteBody,
    answers: { 200: wire.site },
    errors: ["site_not_found"],
  },
  {
    method: "POST",
    path: `${ADMIN}/members`,
    family: "admin",
    summary: "Create a staff member",
    extension: true,
    body: createMemberBody,
    answers: { 201: wire.member },
    errors: ["already_exists"],
  },
  {
    method: "PATCH",
    path: `${ADMIN}/members/{userID}`,
    family: "admin",
    summary: "Update a staff member: removing or changing the email ends their inbox sessions",
    extension: true,
    body: updateMemberBody,
    answers: { 200: wire.member },
    errors: ["member_not_found", "already_exists"],
  },
  {
    method: "GET",
    path: `${ADMIN}/conversations`,
    family: "admin",
    summary: "A site's conversations, newest first",
    extension: true,
    query: siteQuery,
    answers: { 200: z.array(wire.conversationListItem) },
    errors: ["site_not_found"],
  },
  {
    method: "GET",
    path: `${ADMIN}/conversations/{id}`,
    family: "admin",
    summary: "A conversation with every message, notes included",
    extension: true,
    answers: { 200: wire.conversationWithMessages },
    errors: ["conversation_not_found"],
  },
  {
    method: "POST",
    path: `${ADMIN}/conversations/{id}/messages`,
    family: "admin",
    summary: "Post a staff reply or note",
    extension: true,
    body: staffMessageBody,
    answers: { 201: wire.staffSentMessage, 200: wire.staffSentMessage },
    errors: ["conversation_not_found", "member_not_found", "conversation_closed", "client_id_conflict"],
  },
  {
    method: "POST",
    path: `${ADMIN}/conversations/{id}/presence`,
    family: "admin",
    summary: "Set a staff member's typing presence (10 s)",
    extension: true,
    body: staffPresenceBody,
    answers: { 200: wire.staffPresence },
    errors: ["conversation_not_found", "member_not_found"],
  },
  {
    method: "POST",
    path: `${ADMIN}/conversations/{id}/close`,
    family: "admin",
    summary: "Close a conversation",
    extension: true,
    answers: { 200: wire.conversation },
    errors: ["conversation_not_found"],
  },
  {
    method: "GET",
    path: `${ADMIN}/tickets`,
    family: "admin",
    summary: "A site's tickets with their attachments, newest first",
    extension: true,
    query: siteQuery,
    answers: { 200: z.array(wire.ticket) },
    errors: ["site_not_found"],
  },
  {
    method: "GET",
    path: `${ADMIN}/page-views`,
    family: "admin",
    summary: "A site's page views, newest first",
    extension: true,
    query: siteQuery,
    answers: { 200: z.array(wire.pageView) },
    errors: ["site_not_found"],
  },
  {
    method: "GET",
    path: "/api/health",
    family: "probe",
    summary: "Liveness",
    extension: true,
    answers: { 200: wire.health },
  },
  {
    method: "GET",
    path: "/api/ready",
    family: "probe",
    summary: "Readiness: the database and (when configured) Redis answer",
    extension: true,
    answers: { 200: wire.readiness },
    errors: ["service_unavailable"],
  },
];

/** Every operation; each area keeps its own in a file beside this one. */
export const operations: Operation[] = [
  ...visitorServiceAndOperatorOperations,
  ...notificationOperations,
  ...inboxOperations,
  ...inboxNotificationOperations,
  ...workspaceOperations,
  ...triageOperations,
  ...searchOperations,
  ...articleOperations,
  ...answerOperations,
  ...privacyOperations,
  ...widgetOperations,
  ...auditOperations,
  ...reportOperations,
  ...teamOperations,
  ...ruleOperations,
  ...attributeOperations,
  ...slaOperations,
];
