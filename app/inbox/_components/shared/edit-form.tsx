"use client";

import type { FormEvent, ReactNode } from "react";
import styles from "../../inbox.module.css";
import { Feedback } from "../ui/feedback";
import { useSave, type Save } from "./use-save";

interface Props {
  /** The item's route: the form PATCHes `body(form)` there, the delete button DELETEs it. */
  path: string;
  body: (form: HTMLFormElement) => unknown;
  /** What the feedback line says after saving. */
  done?: string;
  /** The form's name: its own words, or the id of a heading. */
  label?: string;
  labelledBy?: string;
  formId?: string;
  /** The submit button's words ("Save label"). */
  submit: string;
  /** The delete button: its words, what the line says after, and a question to confirm first. */
  remove: { label: string; done?: string; confirm?: string };
  /** Buttons between save and delete, given the form's save (an SLA policy's moves). */
  actions?: (save: Save) => ReactNode;
  /** Fields and buttons on one row, for an item of a few short fields. */
  oneRow?: boolean;
  children: ReactNode;
}

/** The editor of one item of a settings list (a label, a saved reply, a team, an SLA policy): save, delete, the outcome. */
export function EditForm({ path, body, done = "Saved.", label, labelledBy, formId, submit, remove, actions, oneRow = false, children }: Props) {
  const { status, save } = useSave();
  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    await save("PATCH", path, body(event.currentTarget), done);
  };
  const onRemove = () => {
    if (remove.confirm && !window.confirm(remove.confirm)) return;
    void save("DELETE", path, undefined, remove.done ?? "Deleted.");
  };
  const buttons = (
    <>
      <button className={styles.button} type="submit">
        {submit}
      </button>
      {actions?.(save)}
      <button className={styles.buttonDanger} type="button" onClick={onRemove}>
        {remove.label}
      </button>
    </>
  );
  return (
    <form id={formId} onSubmit={onSubmit} aria-label={label} aria-labelledby={labelledBy}>
      {oneRow ? (
        <div className={styles.row}>
          {children}
          {buttons}
        </div>
      ) : (
        <>
          {children}
          <div className={styles.row}>{buttons}</div>
        </>
      )}
      <Feedback status={status} />
    </form>
  );
}
