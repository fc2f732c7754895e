import { z } from "zod";
import { assignBody, conversationListQuery, inboxMessageBody, ticketListQuery, ticketTriageBody, typingBody } from "../contracts/inbox";
import { inviteMemberBody } from "../contracts/members";
import { createSiteBody, updateSiteBody } from "../contracts/sites";
import { fileDescriptor } from "../contracts/tickets";
import { pushSubscriptionBody, pushUnsubscribeBody } from "../contracts/push";
import { acceptInviteBody, signInBody, teamInviteBody, teamMemberBody } from "../contracts/staff";
import { availabilityBody } from "../contracts/routing";
import * as inbox from "../contracts/inbox-wire";
import type { Operation } from "./operation";
import * as wire from "../contracts/wire";

// The inbox's own API (/api/v1/inbox, session cookie; lib/inbox, lib/staff) and the operator API's
// inbox additions (docs/api.md "Operator API: round 2 additions" and "Inbox API (staff)").

const INBOX = "/api/v1/inbox";
const ADMIN = "/api/v1/admin";

const ATTACHMENT_DOWNLOAD = {
  status: 200,
  contentType: "application/octet-stream",
  description:
    "The file's bytes (not the envelope), `Content-Type` the stored media type, `Content-Disposition: attachment`, " +
    "`Cache-Control: private, no-store`, `Content-Security-Policy: default-src 'none'; sandbox`.",
} as const;

