"use client";

import { ChevronDown, Keyboard } from "lucide-react";
import styles from "../../inbox.module.css";
import { HiddenTabAlerts, SoundToggle } from "./alert-settings";
import { AvailabilityControl } from "./availability-control";
import { SHOW_SHORTCUTS_EVENT } from "./keyboard-shortcuts";
import { SignOutButton } from "./sign-out-button";

// The top bar's member menu: who is signed in, their availability and the team's, this browser's
// alerts, the shortcuts and signing out. A native popover (the browser's own light dismiss, Escape
// and focus return, and aria-expanded on its button); its content stays mounted while closed, so
// the availability keeps reporting the member's activity.

const MENU_ID = "member-menu";

const initialsOf = (name: string) =>
  name
    .split(/\s+/)
    .filter(Boolean)
    .slice(0, 2)
    .map((word) => word[0]!.toUpperCase())
    .join("");

export function MemberMenu({ member }: { member: { id: string; name: string; role: string } }) {
  return (
    <>
      <button type="button" className={styles.memberButton} popoverTarget={MENU_ID} data-testid="member-menu-button">
        <span className={styles.memberInitials} aria-hidden="true">
          {initialsOf(member.name)}
        </span>
        <span className={styles.memberName}>{member.name}</span>
        <span className={styles.srOnly}>: your account and availability</span>
        <ChevronDown aria-hidden="true" size={14} />
      </button>
      <div id={MENU_ID} popover="auto" className={styles.memberPanel} role="group" aria-label="Your account">
        <p className={styles.menuWho}>
          <strong>{member.name}</strong> <span className={styles.meta}>{member.role}</span>
        </p>
        <div className={styles.menuSection}>
          <AvailabilityControl memberId={member.id} />
        </div>
        <div className={styles.menuSection}>
          <SoundToggle />
          <HiddenTabAlerts />
          <button
            type="button"
            className={styles.menuItem}
            aria-keyshortcuts="?"
            onClick={() => {
              document.getElementById(MENU_ID)?.hidePopover();
              window.dispatchEvent(new Event(SHOW_SHORTCUTS_EVENT));
            }}
          >
            <Keyboard aria-hidden="true" size={16} />
            Keyboard shortcuts
          </button>
        </div>
        <div className={styles.menuSection}>
          <SignOutButton />
        </div>
      </div>
    </>
  );
}
