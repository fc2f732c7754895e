"use client";

import styles from "../../inbox.module.css";
import type { AttributeDefinitionView } from "../shared/attribute-definition";
import { CreateForm } from "../shared/create-form";
import { useSave } from "../shared/use-save";
import { Feedback } from "../ui/feedback";

// Visitor attributes in Settings (owners; docs/attributes.md): define one (key, label, type, a
// list's options) or delete one (its values leave every conversation). Members set values in a
// conversation's sidebar; a site's pre-chat form names them (the sites' `prechat` setting).

const TYPES: [AttributeDefinitionView["type"], string][] = [
  ["text", "Text"],
  ["number", "Number"],
  ["date", "Date"],
  ["boolean", "Yes / no"],
  ["list", "List (choose one)"],
  ["link", "Link"],
];

/** A new attribute's body: a list's options one a line, sent only for a list. */
function attributeBody(form: HTMLFormElement) {
  const data = new FormData(form);
  const type = String(data.get("type") ?? "text");
  const options = String(data.get("options") ?? "")
    .split("\n")
    .map((option) => option.trim())
    .filter(Boolean);
  return { key: String(data.get("key") ?? ""), label: String(data.get("label") ?? ""), type, ...(type === "list" ? { options } : {}) };
}

function NewAttributeForm() {
  return (
    <CreateForm id="new-attribute" title="Add an attribute" path="/api/v1/inbox/attributes" body={attributeBody} done="Attribute created." submit="Create attribute" oneRow>
      <div className={styles.field}>
        <label htmlFor="new-attribute-key">Key (a-z, 0-9, _)</label>
        <input className={styles.input} id="new-attribute-key" name="key" required maxLength={40} pattern="[a-z0-9_]{1,40}" />
      </div>
      <div className={styles.field}>
        <label htmlFor="new-attribute-label">Label</label>
        <input className={styles.input} id="new-attribute-label" name="label" required maxLength={60} />
      </div>
      <div className={styles.field}>
        <label htmlFor="new-attribute-type">Type</label>
        <select className={styles.select} id="new-attribute-type" name="type" defaultValue="text">
          {TYPES.map(([value, words]) => (
            <option key={value} value={value}>
              {words}
            </option>
          ))}
        </select>
      </div>
      <div className={styles.field}>
        <label htmlFor="new-attribute-options">Options (a list&apos;s, one a line)</label>
        <textarea className={styles.input} id="new-attribute-options" name="options" rows={2} />
      </div>
    </CreateForm>
  );
}

function AttributeRow({ definition }: { definition: AttributeDefinitionView }) {
  const { status, save } = useSave();
  const type = TYPES.find(([value]) => value === definition.type)?.[1] ?? definition.type;
  return (
    <li className={styles.card} data-attribute={definition.key}>
      <div className={styles.row}>
        <p>
          <strong dir="auto">{definition.label}</strong> <code>{definition.key}</code> · {type}
          {definition.options.length > 0 ? `: ${definition.options.join(", ")}` : ""}
        </p>
        <button
          className={styles.buttonDanger}
          type="button"
          onClick={() => void save("DELETE", `/api/v1/inbox/attributes/${encodeURIComponent(definition.key)}`, undefined, "Deleted.")}
        >
          Delete attribute
        </button>
      </div>
      <Feedback status={status} />
    </li>
  );
}

export function AttributesSection({ definitions }: { definitions: AttributeDefinitionView[] }) {
  return (
    <section aria-labelledby="attributes-settings-title">
      <h2 id="attributes-settings-title">Visitor attributes</h2>
      <p className={styles.hint}>
        Typed facts about a conversation (a plan, an order number, a renewal date) that members set in its sidebar, the list filters by, and a site&apos;s
        pre-chat form can ask. Deleting one takes its values off every conversation.
      </p>
      <NewAttributeForm />
      {definitions.length > 0 ? (
        <ul className={styles.cards} data-testid="attribute-definitions">
          {definitions.map((definition) => (
            <AttributeRow key={definition.key} definition={definition} />
          ))}
        </ul>
      ) : null}
    </section>
  );
}
