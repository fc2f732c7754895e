"use client";

import { useRouter } from "next/navigation";
import { useState, type FormEvent } from "react";
import styles from "../../inbox.module.css";
import { describeFailure, inboxApi } from "../shared/api";
import { LocalTime } from "../ui/local-time";
import type { AttributeDefinitionView } from "../shared/attribute-definition";

// The sidebar's visitor attributes (docs/attributes.md): each definition with its value, and a
// small editor (one input per definition, typed as it; an emptied field removes the value),
// saved together. The consent the visitor gave in the pre-chat form shows below, word for word.

type Value = string | number | boolean;

const asText = (value: Value | undefined) => (value === undefined ? "" : String(value));

/** The form's text as the attribute's type; "" removes it (null). */
function typed(definition: AttributeDefinitionView, text: string): Value | null {
  const trimmed = text.trim();
  if (trimmed === "") return null;
  if (definition.type === "number") return Number(trimmed);
  if (definition.type === "boolean") return trimmed === "true";
  return trimmed;
}

function ValueInput({ definition, value, onChange }: { definition: AttributeDefinitionView; value: string; onChange: (next: string) => void }) {
  const id = `attribute-${definition.key}`;
  const common = { id, name: definition.key, value, onChange: (event: { target: { value: string } }) => onChange(event.target.value) };
  if (definition.type === "list" || definition.type === "boolean") {
    const options = definition.type === "list" ? definition.options.map((option) => [option, option]) : [["true", "Yes"], ["false", "No"]];
    return (
      <select {...common} className={styles.select}>
        <option value="">—</option>
        {options.map(([option, label]) => (
          <option key={option} value={option}>
            {label}
          </option>
        ))}
      </select>
    );
  }
  const type = definition.type === "number" ? "number" : definition.type === "date" ? "date" : definition.type === "link" ? "url" : "text";
  return <input {...common} type={type} step={definition.type === "number" ? "any" : undefined} maxLength={definition.type === "text" ? 500 : undefined} dir="auto" />;
}

export function ConversationAttributes({
  conversationId,
  definitions,
  values,
  consent,
}: {
  conversationId: string;
  definitions: AttributeDefinitionView[];
  values: Record<string, Value>;
  consent: { text: string; at: string } | null;
}) {
  const router = useRouter();
  const [editing, setEditing] = useState(false);
  const [draft, setDraft] = useState<Record<string, string>>({});
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);

  const startEditing = () => {
    setDraft(Object.fromEntries(definitions.map((definition) => [definition.key, asText(values[definition.key])])));
    setError(null);
    setEditing(true);
  };
  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const changes: Record<string, Value | null> = {};
    for (const definition of definitions) {
      const next = typed(definition, draft[definition.key] ?? "");
      if (next !== (values[definition.key] ?? null)) changes[definition.key] = next;
    }
    setSaving(true);
    const outcome = await inboxApi("PATCH", `/api/v1/inbox/conversations/${encodeURIComponent(conversationId)}/attributes`, { attributes: changes });
    setSaving(false);
    if (!outcome.ok) return setError(describeFailure(outcome));
    setEditing(false);
    router.refresh();
  };

  const shown = definitions.filter((definition) => values[definition.key] !== undefined);
  return (
    <section aria-labelledby="attributes-title" data-testid="conversation-attributes">
      <h2 id="attributes-title">Attributes</h2>
      {definitions.length === 0 ? <p className={styles.hint}>No attributes yet: an owner defines them in Settings.</p> : null}
      {!editing && definitions.length > 0 ? (
        <>
          {shown.length === 0 ? <p className={styles.hint}>None set.</p> : null}
          <dl>
            {shown.map((definition) => (
              <div key={definition.key} style={{ display: "contents" }}>
                <dt>{definition.label}</dt>
                <dd dir="auto" data-attribute={definition.key}>
                  {definition.type === "boolean" ? (values[definition.key] ? "Yes" : "No") : definition.type === "link" ? (
                    <a href={String(values[definition.key])} target="_blank" rel="noopener noreferrer nofollow">
                      {String(values[definition.key])}
                    </a>
                  ) : (
                    String(values[definition.key])
                  )}
                </dd>
              </div>
            ))}
          </dl>
          <button type="button" className={styles.linkButton} onClick={startEditing}>
            <u>Edit attributes</u>
          </button>
        </>
      ) : null}
      {editing ? (
        <form onSubmit={onSubmit} aria-busy={saving}>
          {definitions.map((definition) => (
            <div key={definition.key} className={styles.field}>
              <label htmlFor={`attribute-${definition.key}`}>{definition.label}</label>
              <ValueInput definition={definition} value={draft[definition.key] ?? ""} onChange={(next) => setDraft((current) => ({ ...current, [definition.key]: next }))} />
            </div>
          ))}
          {error ? (
            <p className={styles.error} role="alert">
              Not saved: {error}
            </p>
          ) : null}
          <button type="submit" disabled={saving}>
            Save
          </button>{" "}
          <button type="button" className={styles.linkButton} onClick={() => setEditing(false)}>
            Cancel
          </button>
        </form>
      ) : null}
      <h2 id="consent-title">Consent</h2>
      {consent ? (
        <figure data-testid="conversation-consent" aria-labelledby="consent-title" style={{ margin: 0 }}>
          <blockquote dir="auto" style={{ margin: 0, whiteSpace: "pre-wrap" }}>
            {consent.text}
          </blockquote>
          <figcaption className={styles.hint}>
            Agreed <LocalTime iso={consent.at} full />
          </figcaption>
        </figure>
      ) : (
        <p className={styles.hint}>None given in a pre-chat form.</p>
      )}
    </section>
  );
}
