import { db } from "../db/client";
import type { StaffRole } from "../staff/sessions";
import { inviteMember } from "../staff/invites";
import { newEmailId } from "./email-kinds";
import { renderEmail } from "./templates";
import { smtpConfigured } from "./sending/transport";

// Invites by email (issue 28): the invite link goes to the invitee through the outbox — a row of
// kind `staff_invite`, sent by the email queue (an `email.send` event written with it), or kept
// `not_sent` without SMTP_URL and resendable from the outbox. The outbox keeps the email's text,
// link included, as it keeps every email; the link is one use, 7 days, and revoking the invite
// kills it (docs/inbox.md). Never capped: an owner chose the address.

export interface InviteRequest {
  email: string;
  role: StaffRole;
  name?: string;
  memberId?: string;
  send_email?: boolean;
}

const ROLE_WORDS: Record<StaffRole, string> = { owner: "an owner", agent: "an agent" };

/** Creates the invite and, when asked, stores its email; answers the link and whether it was emailed. */
export async function inviteToTeam(request: InviteRequest) {
  const invite = await inviteMember(request);
  if (request.send_email) await emailInvite(request.email, request.role, invite.invite_url, invite.expires_at);
  return { ...invite, emailed: Boolean(request.send_email) };
}

async function emailInvite(recipient: string, role: StaffRole, url: string, expiresAt: string): Promise<void> {
  const content = renderEmail({
    subject: "You are invited to the team's inbox",
    siteName: "Parley",
    intro: `You are invited to join the team's inbox as ${ROLE_WORDS[role]}. Open the link to choose your password; it works once, until ${expiresAt.slice(0, 10)}.`,
    link: { label: "Accept the invite", url },
    footer: "If you did not expect this invite, ignore this email.",
  });
  const pending = smtpConfigured();
  const id = newEmailId();
  await (await db()).$transaction(async (tx) => {
    await tx.email.create({
      data: {
        id,
        kind: "staff_invite",
        recipient,
        recipientKey: recipient.trim().toLowerCase(),
        subject: content.subject,
        textBody: content.text,
        htmlBody: content.html,
        status: pending ? "pending" : "not_sent",
      },
    });
    if (pending) await tx.notificationEvent.create({ data: { type: "email.send", subjectId: id } });
  });
}
