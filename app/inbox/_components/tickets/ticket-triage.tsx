"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";
import styles from "../../inbox.module.css";
import { describeFailure, inboxApi } from "../shared/api";
import { SelectField } from "../ui/select-field";
import { TICKET_PRIORITIES, TICKET_STATUSES } from "./ticket-options";

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
        <SelectField id="ticket-status" label="Status" key={`status/${status}/${refusals}`} defaultValue={status} disabled={busy} onChange={(event) => void change({ status: event.target.value })} options={TICKET_STATUSES} />
        <SelectField
          id="ticket-assignee"
          label="Assignee"
          key={`assignee/${assigneeId ?? ""}/${refusals}`}
          defaultValue={assigneeId ?? ""}
          disabled={busy}
          onChange={(event) => void change({ assignee_id: event.target.value === "" ? null : event.target.value })}
          options={[{ value: "", label: "Unassigned" }, ...members.map((member) => ({ value: member.id, label: member.name }))]}
        />
        <SelectField id="ticket-priority" label="Priority" key={`priority/${priority}/${refusals}`} defaultValue={priority} disabled={busy} onChange={(event) => void change({ priority: event.target.value })} options={TICKET_PRIORITIES} />
      </div>
      {error ? (
        <p role="alert" className={styles.statusBad}>
          {error}
        </p>
      ) : null}
    </div>
  );
}