const inboxApiOperations: Operation[] = [
  {
    method: "POST",
    path: `${INBOX}/session`,
    family: "inbox",
    summary: "Sign in (sets the session cookie)",
    description:
      "No session needed, but the Origin must be the service's. After 5 failed sign-ins for one email from one client IP within 15 minutes, " +
      "or while another attempt for them is being checked: 429. When too many passwords are being checked at once: 503 with Retry-After.",
    extension: true,
    body: signInBody,
    answers: { 200: inbox.signedIn },
    errors: ["invalid_credentials", "rate_limited", "forbidden"],
  },
  {
    method: "GET",
    path: `${INBOX}/session`,
    family: "inbox",
    summary: "The signed-in member",
    extension: true,
    answers: { 200: inbox.sessionMember },
  },
  {
    method: "PUT",
    path: `${INBOX}/session/availability`,
    family: "inbox",
    summary: "Set yourself away or online (docs/routing.md)",
    description:
      "`offline` is not a choice: a member is offline while no inbox tab (event stream) is open. Choosing `online` counts as input. " +
      "Answers the resulting availability (`offline` when no tab is open).",
    extension: true,
    body: availabilityBody,
    answers: { 200: inbox.availabilityAnswer },
  },
  {
    method: "POST",
    path: `${INBOX}/session/activity`,
    family: "inbox",
    summary: "The open tab saw input (keys, pointer, focus): keeps the member from turning away when idle",
    description: "The inbox sends it at most once a minute while the member uses the tab. Answers the resulting availability.",
    extension: true,
    answers: { 200: inbox.availabilityAnswer },
  },
  {
    method: "DELETE",
    path: `${INBOX}/session`,
    family: "inbox",
    summary: "Sign out (the session is deleted and the cookie cleared)",
    extension: true,
    answers: { 200: null },
  },
  {
    method: "GET",
    path: `${INBOX}/sso`,
    family: "inbox",
    summary: "Single sign-on: on to the identity provider (OpenID Connect, code flow with PKCE)",
    description:
      "A browser navigation from the sign-in page. 302 to the provider's authorization endpoint, with a sealed, HttpOnly cookie " +
      "holding the attempt's state, nonce and PKCE verifier for 10 minutes. 404 while OIDC_* is not configured.",
    extension: true,
    answers: {},
    redirect: "To the identity provider",
    errors: ["not_found"],
  },
  {
    method: "GET",
    path: `${INBOX}/sso/callback`,
    family: "inbox",
    summary: "Single sign-on: the provider's answer",
    description:
      "Where the provider sends the browser back. Signed in: 302 to /inbox with the session cookie. Refused: 302 to " +
      "/inbox/sign-in?sso=<reason> (attempt_invalid, provider_failed, email_unverified, no_member, account_mismatch). " +
      "Existing members only, matched by the provider account linked at their first sign-in or else by an email the provider " +
      "says is verified; a pending invite is never claimed; OIDC_AUTO_PROVISION=agent creates an agent for an email nobody holds.",
    extension: true,
    answers: {},
    redirect: "To the inbox (signed in) or to the sign-in page saying why not",
    errors: ["not_found"],
  },
  {
    method: "GET",
    path: `${INBOX}/push`,
    family: "inbox",
    summary: "Web Push: the VAPID public key (the browser's applicationServerKey)",
    extension: true,
    answers: { 200: z.object({ public_key: z.string().describe("base64url, an uncompressed P-256 point") }) },
  },
  {
    method: "POST",
    path: `${INBOX}/push/subscriptions`,
    family: "inbox",
    summary: "Web Push: subscribe this browser for the signed-in member",
    description:
      "The body is what PushSubscription.toJSON() gives. The endpoint must be a public https URL (the webhooks' SSRF rules; " +
      "WEBHOOK_ALLOW_PRIVATE_TARGETS and WEBHOOK_ALLOWED_TARGETS apply). The same endpoint again replaces its keys and owner.",
    extension: true,
    body: pushSubscriptionBody,
    answers: { 201: z.object({ id: z.string() }) },
  },
  {
    method: "DELETE",
    path: `${INBOX}/push/subscriptions`,
    family: "inbox",
    summary: "Web Push: unsubscribe this browser",
    extension: true,
    body: pushUnsubscribeBody,
    answers: { 200: null },
    errors: ["not_found"],
  },
  {
    method: "POST",
    path: `${INBOX}/invites/accept`,
    family: "inbox",
    summary: "Accept a setup or invite link (sets a password and the session cookie)",
    description: "`email` only for the setup link (invites carry theirs); `name` is required where the link has none.",
    extension: true,
    body: acceptInviteBody,
    answers: { 200: inbox.signedIn },
    errors: ["invite_invalid", "already_exists"],
  },
  {
    method: "GET",
    path: `${INBOX}/conversations`,
    family: "inbox",
    summary: "Conversations, newest activity first, with unread counts",
    extension: true,
    query: conversationListQuery,
    answers: { 200: inbox.inboxConversationPage },
  },
  {
    method: "GET",
    path: `${INBOX}/conversations/{id}`,
    family: "inbox",
    summary: "A whole conversation, notes included (marks it read for this member)",
    extension: true,
    answers: { 200: inbox.inboxConversation },
    errors: ["conversation_not_found"],
  },
  {
    method: "POST",
    path: `${INBOX}/conversations/{id}/messages`,
    family: "inbox",
    summary: "Reply or add a note as the signed-in member",
    description: "201 for a new message; 200 with `duplicate: true` for a replayed client_id. Clears the member's typing.",
    extension: true,
    body: inboxMessageBody,
    answers: { 201: inbox.inboxSentMessage, 200: inbox.inboxSentMessage },
    errors: ["conversation_not_found", "conversation_closed", "client_id_conflict", "not_found", "upload_incomplete"],
  },
  {
    method: "POST",
    path: `${INBOX}/conversations/{id}/uploads`,
    family: "inbox",
    summary: "Describe a file to send in the conversation; answers its one-use upload URL",
    description: "As POST /api/v1/chat/visitor/uploads, for the staff side: send the id in a reply's or note's `attachments`.",
    extension: true,
    body: fileDescriptor,
    answers: { 201: wire.chatUpload },
    errors: ["conversation_not_found"],
  },
  {
    method: "POST",
    path: `${INBOX}/conversations/{id}/typing`,
    family: "inbox",
    summary: "Set the member's typing presence (the visitor sees it, 10 s)",
    extension: true,
    body: typingBody,
    answers: { 200: inbox.inboxTyping },
    errors: ["conversation_not_found"],
  },
  {
    method: "POST",
    path: `${INBOX}/conversations/{id}/assign`,
    family: "inbox",
    summary: "Assign a conversation to an active member (null: unassign)",
    extension: true,
    body: assignBody,
    answers: { 200: inbox.inboxAssignment },
    errors: ["conversation_not_found", "member_not_found"],
  },
  {
    method: "POST",
    path: `${INBOX}/conversations/{id}/close`,
    family: "inbox",
    summary: "Close a conversation",
    extension: true,
    answers: { 200: wire.conversation },
    errors: ["conversation_not_found"],
  },
  {
    method: "POST",
    path: `${INBOX}/conversations/{id}/reopen`,
    family: "inbox",
    summary: "Reopen a conversation",
    extension: true,
    answers: { 200: wire.conversation },
    errors: ["conversation_not_found"],
  },
  {
    method: "GET",
    path: `${INBOX}/events`,
    family: "inbox",
    summary: "The live event stream (Server-Sent Events)",
    description:
      "`retry: 2000` and `data: {\"type\":\"ready\"}` first, then one `data:` line per event (`message`, `conversation`, `typing`, `resync`; ids only), " +
      "and a `: keep-alive` comment every 15 s. It ends when its session ends (sign-out, deactivation). " +
      "At most 10 open streams per session and per member (counted per server process): 429 beyond.",
    extension: true,
    answers: {},
    errors: ["rate_limited"],
    rawAnswer: { status: 200, contentType: "text/event-stream", description: "A stream of inbox events (docs/api.md, Inbox API)." },
  },
  {
    method: "GET",
    path: `${INBOX}/tickets`,
    family: "inbox",
    summary: "The newest 200 tickets with their attachments, filtered by site, status, assignee and priority",
    description:
      "`status` defaults to `all`; `assignee` is `me`, `none` or a member's id (an unknown id or site lists nothing). Pages by `cursor` (a `next_cursor`) and `limit` (1..200, default 50), newest first with ties by id.",
    extension: true,
    query: ticketListQuery,
    answers: { 200: inbox.inboxTicketPage },
  },
  {
    method: "GET",
    path: `${INBOX}/tickets/{id}`,
    family: "inbox",
    summary: "One ticket with its attachments, replies and triage events (oldest first)",
    extension: true,
    answers: { 200: inbox.inboxTicketDetail },
    errors: ["not_found"],
  },
  {
    method: "PATCH",
    path: `${INBOX}/tickets/{id}`,
    family: "inbox",
    summary: "Set a ticket's status, assignee (null unassigns) or priority; each change is a triage event and the request an audit row",
    description: "The assignee is an active member who can sign in (not a bot). Answers the ticket as GET reads it. A refused request changes nothing.",
    extension: true,
    body: ticketTriageBody,
    answers: { 200: inbox.inboxTicketDetail },
    errors: ["not_found", "member_not_found"],
  },
  {
    method: "GET",
    path: `${INBOX}/attachments/{id}`,
    family: "inbox",
    summary: "Download a ticket's or a conversation's file",
    extension: true,
    answers: {},
    rawAnswer: ATTACHMENT_DOWNLOAD,
    errors: ["not_found"],
  },
  {
    method: "GET",
    path: `${INBOX}/sites`,
    family: "inbox",
    summary: "Every site, by name",
    extension: true,
    answers: { 200: z.array(wire.site) },
  },
  {
    method: "POST",
    path: `${INBOX}/sites`,
    family: "inbox",
    summary: "Create a site (owners)",
    extension: true,
    body: createSiteBody,
    answers: { 201: wire.site },
    errors: ["already_exists"],
  },
  {
    method: "PATCH",
    path: `${INBOX}/sites/{siteID}`,
    family: "inbox",
    summary: "Update a site (owners)",
    extension: true,
    body: updateSiteBody,
    answers: { 200: wire.site },
    errors: ["site_not_found"],
  },
  {
    method: "GET",
    path: `${INBOX}/members`,
    family: "inbox",
    summary: "The team (members who can sign in, were invited or deactivated; bots left out)",
    extension: true,
    answers: { 200: z.array(inbox.teamMember) },
  },
  {
    method: "POST",
    path: `${INBOX}/members/invites`,
    family: "inbox",
    summary: "Invite someone to the team (owners); `send_email` also emails the link through the outbox",
    extension: true,
    body: teamInviteBody,
    answers: { 201: inbox.invite },
  },
  {
    method: "GET",
    path: `${INBOX}/members/invites`,
    family: "inbox",
    summary: "Pending invites: not accepted, revoked or expired, newest first (owners)",
    extension: true,
    answers: { 200: z.array(inbox.pendingInvite) },
  },
  {
    method: "DELETE",
    path: `${INBOX}/members/invites/{id}`,
    family: "inbox",
    summary: "Revoke a pending invite: its link stops working (owners)",
    extension: true,
    answers: { 200: inbox.revokedInvite },
    errors: ["not_found"],
  },
  {
    method: "PATCH",
    path: `${INBOX}/members/{userID}`,
    family: "inbox",
    summary: "Update a team member (owners): a changed email ends their sessions",
    extension: true,
    body: teamMemberBody,
    answers: { 200: inbox.teamMember },
    errors: ["member_not_found", "already_exists", "last_owner"],
  },
  {
    method: "POST",
    path: `${INBOX}/members/{userID}/deactivate`,
    family: "inbox",
    summary: "Deactivate a team member (owners): sessions and invites end, open conversations are unassigned",
    extension: true,
    answers: { 200: inbox.teamMember },
    errors: ["member_not_found", "last_owner"],
  },
];

