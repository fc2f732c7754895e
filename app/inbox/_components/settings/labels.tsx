"use client";

import styles from "../../inbox.module.css";
import { CreateForm } from "../shared/create-form";
import { EditForm } from "../shared/edit-form";
import type { LabelView } from "../shared/label-chips";
import { nextLabelColor } from "./label-palette";

// Labels in Settings (owners): create, rename, recolour, delete. Every member applies them from a
// conversation's header.

function labelFields(form: HTMLFormElement) {
  const data = new FormData(form);
  return { name: String(data.get("name") ?? ""), color: String(data.get("color") ?? "") };
}

/** `nextColor`: the palette's first colour no label has (./label-palette.ts), so new labels differ. */
export function NewLabelForm({ nextColor }: { nextColor: string }) {
  return (
    <CreateForm id="new-label" title="Add a label" path="/api/v1/inbox/labels" body={labelFields} done="Label created." submit="Create label" oneRow>
      <div className={styles.field}>
        <label htmlFor="new-label-name">Label name</label>
        <input className={styles.input} id="new-label-name" name="name" required maxLength={40} />
      </div>
      <div className={styles.field}>
        <label htmlFor="new-label-color">Colour</label>
        <input className={styles.input} id="new-label-color" name="color" type="color" defaultValue={nextColor} key={nextColor} />
      </div>
    </CreateForm>
  );
}

export function LabelRow({ label }: { label: LabelView }) {
  const prefix = `label-${label.id}`;
  return (
    <li className={styles.card} data-label={label.id}>
      <EditForm
        path={`/api/v1/inbox/labels/${encodeURIComponent(label.id)}`}
        body={labelFields}
        label={`Label ${label.name}`}
        submit="Save label"
        remove={{ label: "Delete label" }}
        oneRow
      >
        <div className={styles.field}>
          <label htmlFor={`${prefix}-name`}>Name</label>
          <input className={styles.input} id={`${prefix}-name`} name="name" required maxLength={40} defaultValue={label.name} />
        </div>
        <div className={styles.field}>
          <label htmlFor={`${prefix}-color`}>Colour</label>
          <input className={styles.input} id={`${prefix}-color`} name="color" type="color" defaultValue={label.color} />
        </div>
      </EditForm>
    </li>
  );
}

export function LabelsSection({ labels }: { labels: LabelView[] }) {
  return (
    <section aria-labelledby="labels-title">
      <h2 id="labels-title">Labels</h2>
      <p className={styles.hint}>Every member can put labels on conversations and filter the list by one; deleting a label takes it off every conversation.</p>
      <NewLabelForm nextColor={nextLabelColor(labels.map((label) => label.color))} />
      {labels.length > 0 ? (
        <ul className={styles.cards} data-testid="labels">
          {labels.map((label) => (
            <LabelRow key={label.id} label={label} />
          ))}
        </ul>
      ) : null}
    </section>
  );
}
