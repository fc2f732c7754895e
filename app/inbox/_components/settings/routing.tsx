"use client";

import type { FormEvent } from "react";
import styles from "../../inbox.module.css";
import { useSave } from "../shared/use-save";
import { Feedback } from "../ui/feedback";

// A site's routing (docs/routing.md): manual or round robin, and the reassign wait; saved through
// PATCH /api/v1/inbox/sites/{id}. Members' caps (max_open) are in the Members section.

export interface RoutingView {
  id: string;
  assignment: "manual" | "round_robin";
  reassign_after_minutes: number | null;
}

export function RoutingEditor({ site }: { site: RoutingView }) {
  const { status, save } = useSave();
  const prefix = `routing-${site.id}`;
  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const minutes = String(form.get("reassign_after_minutes") ?? "").trim();
    await save(
      "PATCH",
      `/api/v1/inbox/sites/${encodeURIComponent(site.id)}`,
      { assignment: String(form.get("assignment")), reassign_after_minutes: minutes === "" ? null : Number(minutes) },
      "Routing saved.",
    );
  };
  return (
    <form className={styles.card} onSubmit={onSubmit} aria-labelledby={`${prefix}-title`}>
      <h3 id={`${prefix}-title`}>
        Routing <span className={styles.meta}>({site.id})</span>
      </h3>
      <div className={styles.row}>
        <div className={styles.field}>
          <label htmlFor={`${prefix}-assignment`}>New conversations</label>
          <select className={styles.select} id={`${prefix}-assignment`} name="assignment" defaultValue={site.assignment}>
            <option value="manual">Manual: the team assigns them</option>
            <option value="round_robin">Round robin among online members under their cap</option>
          </select>
        </div>
        <div className={styles.field}>
          <label htmlFor={`${prefix}-reassign`}>Reassign after minutes without a reply (empty: never)</label>
          <input
            className={styles.input}
            id={`${prefix}-reassign`}
            name="reassign_after_minutes"
            type="number"
            min={1}
            max={1440}
            step={1}
            defaultValue={site.reassign_after_minutes ?? ""}
          />
        </div>
        <button className={styles.button} type="submit">
          Save routing
        </button>
      </div>
      <Feedback status={status} />
    </form>
  );
}
