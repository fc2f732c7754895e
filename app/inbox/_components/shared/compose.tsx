"use client";

import { useRouter } from "next/navigation";
import { useState, type KeyboardEvent } from "react";
import styles from "../../inbox.module.css";
import { describeFailure, type ApiOutcome } from "./api";

// What the inbox's writing forms share (the conversation composer, the ticket reply form): the
// text and its sending, Enter to send, and the row with the send button and the error.

/**
 * The text being written and its sending: busy meanwhile, a failure as a message, the page
 * refreshed after. `withoutText`: something else is ready to send (files), so the text may be empty.
 */
export function useSendText(post: (text: string) => Promise<ApiOutcome>, onSent?: () => void, withoutText = false) {
  const router = useRouter();
  const [text, setText] = useState("");
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const send = async () => {
    if ((text.trim() === "" && !withoutText) || busy) return;
    setBusy(true);
    setError(null);
    const outcome = await post(text);
    setBusy(false);
    if (!outcome.ok) {
      setError(describeFailure(outcome));
      return;
    }
    onSent?.();
    setText("");
    router.refresh();
  };
  return { text, setText, busy, error, send };
}

/** A textarea's key handler: Enter sends, Shift+Enter breaks the line, Enter that ends an IME composition does neither. */
export const enterSends =
  (send: () => void) =>
  (event: KeyboardEvent<HTMLTextAreaElement>): void => {
    if (event.key === "Enter" && !event.shiftKey && !event.nativeEvent.isComposing) {
      event.preventDefault();
      send();
    }
  };

export function SendRow({ label, disabled, error }: { label: string; disabled: boolean; error: string | null }) {
  return (
    <>
      <div className={styles.composerRow}>
        <span className={styles.hint}>Enter sends · Shift+Enter for a new line</span>
        <button className={styles.button} type="submit" disabled={disabled}>
          {label}
        </button>
      </div>
      <p className={styles.error} role="alert">
        {error}
      </p>
    </>
  );
}
