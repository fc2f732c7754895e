"use client";

import { useEffect, useId, useRef, useState } from "react";
import styles from "../../inbox.module.css";

// Erasure's confirmation, in the page rather than the browser's confirm(): "Erase…" opens a group
// that says what goes and asks again; focus moves to its question, Escape or Cancel closes it and
// returns focus to "Erase…".

export function EraseConfirm({ question, onErase, busy = false }: { question: string; onErase: () => void; busy?: boolean }) {
  const [asking, setAsking] = useState(false);
  const id = useId();
  const opener = useRef<HTMLButtonElement>(null);
  const prompt = useRef<HTMLParagraphElement>(null);
  useEffect(() => {
    if (asking) prompt.current?.focus();
  }, [asking]);
  const close = () => {
    setAsking(false);
    opener.current?.focus();
  };
  return (
    <>
      <button ref={opener} type="button" className={styles.buttonDanger} aria-expanded={asking} aria-controls={id} onClick={() => setAsking(true)}>
        Erase…
      </button>
      {asking ? (
        <div id={id} role="group" aria-labelledby={`${id}-q`} className={styles.confirmBox} onKeyDown={(event) => event.key === "Escape" && close()}>
          <p id={`${id}-q`} ref={prompt} tabIndex={-1}>
            {question}
          </p>
          <div className={styles.row}>
            <button
              type="button"
              className={styles.buttonDanger}
              disabled={busy}
              onClick={() => {
                close();
                onErase();
              }}
            >
              Erase for good
            </button>
            <button type="button" className={styles.buttonQuiet} onClick={close}>
              Cancel
            </button>
          </div>
        </div>
      ) : null}
    </>
  );
}
