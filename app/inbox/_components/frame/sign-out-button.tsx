"use client";

import { LogOut } from "lucide-react";
import styles from "../../inbox.module.css";
import { inboxApi } from "../shared/api";

/** The member menu's last item: ends the session and goes to the sign-in page. */
export function SignOutButton() {
  return (
    <button
      className={styles.menuItem}
      type="button"
      onClick={async () => {
        await inboxApi("DELETE", "/api/v1/inbox/session");
        window.location.assign("/inbox/sign-in");
      }}
    >
      <LogOut aria-hidden="true" size={16} />
      Sign out
    </button>
  );
}
