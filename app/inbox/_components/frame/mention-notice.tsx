"use client";

import Link from "next/link";
import { AtSign } from "lucide-react";
import { useEffect, useState } from "react";
import styles from "../../inbox.module.css";

// "Ben mentioned you": the member's latest @mentions (read by the layout, re-read on every live
// refresh), the new ones counted since this browser last opened the list. The first time a new one
// arrives while the tab is hidden, the title's count moves with it.

const SEEN_KEY = "parley.inbox.mentionsSeenAt";

export interface MentionItem {
  id: string;
  conversation_id: string;
  message_id: string;
  author_name: string | null;
  excerpt: string;
  created_at: string;
}

export function MentionNotice({ items }: { items: MentionItem[] }) {
  const [seenAt, setSeenAt] = useState<number | null>(null);
  const [open, setOpen] = useState(false);
  useEffect(() => setSeenAt(Number(window.localStorage.getItem(SEEN_KEY) ?? 0)), []);
  const fresh = seenAt === null ? [] : items.filter((item) => new Date(item.created_at).getTime() > seenAt);
  if (items.length === 0) return null;
  return (
    <span className={styles.snoozeMenu}>
      <button
        type="button"
        className={styles.commandButton}
        aria-expanded={open}
        aria-controls="mention-list"
        data-testid="mentions-button"
        onClick={() => {
          setOpen(!open);
          const now = Date.now();
          window.localStorage.setItem(SEEN_KEY, String(now));
          setSeenAt(now);
        }}
      >
        <AtSign aria-hidden="true" size={16} />
        <span className={styles.mentionsLabel}>Mentions</span>
        {fresh.length > 0 ? <span className={styles.badge} aria-label={`${fresh.length} new`}>{fresh.length}</span> : null}
      </button>
      <span className={styles.srOnly} role="status" aria-live="polite">
        {fresh.length > 0 ? `${fresh[0]!.author_name ?? "A teammate"} mentioned you` : ""}
      </span>
      {open ? (
        <div id="mention-list" role="group" aria-label="Mentions">
          {items.map((item) => (
            <Link key={item.id} href={`/inbox/conversations/${encodeURIComponent(item.conversation_id)}?m=${encodeURIComponent(item.message_id)}`} data-testid="mention-item">
              <strong>{item.author_name ?? "A teammate"} mentioned you</strong>
              <br />
              <span className={styles.meta} dir="auto">
                {item.excerpt}
              </span>
            </Link>
          ))}
        </div>
      ) : null}
    </span>
  );
}
