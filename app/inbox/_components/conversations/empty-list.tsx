import Link from "next/link";
import type { ReactNode } from "react";
import { AtSign, Clock, Filter, Inbox, User, UserRoundX, Users, type LucideIcon } from "lucide-react";
import styles from "../../inbox.module.css";
import type { ViewKey } from "../shared/inbox-views";

// An empty conversation list says why it is empty and what to do next, per view; a list emptied by
// filters offers the way back to the open conversations.

interface Empty {
  icon: LucideIcon;
  title: string;
  next: ReactNode;
}

function emptyOf(view: ViewKey | "team" | null, owner: boolean): Empty {
  switch (view) {
    case "all":
      return {
        icon: Inbox,
        title: "No conversations here yet.",
        next: owner ? (
          <>
            A visitor&apos;s message appears here at once. To put the widget on your site, copy its snippet from <Link href="/inbox/settings">Settings</Link>.
          </>
        ) : (
          "A visitor's message appears here at once, with a sound while this tab is hidden."
        ),
      };
    case "mine":
      return {
        icon: User,
        title: "Nothing is assigned to you.",
        next: (
          <>
            Take one from <Link href="/inbox?assigned=unassigned">Unassigned</Link>: open it and press <kbd className={styles.kbd}>a</kbd>.
          </>
        ),
      };
    case "unassigned":
      return { icon: UserRoundX, title: "Every open conversation has someone on it.", next: <Link href="/inbox">See all open conversations</Link> };
    case "mentions":
      return { icon: AtSign, title: "No open conversation mentions you.", next: "When a teammate writes @ and your name in a private note, the conversation shows up here." };
    case "snoozed":
      return {
        icon: Clock,
        title: "Nothing is snoozed.",
        next: (
          <>
            Snooze a conversation (<kbd className={styles.kbd}>s</kbd>) to set it aside until a time you pick; it comes back by itself.
          </>
        ),
      };
    case "team":
      return { icon: Users, title: "This team has no open conversations.", next: <Link href="/inbox">See all open conversations</Link> };
    default:
      return { icon: Filter, title: "No conversations match these filters.", next: <Link href="/inbox">Show open conversations</Link> };
  }
}

export function EmptyList({ view, owner }: { view: ViewKey | "team" | null; owner: boolean }) {
  const { icon: Icon, title, next } = emptyOf(view, owner);
  return (
    <div className={styles.emptyState}>
      <Icon aria-hidden="true" size={28} strokeWidth={1.75} />
      <p className={styles.emptyTitle}>{title}</p>
      <p className={styles.emptyNext}>{next}</p>
    </div>
  );
}
