"use client";

import type { FormEvent, ReactNode } from "react";
import styles from "../../inbox.module.css";
import { CreateForm } from "../shared/create-form";
import { useSave } from "../shared/use-save";
import { Feedback } from "../ui/feedback";

export interface SiteView {
  id: string;
  name: string;
  origins: string[];
  offline: boolean;
  daily_allowance: number;
  track_before_interaction: boolean;
  retention_days: number | null;
}

const originsOf = (text: string) =>
  text
    .split(/[\s,]+/)
    .map((entry) => entry.trim())
    .filter(Boolean);

/** A new site's body: the allowance only when given (the service's default otherwise). */
function newSiteBody(form: HTMLFormElement) {
  const data = new FormData(form);
  const allowance = String(data.get("daily_allowance") ?? "");
  return {
    id: String(data.get("id") ?? ""),
    name: String(data.get("name") ?? "") || undefined,
    origins: originsOf(String(data.get("origins") ?? "")),
    ...(allowance ? { daily_allowance: Number(allowance) } : {}),
  };
}

export function NewSiteForm() {
  return (
    <CreateForm id="new-site" title="Add a site" heading="h2" path="/api/v1/inbox/sites" body={newSiteBody} done="Site created." submit="Create site">
      <div className={styles.row}>
        <div className={styles.field}>
          <label htmlFor="new-site-id">Site id</label>
          <input className={styles.input} id="new-site-id" name="id" required pattern="[A-Za-z0-9][A-Za-z0-9._\-]{0,99}" aria-describedby="new-site-id-hint" />
          <p className={styles.hint} id="new-site-id-hint">
            Letters, digits, “.”, “_”, “-”; used in the embed snippet.
          </p>
        </div>
        <div className={styles.field}>
          <label htmlFor="new-site-name">Name</label>
          <input className={styles.input} id="new-site-name" name="name" maxLength={120} />
        </div>
        <div className={styles.field}>
          <label htmlFor="new-site-allowance">Daily allowance</label>
          <input className={styles.input} id="new-site-allowance" name="daily_allowance" type="number" min={0} max={1000000} placeholder="500" />
        </div>
      </div>
      <div className={styles.field}>
        <label htmlFor="new-site-origins">Allowed origins (one per line)</label>
        <textarea className={styles.textarea} id="new-site-origins" name="origins" placeholder="https://shop.example" aria-describedby="new-site-origins-hint" />
        <p className={styles.hint} id="new-site-origins-hint">
          Exact origins: scheme, host and port — no paths, no wildcards. They are stored in canonical form.
        </p>
      </div>
    </CreateForm>
  );
}

export function SiteEditor({ site, embed }: { site: SiteView; embed: ReactNode }) {
  const { status, save } = useSave();
  const prefix = `site-${site.id}`;
  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const retention = String(form.get("retention_days") ?? "");
    await save(
      "PATCH",
      `/api/v1/inbox/sites/${encodeURIComponent(site.id)}`,
      {
        name: String(form.get("name") ?? ""),
        origins: originsOf(String(form.get("origins") ?? "")),
        offline: form.get("offline") === "on",
        daily_allowance: Number(form.get("daily_allowance")),
        track_before_interaction: form.get("track_before_interaction") === "on",
        retention_days: retention ? Number(retention) : null,
      },
      "Saved.",
    );
  };
  return (
    <form className={styles.card} onSubmit={onSubmit} aria-labelledby={`${prefix}-title`}>
      <h3 id={`${prefix}-title`}>
        {site.name} <span className={styles.meta}>({site.id})</span>
      </h3>
      <div className={styles.row}>
        <div className={styles.field}>
          <label htmlFor={`${prefix}-name`}>Name</label>
          <input className={styles.input} id={`${prefix}-name`} name="name" defaultValue={site.name} required maxLength={120} />
        </div>
        <div className={styles.field}>
          <label htmlFor={`${prefix}-allowance`}>Daily allowance</label>
          <input className={styles.input} id={`${prefix}-allowance`} name="daily_allowance" type="number" min={0} max={1000000} defaultValue={site.daily_allowance} required />
        </div>
        <div className={styles.field}>
          <span className={styles.label}>Availability</span>
          <label>
            <input type="checkbox" name="offline" defaultChecked={site.offline} /> Offline (visitors must leave an email)
          </label>
        </div>
        <div className={styles.field}>
          <span className={styles.label}>Privacy</span>
          <label>
            <input type="checkbox" name="track_before_interaction" defaultChecked={site.track_before_interaction} aria-describedby={`${prefix}-tracking-hint`} /> Link
            page views before the visitor opens the chat
          </label>
          <p className={styles.hint} id={`${prefix}-tracking-hint`}>
            Stores a visitor id in the browser on page load. Turn on only where your visitors consented.
          </p>
        </div>
        <div className={styles.field}>
          <label htmlFor={`${prefix}-retention`}>Keep closed conversations and tickets (days)</label>
          <input
            className={styles.input}
            id={`${prefix}-retention`}
            name="retention_days"
            type="number"
            min={1}
            max={3650}
            defaultValue={site.retention_days ?? ""}
            placeholder="Forever"
            aria-describedby={`${prefix}-retention-hint`}
          />
          <p className={styles.hint} id={`${prefix}-retention-hint`}>
            Empty keeps them. Otherwise they are erased, files included, once a day after this many days.
          </p>
        </div>
      </div>
      <div className={styles.field}>
        <label htmlFor={`${prefix}-origins`}>Allowed origins (one per line)</label>
        <textarea className={styles.textarea} id={`${prefix}-origins`} name="origins" defaultValue={site.origins.join("\n")} key={site.origins.join("|")} />
      </div>
      {embed}
      <button className={styles.button} type="submit">
        Save site
      </button>
      <Feedback status={status} />
    </form>
  );
}
