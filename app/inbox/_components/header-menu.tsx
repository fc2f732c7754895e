"use client";

import { usePathname } from "next/navigation";
import { useEffect, useState, type ReactNode } from "react";
import styles from "../inbox.module.css";

// The header's navigation and account controls, around the search box. Wide, they sit in the bar;
// at phone width (≤ 760 px) they fold behind one "Menu" button (a disclosure) beside the search
// box, so the bar stays one row. A navigation closes the menu.
export function HeaderMenu({ nav, account, children }: { nav: ReactNode; account: ReactNode; children: ReactNode }) {
  const [open, setOpen] = useState(false);
  const pathname = usePathname();
  useEffect(() => setOpen(false), [pathname]);
  return (
    <>
      <button
        type="button"
        className={`${styles.buttonQuiet} ${styles.menuToggle}`}
        aria-expanded={open}
        aria-controls="inbox-menu-nav inbox-menu-account"
        onClick={() => setOpen(!open)}
      >
        Menu
      </button>
      <div id="inbox-menu-nav" className={styles.headerMenu} data-open={open}>
        {nav}
      </div>
      {children}
      <div id="inbox-menu-account" className={styles.headerMenu} data-open={open}>
        {account}
      </div>
    </>
  );
}
