"use client";

import Link from "next/link";
import { usePathname, useSearchParams } from "next/navigation";
import { AtSign, BookmarkCheck, BookOpen, ChartColumn, Clock, Inbox, MessagesSquare, Send, Settings, Ticket, User, UserRoundX, Users, type LucideIcon } from "lucide-react";
import type { ViewCounts } from "@/lib/conversations/view-counts";
import styles from "../../inbox.module.css";
import { isView, shownCount, viewHref, VIEWS, type ViewKey } from "../shared/inbox-views";

// The inbox's left rail: the app's pages (nav "Inbox", which the command palette also reads) and,
// under them, the conversation views with their counts (nav "Views"). On a phone the rail is the
// Menu's panel (./inbox-frame.tsx).

const VIEW_ICONS: Record<ViewKey, LucideIcon> = { mine: User, unassigned: UserRoundX, mentions: AtSign, snoozed: Clock, all: Inbox };

function RailLink({ href, label, icon: Icon, active, count }: { href: string; label: string; icon: LucideIcon; active: boolean; count?: string }) {
  return (
    <Link href={href} aria-current={active ? "page" : undefined} data-command={label}>
      <Icon aria-hidden="true" size={16} strokeWidth={2} />
      <span className={styles.railLabel}>{label}</span>
      {count !== undefined ? (
        <span className={styles.railCount}>
          {count}
          <span className={styles.srOnly}> open</span>
        </span>
      ) : null}
    </Link>
  );
}

export function NavRail({ owner, counts, cap }: { owner: boolean; counts: ViewCounts; cap: number }) {
  const pathname = usePathname();
  const params = useSearchParams();
  const onList = pathname === "/inbox" || pathname.startsWith("/inbox/conversations");
  const pages = [
    { href: "/inbox", label: "Conversations", icon: MessagesSquare, active: onList },
    { href: "/inbox/tickets", label: "Tickets", icon: Ticket, active: pathname.startsWith("/inbox/tickets") },
    { href: "/inbox/articles", label: "Articles", icon: BookOpen, active: pathname.startsWith("/inbox/articles") },
    ...(owner
      ? [
          { href: "/inbox/reports", label: "Reports", icon: ChartColumn, active: pathname.startsWith("/inbox/reports") },
          { href: "/inbox/outbox", label: "Outbox", icon: Send, active: pathname.startsWith("/inbox/outbox") },
          { href: "/inbox/settings", label: "Settings", icon: Settings, active: pathname.startsWith("/inbox/settings") },
        ]
      : // Agents have one thing of their own in Settings: their saved replies.
        [{ href: "/inbox/settings#saved-replies-title", label: "Saved replies", icon: BookmarkCheck, active: pathname.startsWith("/inbox/settings") }]),
  ];
  const current = (key: string) => params.get(key);
  return (
    <>
      <nav className={styles.railNav} aria-label="Inbox">
        {pages.map((page) => (
          <RailLink key={page.href} {...page} />
        ))}
      </nav>
      <nav className={styles.railNav} aria-labelledby="views-title">
        <h2 id="views-title" className={styles.railHeading}>
          Views
        </h2>
        {VIEWS.map((view) => (
          <RailLink
            key={view.key}
            href={viewHref(view.query)}
            label={view.label}
            icon={VIEW_ICONS[view.key]}
            active={onList && isView(current, view.query)}
            count={shownCount(counts[view.key], cap)}
          />
        ))}
        {counts.teams.length > 0 ? (
          <h3 className={styles.railHeading} id="teams-title">
            Teams
          </h3>
        ) : null}
        {counts.teams.map((team) => (
          <RailLink
            key={team.id}
            href={viewHref({ team: team.id })}
            label={team.name}
            icon={Users}
            active={onList && isView(current, { team: team.id })}
            count={shownCount(team.count, cap)}
          />
        ))}
      </nav>
    </>
  );
}
