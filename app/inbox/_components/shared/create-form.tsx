"use client";

import type { FormEvent, ReactNode } from "react";
import styles from "../../inbox.module.css";
import { Feedback } from "../ui/feedback";
import { useSave } from "./use-save";

interface Props {
  /** Prefix of the heading's id (`<id>-heading`, apart from the fields' `<id>-title`), which names the form. */
  id: string;
  title: string;
  /** h2 where the card stands for its whole section, h3 under the section's own heading. */
  heading?: "h2" | "h3";
  /** The collection's route: the form POSTs `body(form)` there. */
  path: string;
  body: (form: HTMLFormElement) => unknown;
  /** What the feedback line says after a success ("Label created."). */
  done: string;
  /** The submit button's words. */
  submit: string;
  /** Fields and button on one row, for a card of a few short fields. */
  oneRow?: boolean;
  className?: string;
  children: ReactNode;
}

/**
 * The card that adds one thing to a list of settings (a site, a label, a team, a policy…): its
 * fields, the submit button, the outcome; emptied after a success, the list read again.
 */
export function CreateForm({ id, title, heading: Heading = "h3", path, body, done, submit, oneRow = false, className, children }: Props) {
  const { status, save } = useSave();
  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = event.currentTarget;
    if (await save("POST", path, body(form), done)) form.reset();
  };
  const button = (
    <button className={styles.button} type="submit">
      {submit}
    </button>
  );
  return (
    <form className={className ? `${styles.card} ${className}` : styles.card} onSubmit={onSubmit} aria-labelledby={`${id}-heading`}>
      <Heading id={`${id}-heading`}>{title}</Heading>
      {oneRow ? (
        <div className={styles.row}>
          {children}
          {button}
        </div>
      ) : (
        <>
          {children}
          {button}
        </>
      )}
      <Feedback status={status} />
    </form>
  );
}
