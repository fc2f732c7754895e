"use client";

import { useRouter } from "next/navigation";
import { useState, type FormEvent } from "react";
import styles from "../../inbox.module.css";
import { describeFailure, inboxApi } from "../shared/api";
import { useSave } from "../shared/use-save";
import { CopyButton } from "../ui/copy-button";
import { Feedback, type SaveStatus } from "../ui/feedback";

export interface TeamMemberView {
  id: string;
  name: string;
  email: string | null;
  role: "owner" | "agent" | null;
  notify: boolean;
  active: boolean;
  has_picture: boolean;
  invited: boolean;
  availability: "online" | "away" | "offline";
  max_open: number;
}

const PICTURE_TYPES = ["image/png", "image/jpeg", "image/gif", "image/webp"];

async function pictureOf(file: File): Promise<{ content_type: string; bytes: string }> {
  const bytes = new Uint8Array(await file.arrayBuffer());
  let binary = "";
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return { content_type: file.type, bytes: btoa(binary) };
}

export function InviteForm() {
  const [link, setLink] = useState<string | null>(null);
  const [emailed, setEmailed] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const router = useRouter();
  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const formElement = event.currentTarget;
    const form = new FormData(formElement);
    setError(null);
    setLink(null);
    const outcome = await inboxApi<{ invite_url: string; emailed: boolean }>("POST", "/api/v1/inbox/members/invites", {
      name: String(form.get("name") ?? ""),
      email: String(form.get("email") ?? ""),
      role: String(form.get("role") ?? "agent"),
      send_email: form.get("send_email") === "on",
    });
    if (!outcome.ok) {
      setError(describeFailure(outcome));
      return;
    }
    setLink(outcome.result.invite_url);
    setEmailed(outcome.result.emailed);
    formElement.reset();
    router.refresh();
  };
  return (
    <form className={styles.card} onSubmit={onSubmit} aria-labelledby="invite-title">
      <h2 id="invite-title">Invite a team member</h2>
      <div className={styles.row}>
        <div className={styles.field}>
          <label htmlFor="invite-name">Name</label>
          <input className={styles.input} id="invite-name" name="name" required maxLength={80} />
        </div>
        <div className={styles.field}>
          <label htmlFor="invite-email">Email</label>
          <input className={styles.input} id="invite-email" name="email" type="email" required />
        </div>
        <div className={styles.field}>
          <label htmlFor="invite-role">Role</label>
          <select className={styles.select} id="invite-role" name="role" defaultValue="agent">
            <option value="agent">Agent (conversations and tickets)</option>
            <option value="owner">Owner (everything, settings too)</option>
          </select>
        </div>
        <button className={styles.button} type="submit">
          Create invite link
        </button>
      </div>
      <label>
        <input type="checkbox" name="send_email" /> Also email the link to them (through the outbox)
      </label>
      {error ? (
        <p className={styles.error} role="alert">
          {error}
        </p>
      ) : null}
      {link ? (
        <div className={styles.field} role="status">
          <label htmlFor="invite-link">
            {emailed ? "Emailed (see the outbox). The link, valid 7 days, one use" : "Send this link (valid 7 days, one use)"}
          </label>
          <div className={styles.row}>
            <input className={`${styles.input} ${styles.grow}`} id="invite-link" readOnly value={link} onFocus={(event) => event.currentTarget.select()} />
            <CopyButton text={link} label="Copy link" what="link" />
          </div>
        </div>
      ) : null}
    </form>
  );
}

