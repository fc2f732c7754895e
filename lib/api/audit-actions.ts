import type { AuditSpec } from "./audit-change";
import { sentFields } from "./audit-change";

// The audit specs that more than a name: shared by the operator and inbox routes of the same
// change. The rest name only their action in the route file (docs/security.md lists them all).

interface Ctx {
  params: Record<string, string>;
  body: any;
}

/** The identity secret is shown in this answer only: the row says it was shown, never what it is. */
export const identitySecretShown: AuditSpec<Ctx> = {
  action: "secret.shown",
  target: ({ params }) => `site:${params.siteID}`,
  details: () => ({ kind: "identity_secret" }),
};

/** Its signing secret is shown once, in this answer. */
export const webhookCreated: AuditSpec<Ctx> = {
  action: "webhook.created",
  details: ({ body }) => ({ fields: sentFields(body), shown_once: "webhook_secret" }),
};

/** The invite (not its link, which is a credential): to whom, with which role, emailed or not. */
export const inviteCreated: AuditSpec<Ctx> = {
  action: "invite.created",
  target: (_context, result) => `invite:${result.id}`,
  details: ({ params, body }) => ({
    email: body.email,
    role: body.role,
    emailed: Boolean(body.send_email),
    ...(params.userID ? { member_id: params.userID } : {}),
  }),
};

export const deliveryRetried: AuditSpec<Ctx> = {
  action: "webhook.delivery_retried",
  target: ({ params }) => `webhook:${params.id}`,
  details: ({ params }) => ({ delivery_id: params.delivery }),
};

/** Accepted without a session: the member who accepted is the actor. */
export const inviteAccepted: AuditSpec<Ctx> = {
  action: "invite.accepted",
  actor: (_context, result) => `member:${result.member_id}`,
  target: (_context, result) => `member:${result.member_id}`,
  details: () => ({}),
};

/** A role change is its own action (owners look for it); other edits of a member are `member.updated`. */
export const teamMemberChanged: AuditSpec<Ctx> = {
  action: ({ body }) => (body.role ? "member.role_changed" : "member.updated"),
  details: ({ body }) => ({ fields: sentFields(body), ...(body.role ? { role: body.role } : {}) }),
};

/** Saved replies of both scopes; `scope` says which (a delete answers none). */
export const savedReplyChanged = (action: string): AuditSpec<Ctx> => ({
  action,
  details: ({ body }, result) => ({ fields: sentFields(body), ...(result?.scope ? { scope: result.scope } : {}) }),
});

/** A ticket's triage: what was set, with the values (statuses, a member id, a priority: no personal data). */
export const ticketTriaged: AuditSpec<Ctx> = {
  action: "ticket.updated",
  details: ({ body }) => ({ fields: sentFields(body), ...body }),
};

/** "Reply and set pending" is the triage of the status, as PATCH records it (the reply itself is not audited). */
export const ticketStatusWithReply: AuditSpec<Ctx> = {
  action: "ticket.updated",
  when: ({ body }) => body.status !== undefined,
  details: ({ body }) => ({ fields: ["status"], status: body.status }),
};
