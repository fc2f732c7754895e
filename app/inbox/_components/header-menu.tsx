"use client";

import { usePathname } from "next/navigation";
import { useEffect, useState, type ReactNode } from "react";
import styles from "../inbox.module.css";

// The header's links and controls. Wide, they sit in the bar; at phone width (≤ 760 px) they fold
// behind one "Menu" button (a disclosure), so the bar stays one row. A navigation closes it.
export function HeaderMenu({ children }: { children: ReactNode }) {
  const [open, setOpen] = useState(false);
  const pathname = usePathname();
  useEffect(() => setOpen(false), [pathname]);
  return (
    <>
      <button type="button" className={`${styles.buttonQuiet} ${styles.menuToggle}`} aria-expanded={open} aria-controls="inbox-menu" data-shortcut-target="menu" onClick={() => setOpen(!open)}>
        Menu
      </button>
      <div id="inbox-menu" className={styles.headerMenu} data-open={open}>
        {children}
      </div>
    </>
  );
}
