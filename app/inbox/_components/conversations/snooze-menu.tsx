"use client";

import { useRouter } from "next/navigation";
import { useState, useTransition } from "react";
import styles from "../../inbox.module.css";
import { describeFailure, inboxApi } from "../shared/api";

// Snooze (decisions.md round 3): presets in the member's own zone (1 hour, tomorrow 09:00, next
// Monday 09:00) or a custom date-time; a snoozed conversation offers "Unsnooze".

function atNine(date: Date): Date {
  const nine = new Date(date);
  nine.setHours(9, 0, 0, 0);
  return nine;
}

export function snoozePresets(now = new Date()): { label: string; until: Date }[] {
  const tomorrow = new Date(now);
  tomorrow.setDate(now.getDate() + 1);
  const monday = new Date(now);
  monday.setDate(now.getDate() + (((8 - now.getDay()) % 7) || 7));
  return [
    { label: "In 1 hour", until: new Date(now.getTime() + 60 * 60 * 1000) },
    { label: "Tomorrow 09:00", until: atNine(tomorrow) },
    { label: "Next week (Mon 09:00)", until: atNine(monday) },
  ];
}

export function SnoozeMenu({ conversationId, status }: { conversationId: string; status: string }) {
  const router = useRouter();
  const [open, setOpen] = useState(false);
  const [custom, setCustom] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [refreshing, startRefresh] = useTransition();
  const [sending, setSending] = useState(false);
  const path = (action: string) => `/api/v1/inbox/conversations/${encodeURIComponent(conversationId)}/${action}`;
  const send = async (action: "snooze" | "unsnooze", until?: Date) => {
    setSending(true);
    setError(null);
    const outcome = await inboxApi("POST", path(action), until ? { until: until.toISOString() } : undefined);
    setSending(false);
    if (!outcome.ok) return setError(describeFailure(outcome));
    setOpen(false);
    startRefresh(() => router.refresh());
  };
  const busy = sending || refreshing;
  if (status === "closed") return null;
  return (
    <span className={styles.snoozeMenu}>
      {status === "snoozed" ? (
        <button type="button" className={styles.buttonQuiet} disabled={busy} aria-busy={busy} onClick={() => send("unsnooze")}>
          {busy ? "Unsnoozing…" : "Unsnooze"}
        </button>
      ) : (
        <button type="button" className={styles.buttonQuiet} data-shortcut-target="snooze" aria-keyshortcuts="s" aria-expanded={open} aria-controls="snooze-options" disabled={busy} onClick={() => setOpen(!open)}>
          {busy ? "Snoozing…" : "Snooze"}
        </button>
      )}
      {open && status !== "snoozed" ? (
        <div id="snooze-options" role="group" aria-label="Snooze until">
          {snoozePresets().map((preset) => (
            <button key={preset.label} type="button" className={styles.buttonQuiet} onClick={() => send("snooze", preset.until)}>
              {preset.label}
            </button>
          ))}
          <form
            onSubmit={(event) => {
              event.preventDefault();
              const until = new Date(custom);
              if (Number.isNaN(until.getTime())) return setError("Pick a date and time.");
              void send("snooze", until);
            }}
          >
            <label htmlFor="snooze-custom">Custom</label>{" "}
            <input id="snooze-custom" type="datetime-local" value={custom} onChange={(event) => setCustom(event.target.value)} required />{" "}
            <button type="submit" className={styles.button}>
              Snooze
            </button>
          </form>
        </div>
      ) : null}
      {error ? (
        <span className={styles.error} role="alert">
          {error}
        </span>
      ) : null}
    </span>
  );
}