const operatorInboxOperations: Operation[] = [
  {
    method: "GET",
    path: `${ADMIN}/sites`,
    family: "admin",
    summary: "Every site, by name",
    extension: true,
    answers: { 200: z.array(wire.site) },
  },
  {
    method: "GET",
    path: `${ADMIN}/members`,
    family: "admin",
    summary: "Every member (bots included), by name",
    extension: true,
    answers: { 200: z.array(wire.member) },
  },
  {
    method: "POST",
    path: `${ADMIN}/members/{userID}/invite`,
    family: "admin",
    summary: "A one-time invite link for a member (7 days); `send_email` also emails it through the outbox",
    extension: true,
    body: inviteMemberBody,
    answers: { 201: inbox.invite },
    errors: ["member_not_found", "already_exists"],
  },
  {
    method: "POST",
    path: `${ADMIN}/conversations/{id}/reopen`,
    family: "admin",
    summary: "Reopen a conversation",
    extension: true,
    answers: { 200: wire.conversation },
    errors: ["conversation_not_found"],
  },
  {
    method: "GET",
    path: `${ADMIN}/attachments/{id}`,
    family: "admin",
    summary: "Download a ticket's or a conversation's file",
    extension: true,
    answers: {},
    rawAnswer: ATTACHMENT_DOWNLOAD,
    errors: ["not_found"],
  },
];

export const inboxOperations: Operation[] = [...inboxApiOperations, ...operatorInboxOperations];
