import styles from "../inbox.module.css";
import { ConversationList, type ListParams } from "../_components/conversations/conversation-list";
import { requireStaffPage } from "../_components/shared/staff-session";

export default async function InboxPage({ searchParams }: { searchParams: Promise<ListParams> }) {
  const { member } = await requireStaffPage();
  return (
    <div className={styles.workspace}>
      <div className={styles.listPane}>
        <main id="main">
          <h1 className={styles.srOnly}>Inbox</h1>
          <ConversationList member={member} params={await searchParams} />
        </main>
      </div>
      <div className={`${styles.mainPane} ${styles.hideNarrow}`}>
        <p className={styles.empty}>Choose a conversation to read and answer it.</p>
      </div>
    </div>
  );
}
