"use client";

import { useRouter } from "next/navigation";
import { useEffect, useRef, useState } from "react";
import styles from "../inbox.module.css";
import { describeFailure, inboxApi } from "./api";
import { enterSends } from "./enter-sends";

// Reply or private note. Enter sends, Shift+Enter breaks the line. While the agent types, the
// visitor is told (presence: refreshed every 4 s while typing, cleared 5 s after the last key).

const TYPING_REFRESH_MS = 4_000;
const TYPING_IDLE_MS = 5_000;

export function Composer({ conversationId, closed }: { conversationId: string; closed: boolean }) {
  const router = useRouter();
  const [mode, setMode] = useState<"message" | "note">("message");
  const [text, setText] = useState("");
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const typing = useRef({ sentAt: 0, idle: null as ReturnType<typeof setTimeout> | null, on: false });
  const base = `/api/v1/inbox/conversations/${encodeURIComponent(conversationId)}`;

  const setTyping = (on: boolean) => {
    typing.current.on = on;
    typing.current.sentAt = on ? Date.now() : 0;
    void inboxApi("POST", `${base}/typing`, { typing: on });
  };

  useEffect(
    () => () => {
      if (typing.current.idle) clearTimeout(typing.current.idle);
      if (typing.current.on) void inboxApi("POST", `${base}/typing`, { typing: false });
    },
    [base],
  );

  const onInput = (value: string) => {
    setText(value);
    if (mode !== "message" || closed) return;
    const state = typing.current;
    if (value.trim() === "") {
      if (state.on) setTyping(false);
      return;
    }
    if (!state.on || Date.now() - state.sentAt > TYPING_REFRESH_MS) setTyping(true);
    if (state.idle) clearTimeout(state.idle);
    state.idle = setTimeout(() => typing.current.on && setTyping(false), TYPING_IDLE_MS);
  };

  const send = async () => {
    if (text.trim() === "" || busy) return;
    setBusy(true);
    setError(null);
    const outcome = await inboxApi("POST", `${base}/messages`, { body: text, kind: mode, client_id: `inbox_${crypto.randomUUID()}` });
    setBusy(false);
    if (!outcome.ok) {
      setError(describeFailure(outcome));
      return;
    }
    typing.current.on = false;
    if (typing.current.idle) clearTimeout(typing.current.idle);
    setText("");
    router.refresh();
  };

  const replyingClosed = closed && mode === "message";
  return (
    <form
      className={`${styles.composer} ${mode === "note" ? styles.composerNote : ""}`}
      onSubmit={(event) => {
        event.preventDefault();
        void send();
      }}
    >
      <fieldset className={styles.modes}>
        <legend className={styles.srOnly}>Write</legend>
        <label>
          <input type="radio" name="mode" value="message" checked={mode === "message"} onChange={() => setMode("message")} />
          <span>Reply</span>
        </label>
        <label>
          <input type="radio" name="mode" value="note" checked={mode === "note"} onChange={() => setMode("note")} />
          <span>Private note</span>
        </label>
      </fieldset>
      <label htmlFor="composer-text" className={styles.srOnly}>
        {mode === "note" ? "Private note (only your team sees it)" : "Reply to the visitor"}
      </label>
      <textarea
        id="composer-text"
        className={styles.textarea}
        value={text}
        onChange={(event) => onInput(event.target.value)}
        onKeyDown={enterSends(() => void send())}
        placeholder={mode === "note" ? "Private note — only your team sees it" : replyingClosed ? "Reopen the conversation to reply" : "Write a reply…"}
        disabled={replyingClosed}
        rows={3}
        maxLength={4000}
      />
      <div className={styles.composerRow}>
        <span className={styles.hint}>Enter sends · Shift+Enter for a new line</span>
        <button className={styles.button} type="submit" disabled={busy || replyingClosed || text.trim() === ""}>
          {mode === "note" ? "Add note" : "Send reply"}
        </button>
      </div>
      <p className={styles.error} role="alert">
        {error}
      </p>
    </form>
  );
}
