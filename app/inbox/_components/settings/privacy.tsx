"use client";

import { useRef, useState, type FormEvent } from "react";
import styles from "../../inbox.module.css";
import { download, erase } from "../shared/privacy-requests";
import { EraseConfirm } from "../ui/erase-confirm";
import { Feedback, type SaveStatus } from "../ui/feedback";
import { SelectField, SiteSelect } from "../ui/select-field";

// The owners' privacy requests (docs/security.md): export downloads a zip of everything about one
// person; erase asks first (in the page: ../ui/erase-confirm.tsx), then shows what went. The visitor
// card offers both for the visitor of a conversation (../conversations/visitor-privacy.tsx); the
// requests themselves are in ../shared/privacy-requests.ts.

type Kind = "email" | "user_id" | "visitor_id";
const KIND_LABELS: Record<Kind, string> = { email: "Email (every site)", user_id: "Verified user id", visitor_id: "Visitor id" };

function requestBody(form: FormData): Record<string, string> {
  const kind = String(form.get("kind")) as Kind;
  const value = String(form.get("value") ?? "").trim();
  return kind === "email" ? { email: value } : { [kind]: value, site: String(form.get("site") ?? "") };
}

const ERASE_QUESTION = "Erase everything about this person — conversations, tickets, files, page views and emails? This cannot be undone.";

export function PrivacySection({ sites }: { sites: { id: string; name: string }[] }) {
  const [kind, setKind] = useState<Kind>("email");
  const [status, setStatus] = useState<SaveStatus>({});
  const form = useRef<HTMLFormElement>(null);
  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setStatus({});
    const error = await download(requestBody(new FormData(event.currentTarget)));
    setStatus(error ? { error } : { done: "The export is downloaded." });
  };
  const onErase = async () => {
    if (!form.current?.reportValidity()) return;
    setStatus({});
    setStatus(await erase(requestBody(new FormData(form.current))));
  };
  return (
    <section aria-labelledby="privacy-title">
      <h2 id="privacy-title">Privacy requests</h2>
      <form ref={form} className={styles.card} onSubmit={onSubmit} aria-labelledby="privacy-title">
        <p className={styles.hint}>Send a person their data, or erase it, when they ask. Both are recorded; an erasure tells your webhooks the counts only.</p>
        <div className={styles.row}>
          <SelectField
            id="privacy-kind"
            name="kind"
            label="Find the person by"
            value={kind}
            onChange={(event) => setKind(event.currentTarget.value as Kind)}
            options={(Object.keys(KIND_LABELS) as Kind[]).map((option) => ({ value: option, label: KIND_LABELS[option] }))}
          />
          <div className={styles.field}>
            <label htmlFor="privacy-value">{KIND_LABELS[kind]}</label>
            <input className={styles.input} id="privacy-value" name="value" type={kind === "email" ? "email" : "text"} required maxLength={254} />
          </div>
          {kind === "email" ? null : (
            <SiteSelect id="privacy-site" name="site" required sites={sites} anyLabel={null} />
          )}
        </div>
        <div className={styles.row}>
          <button className={styles.button} type="submit" value="export">
            Export (zip)
          </button>
          <EraseConfirm question={ERASE_QUESTION} onErase={() => void onErase()} />
        </div>
        <Feedback status={status} />
      </form>
    </section>
  );
}
