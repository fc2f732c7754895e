"use client";

import { Paperclip } from "lucide-react";
import { useRouter } from "next/navigation";
import { useEffect, useRef, useState } from "react";
import type { PlaceholderValues } from "@/lib/contracts/placeholders";
import styles from "../../inbox.module.css";
import type { SavedReplyView } from "../shared/saved-reply";
import { describeFailure, inboxApi, type ApiOutcome } from "../shared/api";
import { enterSends, SendRow } from "../shared/compose";
import { addPending, setPendingFailure } from "./pending-messages";
import { useSavedReplyPicker } from "./saved-reply-picker";
import { useMentionPicker, type MentionMember } from "./mention-picker";
import { uploadFile } from "./upload-file";
import { SuggestReply } from "./suggest-reply";

// Reply or private note. Enter sends, Shift+Enter breaks the line. While the agent types, the
// visitor is told (presence: refreshed every 4 s while typing, cleared 5 s after the last key).
// `/` at the start opens the saved replies (./saved-reply-picker.tsx). Attached files are
// uploaded when the message is sent, then sent with it (its text may then be empty). In a note,
// `@` mentions a teammate (./mention-picker.tsx). What is sent shows in the thread at once, as
// pending, and the composer is free at once (./pending-messages.tsx).

const TYPING_REFRESH_MS = 4_000;
const TYPING_IDLE_MS = 5_000;

