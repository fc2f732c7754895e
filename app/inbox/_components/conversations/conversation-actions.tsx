"use client";

import { useRouter } from "next/navigation";
import { useEffect, useState, useTransition } from "react";
import styles from "../../inbox.module.css";
import { describeFailure, inboxApi } from "../shared/api";
import { TYPING_EVENT } from "../shared/page-events";

export function StatusButton({ conversationId, status }: { conversationId: string; status: string }) {
  const router = useRouter();
  const [error, setError] = useState<string | null>(null);
  const [sending, setSending] = useState(false);
  // Busy from the click until the page shows the new status (the request, then the refresh).
  const [refreshing, startRefresh] = useTransition();
  const busy = sending || refreshing;
  const action = status === "closed" ? "reopen" : "close";
  return (
    <>
      <button
        type="button"
        className={status === "closed" ? styles.button : styles.buttonQuiet}
        disabled={busy}
        aria-busy={busy}
        data-shortcut-target={action}
        onClick={async () => {
          setSending(true);
          setError(null);
          const outcome = await inboxApi("POST", `/api/v1/inbox/conversations/${encodeURIComponent(conversationId)}/${action}`);
          setSending(false);
          if (outcome.ok) startRefresh(() => router.refresh());
          else setError(describeFailure(outcome));
        }}
      >
        {busy ? (action === "close" ? "Closing…" : "Reopening…") : action === "close" ? "Close conversation" : "Reopen conversation"}
      </button>
      {error ? (
        <span className={styles.error} role="alert">
          {error}
        </span>
      ) : null}
    </>
  );
}

export function AssignSelect({ conversationId, assignedId, members, me }: { conversationId: string; assignedId: string | null; members: { id: string; name: string }[]; me: string }) {
  const router = useRouter();
  const [error, setError] = useState<string | null>(null);
  const assign = async (memberId: string | null) => {
    const outcome = await inboxApi("POST", `/api/v1/inbox/conversations/${encodeURIComponent(conversationId)}/assign`, { member_id: memberId });
    if (outcome.ok) router.refresh();
    else setError(describeFailure(outcome));
  };
  return (
    <div className={styles.field}>
      <label htmlFor="assignee">Assigned to</label>
      <select id="assignee" className={styles.select} value={assignedId ?? ""} onChange={(event) => void assign(event.target.value || null)}>
        <option value="">Nobody</option>
        {members.map((member) => (
          <option key={member.id} value={member.id}>
            {member.name}
          </option>
        ))}
      </select>
      {assignedId !== me && members.some((member) => member.id === me) ? (
        <button type="button" className={styles.buttonQuiet} data-shortcut-target="assign-me" aria-keyshortcuts="a" onClick={() => void assign(me)}>
          Assign to me
        </button>
      ) : null}
      {error ? (
        <span className={styles.error} role="alert">
          {error}
        </span>
      ) : null}
    </div>
  );
}

/** Moves the conversation to another team, or out of every team (docs/teams.md). */
export function TeamSelect({ conversationId, teamId, teams }: { conversationId: string; teamId: string | null; teams: { id: string; name: string }[] }) {
  const router = useRouter();
  const [error, setError] = useState<string | null>(null);
  const move = async (next: string | null) => {
    const outcome = await inboxApi("PUT", `/api/v1/inbox/conversations/${encodeURIComponent(conversationId)}/team`, { team_id: next });
    if (outcome.ok) router.refresh();
    else setError(describeFailure(outcome));
  };
  return (
    <div className={styles.field}>
      <label htmlFor="team">Team</label>
      <select id="team" className={styles.select} value={teamId ?? ""} onChange={(event) => void move(event.target.value || null)}>
        <option value="">No team</option>
        {teams.map((team) => (
          <option key={team.id} value={team.id}>
            {team.name}
          </option>
        ))}
      </select>
      {error ? (
        <span className={styles.error} role="alert">
          {error}
        </span>
      ) : null}
    </div>
  );
}

const TYPING_SHOWN_MS = 10_000;

/** "Amber Fox is typing…" for the open conversation: from the page's read, then from live events. */
export function TypingIndicator({ conversationId, initial, name }: { conversationId: string; initial: boolean; name: string }) {
  const [typing, setTyping] = useState(initial);
  useEffect(() => setTyping(initial), [initial]);
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | null = null;
    const onTyping = (event: Event) => {
      const detail = (event as CustomEvent<{ conversation_id: string; typing: boolean }>).detail;
      if (detail.conversation_id !== conversationId) return;
      if (timer) clearTimeout(timer);
      setTyping(detail.typing);
      if (detail.typing) timer = setTimeout(() => setTyping(false), TYPING_SHOWN_MS);
    };
    window.addEventListener(TYPING_EVENT, onTyping);
    return () => {
      window.removeEventListener(TYPING_EVENT, onTyping);
      if (timer) clearTimeout(timer);
    };
  }, [conversationId]);
  return (
    <p className={styles.typing} role="status" aria-live="polite" data-testid="visitor-typing">
      {typing ? `${name} is typing…` : ""}
    </p>
  );
}
