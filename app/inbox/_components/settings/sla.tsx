"use client";

import type { WireSlaPolicy } from "@/lib/sla/policies";
import styles from "../../inbox.module.css";
import { CreateForm } from "../shared/create-form";
import { EditForm } from "../shared/edit-form";
import type { Save } from "../shared/use-save";

// SLA policies in Settings (owners; docs/sla.md): add, change, reorder, delete. Plain forms: each
// target is minutes or empty (none); sites, teams and labels are multiple choices (none = any).

interface Choice {
  id: string;
  name: string;
}
export interface SlaChoices {
  sites: Choice[];
  teams: Choice[];
  labels: Choice[];
}

const TARGETS = [
  ["first_response_minutes", "First response (min)"],
  ["next_response_minutes", "Next response (min)"],
  ["resolution_minutes", "Resolution (min)"],
] as const;

function policyFields(form: HTMLFormElement) {
  const data = new FormData(form);
  const minutes = (name: string) => {
    const value = String(data.get(name) ?? "").trim();
    return value === "" ? null : Number(value);
  };
  return {
    name: String(data.get("name") ?? ""),
    first_response_minutes: minutes("first_response_minutes"),
    next_response_minutes: minutes("next_response_minutes"),
    resolution_minutes: minutes("resolution_minutes"),
    business_hours: data.get("business_hours") === "on",
    sites: data.getAll("sites").map(String),
    teams: data.getAll("teams").map(String),
    labels: data.getAll("labels").map(String),
  };
}

function PolicyFields({ prefix, policy, choices }: { prefix: string; policy?: WireSlaPolicy; choices: SlaChoices }) {
  const scope = (name: "sites" | "teams" | "labels", label: string) =>
    choices[name].length > 0 ? (
      <label htmlFor={`${prefix}-${name}`}>
        {label} (none chosen: any)
        <select className={styles.input} id={`${prefix}-${name}`} name={name} multiple defaultValue={policy?.[name] ?? []} size={Math.min(4, choices[name].length)}>
          {choices[name].map((choice) => (
            <option key={choice.id} value={choice.id}>
              {choice.name}
            </option>
          ))}
        </select>
      </label>
    ) : null;
  return (
    <fieldset>
      <label htmlFor={`${prefix}-name`}>
        Name
        <input className={styles.input} id={`${prefix}-name`} name="name" required maxLength={80} defaultValue={policy?.name} />
      </label>
      {TARGETS.map(([name, label]) => (
        <label key={name} htmlFor={`${prefix}-${name}`}>
          {label}
          <input className={styles.input} id={`${prefix}-${name}`} name={name} type="number" min={1} max={100000} step={1} defaultValue={policy?.[name] ?? ""} />
        </label>
      ))}
      <label htmlFor={`${prefix}-business-hours`}>
        Business hours only
        <input id={`${prefix}-business-hours`} name="business_hours" type="checkbox" defaultChecked={policy?.business_hours ?? false} />
      </label>
      {scope("sites", "Sites")}
      {scope("teams", "Teams")}
      {scope("labels", "Labels")}
    </fieldset>
  );
}

export function NewSlaPolicyForm({ choices }: { choices: SlaChoices }) {
  return (
    <CreateForm
      id="new-sla"
      title="Add a policy"
      heading="h2"
      path="/api/v1/inbox/sla-policies"
      body={policyFields}
      done="SLA policy created."
      submit="Create policy"
      className={styles.slaPolicy}
    >
      <PolicyFields prefix="new-sla" choices={choices} />
    </CreateForm>
  );
}

export function SlaPolicyRow({ policy, choices, first, last }: { policy: WireSlaPolicy; choices: SlaChoices; first: boolean; last: boolean }) {
  const path = `/api/v1/inbox/sla-policies/${encodeURIComponent(policy.id)}`;
  const moves = (save: Save) => (
    <>
      <button className={styles.button} type="button" disabled={first} onClick={() => void save("PATCH", path, { position: policy.position - 1 }, "Moved up.")}>
        Move up
      </button>
      <button className={styles.button} type="button" disabled={last} onClick={() => void save("PATCH", path, { position: policy.position + 1 }, "Moved down.")}>
        Move down
      </button>
    </>
  );
  return (
    <li className={`${styles.card} ${styles.slaPolicy}`} data-sla-policy={policy.id}>
      <EditForm path={path} body={policyFields} label={`SLA policy ${policy.name}`} submit="Save policy" actions={moves} remove={{ label: "Delete policy" }}>
        <PolicyFields prefix={`sla-${policy.id}`} policy={policy} choices={choices} />
      </EditForm>
    </li>
  );
}
