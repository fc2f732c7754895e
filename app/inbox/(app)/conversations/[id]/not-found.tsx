import Link from "next/link";
import { MessageSquareOff } from "lucide-react";
import styles from "../../../inbox.module.css";

// A conversation that is not there, or not for this member (docs/teams.md: hidden is 404): also
// what an open thread turns into when the conversation is erased meanwhile (the live channel
// refreshes the page), so it says so and leads back, inside the inbox's frame.

export default function ConversationNotFound() {
  return (
    <main id="main" className={styles.page}>
      <div className={styles.emptyState}>
        <MessageSquareOff aria-hidden="true" size={28} strokeWidth={1.75} />
        <h1 className={styles.emptyTitle}>This conversation is not here</h1>
        <p className={styles.emptyNext}>
          It may have been erased, or it is not one you can see. <Link href="/inbox">Back to conversations</Link>
        </p>
      </div>
    </main>
  );
}
