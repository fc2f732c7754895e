"use client";

import { useState, type ReactNode } from "react";
import styles from "../../inbox.module.css";

interface Props {
  /** Prefix of the heading's id (`<id>-title`) and of the opened part's (`<id>-form`, which `children` carries). */
  id: string;
  title: ReactNode;
  /** A line under the title, shown closed and open. */
  summary?: ReactNode;
  /** The button's words, which may follow whether the card is open. */
  button: string | ((open: boolean) => string);
  startOpen?: boolean;
  /** Attributes of the card, for the tests and scripts that find one (`data-team`). */
  dataAttributes?: Record<`data-${string}`, string>;
  /** The part behind the button (a form with the id `<id>-form`), made only once opened. */
  children: ReactNode;
}

/**
 * A card whose editor opens on request, for a page that lists many (every site's hours, every
 * team): its title, a summary, and a disclosure button that shows the editor below.
 */
export function DisclosureCard({ id, title, summary, button, startOpen = false, dataAttributes, children }: Props) {
  const [open, setOpen] = useState(startOpen);
  return (
    <section className={styles.card} aria-labelledby={`${id}-title`} {...dataAttributes}>
      <h3 id={`${id}-title`} dir="auto">
        {title}
      </h3>
      {summary}
      <button type="button" className={`${styles.button} ${styles.buttonQuiet}`} aria-expanded={open} aria-controls={open ? `${id}-form` : undefined} onClick={() => setOpen(!open)}>
        {typeof button === "string" ? button : button(open)}
      </button>
      {open ? children : null}
    </section>
  );
}