export function Composer({
  conversationId,
  closed,
  savedReplies = [],
  placeholders,
  members = [],
}: {
  conversationId: string;
  closed: boolean;
  savedReplies?: SavedReplyView[];
  placeholders: PlaceholderValues;
  members?: MentionMember[];
}) {
  const [mode, setMode] = useState<"message" | "note">("message");
  const [caret, setCaret] = useState(0);
  const mentionsRef = useRef<string[]>([]);
  const [files, setFiles] = useState<File[]>([]);
  const [text, setText] = useState("");
  // The uploads under way (Cancel aborts them; the message then shows as not sent, with Retry).
  const [uploading, setUploading] = useState(new Set<AbortController>());
  const textarea = useRef<HTMLTextAreaElement>(null);
  const typing = useRef({ sentAt: 0, idle: null as ReturnType<typeof setTimeout> | null, on: false });
  const router = useRouter();
  const base = `/api/v1/inbox/conversations/${encodeURIComponent(conversationId)}`;

  /** Uploads the files not uploaded yet (`uploaded` keeps them across retries), then posts the message. */
  const deliver = async (message: { body: string; kind: "message" | "note"; mentions: string[]; clientId: string }, sending: File[], uploaded: Map<File, string>): Promise<ApiOutcome> => {
    const controller = new AbortController();
    if (sending.some((file) => !uploaded.has(file))) setUploading((now) => new Set(now).add(controller));
    try {
      for (const file of sending) {
        if (uploaded.has(file)) continue;
        const outcome = await uploadFile(base, file, controller.signal);
        if (!outcome.ok) return outcome;
        uploaded.set(file, outcome.result);
      }
    } finally {
      setUploading((now) => {
        const next = new Set(now);
        next.delete(controller);
        return next;
      });
    }
    const attachments = sending.map((file) => uploaded.get(file)!);
    return inboxApi("POST", `${base}/messages`, {
      body: message.body,
      ...(attachments.length > 0 ? { attachments } : {}),
      ...(message.kind === "note" && message.mentions.length > 0 ? { mentions: message.mentions } : {}),
      kind: message.kind,
      client_id: message.clientId,
    });
  };

  /** Shown in the thread at once as pending (./pending-messages.tsx); the composer is free for the next one. */
  const send = () => {
    if (text.trim() === "" && files.length === 0) return;
    if (mode === "message" && closed) return;
    const message = { body: text, kind: mode, mentions: mentionsRef.current, clientId: `inbox_${crypto.randomUUID()}` };
    const sending = files;
    const uploaded = new Map<File, string>();
    const attempt = async () => {
      setPendingFailure(message.clientId, null);
      const outcome = await deliver(message, sending, uploaded);
      if (!outcome.ok) return setPendingFailure(message.clientId, { why: describeFailure(outcome), retry: () => void attempt() });
      router.refresh();
    };
    addPending({ clientId: message.clientId, conversationId, kind: message.kind, body: message.body, fileNames: sending.map((file) => file.name), failure: null });
    setText("");
    setFiles([]);
    // The service clears this member's typing when the message is stored.
    typing.current.on = false;
    if (typing.current.idle) clearTimeout(typing.current.idle);
    // A note is one act: the next thing written is a reply again, never a note by mistake.
    setMode("message");
    mention.reset();
    void attempt();
  };

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

  const picker = useSavedReplyPicker(savedReplies, placeholders, text, (expanded) => {
    onInput(expanded);
    // After React has put the text in: the caret to its end, ready to edit or send.
    requestAnimationFrame(() => {
      const field = textarea.current;
      if (field) field.setSelectionRange(field.value.length, field.value.length);
    });
  });
  const mention = useMentionPicker(members, mode === "note", text, caret, (changed, at) => {
    setText(changed);
    setCaret(at);
    requestAnimationFrame(() => textarea.current?.setSelectionRange(at, at));
  });
  mentionsRef.current = mention.mentions;
  const sendOnEnter = enterSends(send);

  const replyingClosed = closed && mode === "message";
  return (
    <form
      className={`${styles.composer} ${mode === "note" ? styles.composerNote : ""}`}
      onSubmit={(event) => {
        event.preventDefault();
        send();
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
        dir="auto"
        ref={textarea}
        className={styles.textarea}
        value={text}
        onChange={(event) => {
          setCaret(event.target.selectionStart);
          onInput(event.target.value);
        }}
        onSelect={(event) => setCaret(event.currentTarget.selectionStart)}
        onKeyDown={(event) => {
          if (!mention.onKeyDown(event) && !picker.onKeyDown(event)) sendOnEnter(event);
        }}
        aria-describedby="composer-hint"
        {...picker.textareaProps}
        {...mention.textareaProps}
        placeholder={mode === "note" ? "Private note — only your team sees it" : replyingClosed ? "Reopen the conversation to reply" : "Write a reply…"}
        disabled={replyingClosed}
        rows={3}
        maxLength={4000}
      />
      {picker.listbox}
      {mention.listbox}
      <p className={styles.srOnly} id="composer-hint">
        {savedReplies.length > 0 ? "Type / at the start for saved replies." : ""} {mode === "note" ? "Type @ to mention a teammate." : ""}
      </p>
      {files.length > 0 ? (
        <ul className={styles.fileChips} aria-label="Files to send">
          {files.map((file, index) => (
            <li key={`${file.name}-${index}`}>
              <span dir="auto">{file.name}</span>
              <button type="button" className={styles.linkButton} aria-label={`Remove ${file.name}`} onClick={() => setFiles(files.filter((_, i) => i !== index))}>
                ×
              </button>
            </li>
          ))}
        </ul>
      ) : null}
      <label className={styles.attach}>
        <Paperclip aria-hidden="true" size={14} />
        <span>{uploading.size > 0 ? "Sending your files…" : "Attach files"}</span>
        <input
          type="file"
          multiple
          className={styles.srOnly}
          disabled={replyingClosed}
          onChange={(event) => {
            setFiles([...files, ...Array.from(event.target.files ?? [])].slice(0, 10));
            event.target.value = "";
          }}
        />
      </label>
      {uploading.size > 0 ? (
        <button type="button" className={styles.linkButton} onClick={() => uploading.forEach((controller) => controller.abort())}>
          Cancel upload
        </button>
      ) : null}
      {mode === "message" ? <SuggestReply conversationId={conversationId} disabled={replyingClosed} onDraft={(draft) => onInput(draft)} /> : null}
      <SendRow label={mode === "note" ? "Add note" : "Send reply"} disabled={replyingClosed || (text.trim() === "" && files.length === 0)} error={null} />
    </form>
  );
}
