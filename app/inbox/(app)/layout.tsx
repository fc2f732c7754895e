import type { Metadata } from "next";
import { MessageCircle } from "lucide-react";
import { cache, Suspense, type ReactNode } from "react";
import "@fontsource-variable/inter/wght.css";
import { unreadConversationCount } from "@/lib/conversations/inbox-conversations";
import { inboxViewCounts, VIEW_COUNT_CAP } from "@/lib/conversations/view-counts";
import { listMentions } from "@/lib/conversations/mentions";
import styles from "../inbox.module.css";
import { InboxFrame } from "../_components/frame/inbox-frame";
import { inboxTitle } from "../_components/frame/inbox-title";
import { KeyboardShortcuts } from "../_components/frame/keyboard-shortcuts";
import { LiveUpdates } from "../_components/frame/live-updates";
import { MemberMenu } from "../_components/frame/member-menu";
import { MentionNotice } from "../_components/frame/mention-notice";
import { NavRail } from "../_components/frame/nav-rail";
import { SearchBox } from "../_components/search/search-box";
import { currentStaff, requireStaffPage } from "../_components/shared/staff-session";
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
  const [unread, mentions, counts] = await Promise.all([unreadTotal(member.id, member.role), listMentions(member.id), inboxViewCounts(member)]);
  return (
    <div className={styles.root}>
      <a className={styles.skip} href="#main">
        Skip to content
      </a>
      <InboxFrame
        bar={
          <>
            <span className={styles.brand}>
              <MessageCircle aria-hidden="true" size={20} strokeWidth={2.25} />
              <span className={styles.brandName}>Parley</span>
            </span>
            <Suspense>
              <SearchBox />
            </Suspense>
            <div className={styles.barEnd}>
              <KeyboardShortcuts />
              <MentionNotice items={mentions.items} />
              <LiveUpdates unreadTotal={unread} />
              <MemberMenu member={{ id: member.id, name: member.name, role: member.role }} />
            </div>
          </>
        }
        rail={
          <Suspense>
            <NavRail owner={member.role === "owner"} counts={counts} cap={VIEW_COUNT_CAP} />
          </Suspense>
        }
      >
        {children}
      </InboxFrame>
    </div>
  );
}
