import type { Family, Operation } from "./operation";
import type { ErrorCode } from "../core/errors";
import { widgetConversations } from "./operations/widget/conversations";
import { widgetTickets } from "./operations/widget/tickets";
import { widgetVisitors } from "./operations/widget/visitors";
import { widgetConfig } from "./operations/widget/config";
import { widgetHistory } from "./operations/widget/history";
import { widgetArticles } from "./operations/widget/articles";
import { visitorMessages } from "./operations/visitor/messages";
import { visitorUploads } from "./operations/visitor/uploads";
import { visitorAttachments } from "./operations/visitor/attachments";
import { visitorPresence } from "./operations/visitor/presence";
import { visitorAvatars } from "./operations/visitor/avatars";
import { visitorRating } from "./operations/visitor/rating";
import { visitorTranscript } from "./operations/visitor/transcript";
import { visitorRenew } from "./operations/visitor/renew";
import { visitorHandoff } from "./operations/visitor/handoff";
import { uploadFiles } from "./operations/upload/files";
import { adminSites } from "./operations/admin/sites";
import { adminMembers } from "./operations/admin/members";
import { adminConversations } from "./operations/admin/conversations";
import { adminTickets } from "./operations/admin/tickets";
import { adminPageViews } from "./operations/admin/page-views";
import { adminAttachments } from "./operations/admin/attachments";
import { inboxSession } from "./operations/inbox/session";
import { inboxSso } from "./operations/inbox/sso";
import { inboxPush } from "./operations/inbox/push";
import { inboxInvites } from "./operations/inbox/invites";
import { inboxConversations } from "./operations/inbox/conversations";
import { inboxEvents } from "./operations/inbox/events";
import { inboxTickets } from "./operations/inbox/tickets";
import { inboxAttachments } from "./operations/inbox/attachments";
import { inboxSites } from "./operations/inbox/sites";
import { inboxMembers } from "./operations/inbox/members";
import { inboxSavedReplies } from "./operations/inbox/saved-replies";
import { inboxLabels } from "./operations/inbox/labels";
import { inboxMentions } from "./operations/inbox/mentions";
import { inboxReports } from "./operations/inbox/reports";
import { inboxTeams } from "./operations/inbox/teams";
import { inboxRules } from "./operations/inbox/rules";
import { inboxAttributes } from "./operations/inbox/attributes";
import { inboxSlaPolicies } from "./operations/inbox/sla-policies";
import { inboxEmailSuppressions } from "./operations/inbox/email-suppressions";
import { inboxInboundCounts } from "./operations/inbox/inbound-counts";
import { webhookOperations } from "./operations/inbox-and-admin/webhooks";
import { outboxOperations } from "./operations/inbox-and-admin/outbox";
import { ticketReplyOperations } from "./operations/inbox-and-admin/ticket-replies";
import { searchOperations } from "./operations/inbox-and-admin/search";
import { articleOperations } from "./operations/inbox-and-admin/articles";
import { privacyOperations } from "./operations/inbox-and-admin/privacy";
import { auditOperations } from "./operations/inbox-and-admin/audit";
import { cronDispatch } from "./operations/cron/dispatch";
import { inboundEmail } from "./operations/inbound/email";
import { probeHealth } from "./operations/probe/health";
import { probeReady } from "./operations/probe/ready";

// Every operation of the API, for the OpenAPI document (lib/openapi/document.ts). Requests are the
// schemas the routes validate with — tests/contract/openapi.test.ts checks that each route file
// validates with exactly these objects, that no route is missing here, and every answer of the
// integration suite against `answers`.
//
// To add a route: add its operation to lib/openapi/operations/<family>/<resource>.ts under the
// key of its route file's folder (`v1/inbox/conversations/[id]/close` for
// app/api/v1/inbox/conversations/[id]/close/route.ts) and its method; `routes` derives the path and
// the family from that key (lib/openapi/operation.ts). An operation that the operator API and the
// inbox share (the same service and answers) is written once in operations/inbox-and-admin/.

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

/** Every operation, by family; within a family, by resource. */
export const operations: Operation[] = [
  ...widgetConversations,
  ...widgetTickets,
  ...widgetVisitors,
  ...widgetConfig,
  ...widgetHistory,
  ...widgetArticles,
  ...visitorMessages,
  ...visitorUploads,
  ...visitorAttachments,
  ...visitorPresence,
  ...visitorAvatars,
  ...visitorRating,
  ...visitorTranscript,
  ...visitorRenew,
  ...visitorHandoff,
  ...uploadFiles,
  ...adminSites,
  ...adminMembers,
  ...adminConversations,
  ...adminTickets,
  ...adminPageViews,
  ...adminAttachments,
  ...inboxSession,
  ...inboxSso,
  ...inboxPush,
  ...inboxInvites,
  ...inboxConversations,
  ...inboxEvents,
  ...inboxTickets,
  ...inboxAttachments,
  ...inboxSites,
  ...inboxMembers,
  ...inboxSavedReplies,
  ...inboxLabels,
  ...inboxMentions,
  ...inboxReports,
  ...inboxTeams,
  ...inboxRules,
  ...inboxAttributes,
  ...inboxSlaPolicies,
  ...inboxEmailSuppressions,
  ...inboxInboundCounts,
  ...webhookOperations,
  ...outboxOperations,
  ...ticketReplyOperations,
  ...searchOperations,
  ...articleOperations,
  ...privacyOperations,
  ...auditOperations,
  ...probeHealth,
  ...probeReady,
  ...cronDispatch,
  ...inboundEmail,
];
