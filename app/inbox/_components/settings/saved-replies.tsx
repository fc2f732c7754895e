"use client";

import styles from "../../inbox.module.css";
import { CreateForm } from "../shared/create-form";
import { EditForm } from "../shared/edit-form";
import type { SavedReplyView } from "../shared/saved-reply";

// Saved replies in Settings: every member manages their own; owners also the team's. An agent sees
// the team's replies without a way to change them (the API answers 403 there).

const PLACEHOLDER_HINT = "Placeholders: {{visitor.name}}, {{visitor.name|fallback}}, {{agent.name}}, {{site.name}} — filled in when you pick the reply.";

function fieldsOf(form: HTMLFormElement, withScope: boolean) {
  const data = new FormData(form);
  return {
    shortcut: String(data.get("shortcut") ?? "").trim().replace(/^\//, ""),
    title: String(data.get("title") ?? ""),
    body: String(data.get("body") ?? ""),
    ...(withScope ? { scope: String(data.get("scope") ?? "personal") } : {}),
  };
}

function ReplyFields({ prefix, reply, canManageTeam }: { prefix: string; reply?: SavedReplyView; canManageTeam: boolean }) {
  return (
    <>
      <div className={styles.row}>
        <div className={styles.field}>
          <label htmlFor={`${prefix}-shortcut`}>Shortcut</label>
          <input
            className={styles.input}
            id={`${prefix}-shortcut`}
            name="shortcut"
            required
            maxLength={33}
            pattern="/?[a-z0-9_\-]{1,32}"
            defaultValue={reply?.shortcut}
            aria-describedby={`${prefix}-shortcut-hint`}
          />
          <p className={styles.hint} id={`${prefix}-shortcut-hint`}>
            Typed after “/”: a-z, 0-9, “-”, “_”.
          </p>
        </div>
        <div className={`${styles.field} ${styles.grow}`}>
          <label htmlFor={`${prefix}-title`}>Title</label>
          <input dir="auto" className={styles.input} id={`${prefix}-title`} name="title" required maxLength={80} defaultValue={reply?.title} />
        </div>
        {canManageTeam ? (
          <div className={styles.field}>
            <label htmlFor={`${prefix}-scope`}>Who sees it</label>
            <select className={styles.select} id={`${prefix}-scope`} name="scope" defaultValue={reply?.scope ?? "personal"}>
              <option value="personal">Only me</option>
              <option value="team">The whole team</option>
            </select>
          </div>
        ) : null}
      </div>
      <div className={styles.field}>
        <label htmlFor={`${prefix}-body`}>Reply</label>
        <textarea dir="auto" className={styles.textarea} id={`${prefix}-body`} name="body" required maxLength={4000} defaultValue={reply?.body} aria-describedby={`${prefix}-body-hint`} />
        <p className={styles.hint} id={`${prefix}-body-hint`}>
          {PLACEHOLDER_HINT}
        </p>
      </div>
    </>
  );
}

export function NewSavedReplyForm({ canManageTeam }: { canManageTeam: boolean }) {
  return (
    <CreateForm
      id="new-reply"
      title="Add a saved reply"
      path="/api/v1/inbox/saved-replies"
      body={(form) => ({ scope: "personal", ...fieldsOf(form, canManageTeam) })}
      done="Saved reply created."
      submit="Create saved reply"
    >
      <ReplyFields prefix="new-reply" canManageTeam={canManageTeam} />
    </CreateForm>
  );
}

export function SavedReplyEditor({ reply, canManageTeam }: { reply: SavedReplyView; canManageTeam: boolean }) {
  const prefix = `reply-${reply.id}`;
  const editable = reply.scope === "personal" || canManageTeam;
  if (!editable) {
    return (
      <li className={styles.card} data-reply={reply.id}>
        <p>
          <span className={styles.pickerShortcut}>/{reply.shortcut}</span> <span dir="auto">{reply.title}</span> <span className={styles.meta}>· team (owners change it)</span>
        </p>
        <p className={`${styles.meta} ${styles.breakAnywhere}`} style={{ whiteSpace: "pre-wrap" }} dir="auto">
          {reply.body}
        </p>
      </li>
    );
  }
  return (
    <li className={styles.card} data-reply={reply.id}>
      <EditForm
        path={`/api/v1/inbox/saved-replies/${encodeURIComponent(reply.id)}`}
        body={(form) => fieldsOf(form, canManageTeam)}
        labelledBy={`${prefix}-title-heading`}
        submit="Save reply"
        remove={{ label: "Delete reply" }}
      >
        <h3 id={`${prefix}-title-heading`}>
          /{reply.shortcut} <span className={styles.meta}>{reply.scope === "team" ? "(team)" : "(yours)"}</span>
        </h3>
        <ReplyFields prefix={prefix} reply={reply} canManageTeam={canManageTeam} />
      </EditForm>
    </li>
  );
}

export function SavedRepliesSection({ replies, canManageTeam }: { replies: SavedReplyView[]; canManageTeam: boolean }) {
  return (
    <section aria-labelledby="saved-replies-title">
      <h2 id="saved-replies-title">Saved replies</h2>
      <p className={styles.hint}>
        In a conversation, type “/” at the start of the reply box to pick one.{" "}
        {canManageTeam ? "Team replies are shared with everyone; yours are for you alone." : "Yours are for you alone; owners manage the team’s."}
      </p>
      <NewSavedReplyForm canManageTeam={canManageTeam} />
      {replies.length > 0 ? (
        <ul className={styles.cards} data-testid="saved-replies">
          {replies.map((reply) => (
            <SavedReplyEditor key={reply.id} reply={reply} canManageTeam={canManageTeam} />
          ))}
        </ul>
      ) : null}
    </section>
  );
}
