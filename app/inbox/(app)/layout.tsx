import type { Metadata } from "next";
import { cache, Suspense, type ReactNode } from "react";
import { unreadConversationCount } from "@/lib/conversations/inbox-conversations";
import styles from "../inbox.module.css";
import { SignOutButton } from "../_components/auth-forms";
import { HeaderMenu } from "../_components/header-menu";
import { inboxTitle } from "../_components/inbox-title";
import { KeyboardShortcuts } from "../_components/keyboard-shortcuts";
import { LiveUpdates } from "../_components/live-updates";
import { AvailabilityControl } from "../_components/availability-control";
import { MentionNotice } from "../_components/mention-notice";
import { listMentions } from "@/lib/conversations/mentions";
import { NavLinks } from "../_components/nav-links";
import { SearchBox } from "../_components/search-box";
import { currentStaff, requireStaffPage } from "../_components/staff-session";
import type { StaffRole } from "@/lib/staff/sessions";

export const dynamic = "force-dynamic";

const unreadTotal = cache(async (id: string, role: StaffRole) => unreadConversationCount({ id, role }));

// The tab title carries the unread total from the server too: a refresh re-renders the metadata,
// and a static title would then overwrite the count the live channel wrote.
export async function generateMetadata(): Promise<Metadata> {
  const staff = await currentStaff();
  return { title: inboxTitle(staff ? await unreadTotal(staff.member.id, staff.member.role) : 0), manifest: "/inbox/manifest.webmanifest" };
}

export default async function InboxLayout({ children }: { children: ReactNode }) {
  const { member } = await requireStaffPage();
  const [unread, mentions] = await Promise.all([unreadTotal(member.id, member.role), listMentions(member.id)]);
  return (
    <div className={styles.root}>
      <a className={styles.skip} href="#main">
        Skip to content
      </a>
      <header className={styles.header}>
        <span className={styles.brand}>Parley</span>
        <HeaderMenu
          nav={<NavLinks owner={member.role === "owner"} />}
          account={
            <div className={styles.headerEnd}>
              <LiveUpdates unreadTotal={unread} />
              <AvailabilityControl memberId={member.id} />
              <MentionNotice items={mentions.items} />
              <span>
                {member.name} ({member.role})
              </span>
              <SignOutButton />
            </div>
          }
        >
          <Suspense>
            <SearchBox />
          </Suspense>
        </HeaderMenu>
        <KeyboardShortcuts />
      </header>
      {children}
    </div>
  );
}
