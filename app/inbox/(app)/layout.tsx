import type { Metadata } from "next";
import type { ReactNode } from "react";
import { unreadConversationCount } from "@/lib/inbox/conversations";
import styles from "../inbox.module.css";
import { SignOutButton } from "../_components/auth-forms";
import { LiveUpdates } from "../_components/live-updates";
import { NavLinks } from "../_components/nav-links";
import { requireStaffPage } from "../_components/staff-session";

export const metadata: Metadata = { title: "Parley inbox" };
export const dynamic = "force-dynamic";

export default async function InboxLayout({ children }: { children: ReactNode }) {
  const { member } = await requireStaffPage();
  const unread = await unreadConversationCount(member.id);
  return (
    <div className={styles.root}>
      <a className={styles.skip} href="#main">
        Skip to content
      </a>
      <header className={styles.header}>
        <span className={styles.brand}>Parley</span>
        <NavLinks owner={member.role === "owner"} />
        <div className={styles.headerEnd}>
          <LiveUpdates unreadTotal={unread} />
          <span>
            {member.name} ({member.role})
          </span>
          <SignOutButton />
        </div>
      </header>
      {children}
    </div>
  );
}