export function MemberEditor({ member, self }: { member: TeamMemberView; self: boolean }) {
  const router = useRouter();
  const [status, setStatus] = useState<SaveStatus>({});
  const prefix = `member-${member.id}`;
  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const file = form.get("picture");
    let avatar: { content_type: string; bytes: string } | undefined;
    if (file instanceof File && file.size > 0) {
      if (!PICTURE_TYPES.includes(file.type)) {
        setStatus({ error: "The picture must be a PNG, JPEG, GIF or WebP image." });
        return;
      }
      if (file.size > 512 * 1024) {
        setStatus({ error: "The picture must be at most 512 KB." });
        return;
      }
      avatar = await pictureOf(file);
    }
    const outcome = await inboxApi("PATCH", `/api/v1/inbox/members/${encodeURIComponent(member.id)}`, {
      name: String(form.get("name") ?? ""),
      ...(form.get("email") ? { email: String(form.get("email")) } : {}),
      notify: form.get("notify") === "on",
      max_open: Number(form.get("max_open")),
      ...(member.role ? { role: String(form.get("role")) } : {}),
      ...(avatar ? { avatar } : {}),
    });
    setStatus(outcome.ok ? { done: "Saved." } : { error: describeFailure(outcome) });
    if (outcome.ok) router.refresh();
  };
  const deactivate = async () => {
    if (!window.confirm(`Deactivate ${member.name}? They are signed out at once.`)) return;
    const outcome = await inboxApi("POST", `/api/v1/inbox/members/${encodeURIComponent(member.id)}/deactivate`);
    setStatus(outcome.ok ? { done: "Deactivated." } : { error: describeFailure(outcome) });
    if (outcome.ok) router.refresh();
  };
  return (
    <form className={styles.card} onSubmit={onSubmit} aria-labelledby={`${prefix}-title`}>
      <h3 id={`${prefix}-title`}>
        {member.name}
        <span className={styles.meta}>
          {" "}
          · {member.active ? (member.role ?? "no sign-in") : member.invited ? "invited" : member.role ? "deactivated" : "no sign-in yet"}
          {self ? " · you" : ""}
          {member.active ? ` · ${member.availability}` : ""}
        </span>
      </h3>
      <div className={styles.row}>
        <div className={styles.field}>
          <label htmlFor={`${prefix}-name`}>Name</label>
          <input className={styles.input} id={`${prefix}-name`} name="name" defaultValue={member.name} required maxLength={80} />
        </div>
        <div className={styles.field}>
          <label htmlFor={`${prefix}-email`}>Email</label>
          <input className={styles.input} id={`${prefix}-email`} name="email" type="email" defaultValue={member.email ?? ""} />
        </div>
        {member.role ? (
          <div className={styles.field}>
            <label htmlFor={`${prefix}-role`}>Role</label>
            <select className={styles.select} id={`${prefix}-role`} name="role" defaultValue={member.role}>
              <option value="agent">Agent</option>
              <option value="owner">Owner</option>
            </select>
          </div>
        ) : null}
        <div className={styles.field}>
          <label htmlFor={`${prefix}-picture`}>Picture (PNG, JPEG, GIF, WebP)</label>
          <input className={styles.input} id={`${prefix}-picture`} name="picture" type="file" accept={PICTURE_TYPES.join(",")} />
        </div>
        <div className={styles.field}>
          <label htmlFor={`${prefix}-max-open`}>Round robin: at most open conversations</label>
          <input className={styles.input} id={`${prefix}-max-open`} name="max_open" type="number" min={1} max={1000} step={1} required defaultValue={member.max_open} />
        </div>
        <div className={styles.field}>
          <span className={styles.label}>Alerts</span>
          <label>
            <input type="checkbox" name="notify" defaultChecked={member.notify} /> Email me about new messages
          </label>
        </div>
      </div>
      <div className={styles.row}>
        <button className={styles.button} type="submit">
          Save member
        </button>
        {member.active && !self ? (
          <button className={styles.buttonDanger} type="button" onClick={deactivate}>
            Deactivate
          </button>
        ) : null}
      </div>
      <Feedback status={status} />
    </form>
  );
}

export interface PendingInviteView {
  id: string;
  email: string | null;
  name: string | null;
  role: "owner" | "agent";
  expires_at: string;
}

/** The invites not yet accepted (their links still work), each revocable. */
export function PendingInvites({ invites }: { invites: PendingInviteView[] }) {
  const { status, save } = useSave();
  if (invites.length === 0) return null;
  const revoke = async (invite: PendingInviteView) => {
    if (!window.confirm(`Revoke the invite to ${invite.email ?? invite.name}? Its link stops working at once.`)) return;
    await save("DELETE", `/api/v1/inbox/members/invites/${encodeURIComponent(invite.id)}`, undefined, "Invite revoked.");
  };
  return (
    <div className={styles.card} aria-labelledby="pending-invites-title" role="group">
      <h3 id="pending-invites-title">Pending invites</h3>
      <ul className={styles.cards} data-testid="pending-invites">
        {invites.map((invite) => (
          <li key={invite.id} className={styles.row} data-invite={invite.id}>
            <span className={styles.breakAnywhere}>
              {invite.name ? `${invite.name} · ` : ""}
              {invite.email} · {invite.role} · until {invite.expires_at.slice(0, 10)}
            </span>
            <button className={styles.buttonDanger} type="button" onClick={() => void revoke(invite)} aria-label={`Revoke the invite to ${invite.email ?? invite.name}`}>
              Revoke
            </button>
          </li>
        ))}
      </ul>
      <Feedback status={status} />
    </div>
  );
}
