"use client";

import { useEffect, useLayoutEffect, useRef, useState, type ReactNode } from "react";
import styles from "../../inbox.module.css";

// The thread's own scroll pane (the page never grows; the composer stays below it). It opens at
// the search result's message (`?m=`), else at the first message the member has not read, else
// at the newest. A new message (the live channel re-renders the page) is followed when the member
// was at the bottom or wrote it; otherwise "New messages ↓" appears and jumps down.

const AT_BOTTOM_PX = 48;

export function ThreadScroller({ children, lastId, lastMine, openAt }: { children: ReactNode; lastId: string | null; lastMine: boolean; openAt: { id: string; block: "center" | "start" } | null }) {
  const pane = useRef<HTMLDivElement>(null);
  const atBottom = useRef(true);
  const shownLast = useRef(lastId);
  const [newBelow, setNewBelow] = useState(false);

  const toBottom = () => {
    const element = pane.current;
    if (element) element.scrollTop = element.scrollHeight;
    atBottom.current = true;
    setNewBelow(false);
  };

  useLayoutEffect(() => {
    const target = openAt ? document.getElementById(`m-${openAt.id}`) : null;
    if (target) {
      target.scrollIntoView({ block: openAt?.block });
      onScroll();
    } else toBottom();
    // Once, when the thread opens: later renders are live updates, handled below.
  }, []);

  useLayoutEffect(() => {
    if (lastId === shownLast.current) return;
    shownLast.current = lastId;
    if (atBottom.current || lastMine) toBottom();
    else setNewBelow(true);
  }, [lastId, lastMine]);

  // Images load after the first layout: keep the newest message in view while at the bottom.
  useEffect(() => {
    const element = pane.current;
    if (!element || typeof ResizeObserver === "undefined") return;
    const observer = new ResizeObserver(() => {
      if (atBottom.current) element.scrollTop = element.scrollHeight;
    });
    for (const child of Array.from(element.children)) observer.observe(child);
    return () => observer.disconnect();
  }, []);

  function onScroll() {
    const element = pane.current;
    if (!element) return;
    atBottom.current = element.scrollHeight - element.scrollTop - element.clientHeight <= AT_BOTTOM_PX;
    if (atBottom.current) setNewBelow(false);
  }

  return (
    <div className={styles.threadScroll}>
      <div ref={pane} className={styles.messagesPane} onScroll={onScroll} role="region" aria-label="Thread" data-testid="thread-scroll" tabIndex={0}>
        {children}
      </div>
      {newBelow ? (
        <button type="button" className={`${styles.button} ${styles.newBelow}`} onClick={toBottom}>
          New messages ↓
        </button>
      ) : null}
    </div>
  );
}
