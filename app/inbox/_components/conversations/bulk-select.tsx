"use client";

import { plural } from "../shared/plural";
import { useRouter } from "next/navigation";
import { useRef, useState, useTransition, type ReactNode } from "react";
import styles from "../../inbox.module.css";
import { describeFailure, inboxApi } from "../shared/api";

// Bulk select in the list: a checkbox per row (name="bulk", rendered by the list) and one on top
// for the whole page; the bar acts on the selection through POST /inbox/conversations/bulk and
// says how many took the act.

type Action = { action: "close" } | { action: "assign"; member_id: string | null } | { action: "label"; label_id: string };

export function BulkSelect({
  children,
  memberId,
  members,
  labels,
}: {
  children: ReactNode;
  memberId: string;
  members: { id: string; name: string }[];
  labels: { id: string; name: string }[];
}) {
  const router = useRouter();
  const [selected, setSelected] = useState<string[]>([]);
  const [message, setMessage] = useState<string | null>(null);
  const [busy, startRefresh] = useTransition();
  const root = useRef<HTMLDivElement>(null);
  const boxes = (within: HTMLElement) => [...within.querySelectorAll<HTMLInputElement>('input[name="bulk"], input[name="bulk-all"]')];
  const run = async (act: Action) => {
    const outcome = await inboxApi<{ results: { ok: boolean }[] }>("POST", "/api/v1/inbox/conversations/bulk", { ids: selected, ...act });
    if (!outcome.ok) return setMessage(describeFailure(outcome));
    const done = outcome.result?.results.filter((result) => result.ok).length ?? 0;
    setMessage(`${done} of ${plural(selected.length, "conversation")} done.`);
    for (const box of root.current ? boxes(root.current) : []) box.checked = false;
    setSelected([]);
    startRefresh(() => router.refresh());
  };
  return (
    <div
      ref={root}
      onChange={(event) => {
        const target = event.target as HTMLInputElement;
        const within = event.currentTarget;
        if (target.name === "bulk-all") for (const box of boxes(within)) box.checked = target.checked;
        const rows = boxes(within).filter((box) => box.name === "bulk");
        if (target.name === "bulk" || target.name === "bulk-all") setSelected(rows.filter((box) => box.checked).map((box) => box.value));
      }}
    >
      <div className={styles.row} role="toolbar" aria-label="Bulk actions" data-testid="bulk-bar">
        <label>
          <input type="checkbox" name="bulk-all" /> Select all on this page
        </label>
        {selected.length > 0 ? (
          <>
            <span aria-live="polite">{selected.length} selected</span>
            <button type="button" className={styles.buttonQuiet} disabled={busy} onClick={() => run({ action: "close" })}>
              Close
            </button>
            <button type="button" className={styles.buttonQuiet} disabled={busy} onClick={() => run({ action: "assign", member_id: memberId })}>
              Assign to me
            </button>
            <select className={styles.select} aria-label="Assign to" value="" onChange={(event) => event.target.value && run({ action: "assign", member_id: event.target.value === "-" ? null : event.target.value })}>
              <option value="">Assign to…</option>
              <option value="-">Nobody</option>
              {members.map((member) => (
                <option key={member.id} value={member.id}>
                  {member.name}
                </option>
              ))}
            </select>
            {labels.length > 0 ? (
              <select className={styles.select} aria-label="Add label" value="" onChange={(event) => event.target.value && run({ action: "label", label_id: event.target.value })}>
                <option value="">Label…</option>
                {labels.map((label) => (
                  <option key={label.id} value={label.id}>
                    {label.name}
                  </option>
                ))}
              </select>
            ) : null}
          </>
        ) : null}
        {message ? <span role="status">{message}</span> : null}
      </div>
      {children}
    </div>
  );
}
