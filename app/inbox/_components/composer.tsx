"use client";

import { useEffect, useRef, useState } from "react";
import styles from "../inbox.module.css";
import { inboxApi } from "./api";
import { enterSends, SendRow, useSendText } from "./compose";

// Reply or private note. Enter sends, Shift+Enter breaks the line. While the agent types, the
// visitor is told (presence: refreshed every 4 s while typing, cleared 5 s after the last key).

const TYPING_REFRESH_MS = 4_000;
const TYPING_IDLE_MS = 5_000;

export function Composer({ conversationId, closed }: { conversationId: string; closed: boolean }) {
  const [mode, setMode] = useState<"message" | "note">("message");
  const typing = useRef({ sentAt: 0, idle: null as ReturnType<typeof setTimeout> | null, on: false });
  const base = `/api/v1/inbox/conversations/${encodeURIComponent(conversationId)}`;
  const { text, setText, busy, error, send } = useSendText(
    (body) => inboxApi("POST", `${base}/messages`, { body, kind: mode, client_id: `inbox_${crypto.randomUUID()}` }),
    () => {
      // The service clears this member's typing when the message is stored.
      typing.current.on = false;
      if (typing.current.idle) clearTimeout(typing.current.idle);
    },
  );

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
      <SendRow label={mode === "note" ? "Add note" : "Send reply"} disabled={busy || replyingClosed || text.trim() === ""} error={error} />
    </form>
  );
}
