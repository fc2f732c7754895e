"use client";

import { useEffect, useRef, useSyncExternalStore } from "react";
import styles from "../../inbox.module.css";

// What this member just sent, shown in the thread at once (optimistic), before the server has
// answered and the page has been read again. Each row carries the message's client_id: once the
// thread the server renders holds that client_id (after the send's refresh, or the live channel's,
// whichever comes first), the row goes, so a message never shows twice. A failed send stays as
// "Not sent" with Retry (the same client_id: the service stores a message once per client_id).

export interface PendingMessage {
  clientId: string;
  conversationId: string;
  kind: "message" | "note";
  body: string;
  fileNames: string[];
  /** set when the send failed: why, and how to try again */
  failure: { why: string; retry: () => void } | null;
}

let pending: PendingMessage[] = [];
const listeners = new Set<() => void>();
const changed = (next: PendingMessage[]) => {
  pending = next;
  for (const listener of listeners) listener();
};
const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => void listeners.delete(listener);
};

export const addPending = (message: PendingMessage) => changed([...pending.filter((entry) => entry.clientId !== message.clientId), message]);
export const setPendingFailure = (clientId: string, failure: PendingMessage["failure"]) =>
  changed(pending.map((entry) => (entry.clientId === clientId ? { ...entry, failure } : entry)));
const dropPending = (clientIds: Set<string>) => changed(pending.filter((entry) => !clientIds.has(entry.clientId)));

/** The rows of `conversationId`'s sends the server's thread does not show yet (inside the thread's list). */
export function PendingMessages({ conversationId, storedClientIds }: { conversationId: string; storedClientIds: string[] }) {
  const all = useSyncExternalStore(subscribe, () => pending, () => pending);
  const stored = new Set(storedClientIds);
  const mine = all.filter((entry) => entry.conversationId === conversationId && !stored.has(entry.clientId));
  const storedKey = storedClientIds.join(" ");
  useEffect(() => {
    const arrived = new Set(pending.filter((entry) => stored.has(entry.clientId)).map((entry) => entry.clientId));
    if (arrived.size > 0) dropPending(arrived);
  }, [storedKey, all]);
  const last = useRef<HTMLLIElement>(null);
  const count = mine.length;
  useEffect(() => {
    if (count > 0) last.current?.scrollIntoView({ block: "nearest" });
  }, [count]);

  return mine.map((entry, index) => (
    <li
      key={entry.clientId}
      ref={index === count - 1 ? last : undefined}
      className={`${styles.message} ${entry.kind === "note" ? styles.note : styles.fromStaff} ${styles.pending}`}
      data-kind={entry.kind}
      data-author="staff"
      data-pending={entry.failure ? "failed" : "sending"}
      aria-busy={entry.failure ? undefined : true}
    >
      <div className={styles.messageMeta} role={entry.failure ? "alert" : undefined}>
        {entry.kind === "note" ? "Private note · " : ""}
        {entry.failure ? (
          <>
            <span className={styles.error}>Not sent: {entry.failure.why}</span>{" "}
            <button type="button" className={styles.linkButton} onClick={entry.failure.retry}>
              <u>Retry</u>
            </button>
          </>
        ) : (
          "Sending…"
        )}
      </div>
      {entry.body ? <p dir="auto">{entry.body}</p> : null}
      {entry.fileNames.length > 0 ? (
        <ul className={styles.fileChips} aria-label="Files">
          {entry.fileNames.map((name, i) => (
            <li key={`${name}-${i}`} dir="auto">
              {name}
            </li>
          ))}
        </ul>
      ) : null}
    </li>
  ));
}
