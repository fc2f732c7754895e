"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";
import styles from "../inbox.module.css";
import { describeFailure, inboxApi } from "./api";

// A ticket's status, assignee and priority: each change is sent at once (PATCH
// /api/v1/inbox/tickets/{id}) and the page reloads with the change and its timeline line (each
// select is keyed by its value and the refusals, so a refused change shows the stored value again).

interface Props {
  ticketId: string;
  status: string;
  assigneeId: string | null;
  priority: string;
  members: { id: string; name: string }[];
}

export function TicketTriage({ ticketId, status, assigneeId, priority, members }: Props) {
  const router = useRouter();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [refusals, setRefusals] = useState(0);
  const change = async (body: Record<string, string | null>) => {
    setBusy(true);
    setError(null);
    const outcome = await inboxApi("PATCH", `/api/v1/inbox/tickets/${encodeURIComponent(ticketId)}`, body);
    setBusy(false);
    if (!outcome.ok) {
      setError(describeFailure(outcome));
      setRefusals((count) => count + 1);
    }
    router.refresh();
  };
  return (
    <div className={styles.card}>
      <div className={styles.triage} aria-busy={busy}>
        <div className={styles.field}>
          <label htmlFor="ticket-status">Status</label>
          <select className={styles.select} id="ticket-status" key={`${status}/${refusals}`} defaultValue={status} disabled={busy} onChange={(event) => void change({ status: event.target.value })}>
            <option value="open">Open</option>
            <option value="pending">Pending</option>
            <option value="solved">Solved</option>
          </select>
        </div>
        <div className={styles.field}>
          <label htmlFor="ticket-assignee">Assignee</label>
          <select
            className={styles.select}
            id="ticket-assignee"
            key={`${assigneeId ?? ""}/${refusals}`}
            defaultValue={assigneeId ?? ""}
            disabled={busy}
            onChange={(event) => void change({ assignee_id: event.target.value === "" ? null : event.target.value })}
          >
            <option value="">Unassigned</option>
            {members.map((member) => (
              <option key={member.id} value={member.id}>
                {member.name}
              </option>
            ))}
          </select>
        </div>
        <div className={styles.field}>
          <label htmlFor="ticket-priority">Priority</label>
          <select className={styles.select} id="ticket-priority" key={`${priority}/${refusals}`} defaultValue={priority} disabled={busy} onChange={(event) => void change({ priority: event.target.value })}>
            <option value="low">Low</option>
            <option value="normal">Normal</option>
            <option value="high">High</option>
            <option value="urgent">Urgent</option>
          </select>
        </div>
      </div>
      {error ? (
        <p role="alert" className={styles.statusBad}>
          {error}
        </p>
      ) : null}
    </div>
  );
}
