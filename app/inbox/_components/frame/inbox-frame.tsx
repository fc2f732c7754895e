"use client";

import { Menu } from "lucide-react";
import { usePathname } from "next/navigation";
import { useEffect, useState, type MouseEvent, type ReactNode } from "react";
import styles from "../../inbox.module.css";

// The inbox's frame: one compact top bar over the rail and the page. Wide, the rail sits at the
// left; at phone width (≤ 760 px) it folds behind the bar's "Menu" button (a disclosure), so the
// bar stays one row. Following a link of the rail closes it.
export function InboxFrame({ bar, rail, children }: { bar: ReactNode; rail: ReactNode; children: ReactNode }) {
  const [open, setOpen] = useState(false);
  const pathname = usePathname();
  useEffect(() => setOpen(false), [pathname]);
  const closeOnLink = (event: MouseEvent<HTMLElement>) => {
    if (event.target instanceof Element && event.target.closest("a")) setOpen(false);
  };
  return (
    <>
      <header className={styles.header}>
        <button type="button" className={`${styles.iconButton} ${styles.menuToggle}`} aria-expanded={open} aria-controls="inbox-rail" onClick={() => setOpen(!open)}>
          <Menu aria-hidden="true" size={18} />
          <span className={styles.srOnly}>Menu</span>
        </button>
        {bar}
      </header>
      <div className={styles.frame}>
        <div id="inbox-rail" className={styles.rail} data-open={open} onClick={closeOnLink}>
          {rail}
        </div>
        <div className={styles.frameMain}>{children}</div>
      </div>
    </>
  );
}
