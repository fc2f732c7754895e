"use client";

import type { FormEvent } from "react";
import styles from "../../inbox.module.css";
import type { AttributeDefinitionView } from "../shared/attribute-definition";
import { useSave } from "../shared/use-save";
import { DisclosureCard } from "../ui/disclosure-card";
import { Feedback } from "../ui/feedback";
import type { TeamView } from "./teams";

// What a site asks before a first message, and where the conversation lands (docs/teams.md,
// docs/attributes.md): the default team, the departments the widget offers (each a team, with the
// label visitors see), and the pre-chat form (name, email and attributes, each asked or required,
// and a consent line). Saved through PATCH /api/v1/inbox/sites/{id}.

export interface IntakeView {
  id: string;
  default_team_id: string | null;
  departments: { team_id: string; label: string }[];
  prechat: { fields: { key: string; required: boolean }[]; consent: { text: string; required: boolean } | null } | null;
}

const MAX_DEPARTMENTS = 10;

/** Stored entries first, in their order, then the rest. */
function inStoredOrder<T>(items: T[], keyOf: (item: T) => string, stored: string[]): T[] {
  const place = (item: T) => {
    const index = stored.indexOf(keyOf(item));
    return index === -1 ? stored.length : index;
  };
  return [...items].sort((a, b) => place(a) - place(b));
}

interface IntakeProps {
  site: IntakeView;
  teams: TeamView[];
  attributes: AttributeDefinitionView[];
}

/**
 * Behind a button, as the widget designer is: the page lists every site, and each card lists
 * every team and attribute, so a card opens on request; the only site's opens by itself.
 */
export function SiteIntakeEditor({ startOpen, ...props }: IntakeProps & { startOpen: boolean }) {
  const prefix = `intake-${props.site.id}`;
  const title = (
    <>
      Teams and pre-chat form <span className={styles.meta}>({props.site.id})</span>
    </>
  );
  return (
    <DisclosureCard id={prefix} title={title} button="Edit teams and pre-chat form" startOpen={startOpen}>
      <IntakeForm {...props} prefix={prefix} />
    </DisclosureCard>
  );
}

function IntakeForm({ site, teams, attributes, prefix }: IntakeProps & { prefix: string }) {
  const { status, save } = useSave();
  const offered = new Map(site.departments.map((department) => [department.team_id, department.label]));
  const asked = new Map((site.prechat?.fields ?? []).map((field) => [field.key, field.required]));
  const fields = inStoredOrder(
    [
      { key: "name", label: "Name" },
      { key: "email", label: "Email" },
      ...attributes.map((definition) => ({ key: definition.key, label: definition.label })),
    ],
    (field) => field.key,
    [...asked.keys()],
  );
  const departmentTeams = inStoredOrder(teams, (team) => team.id, [...offered.keys()]);

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const departments = departmentTeams
      .filter((team) => form.get(`offer-${team.id}`) === "on")
      .map((team) => ({ team_id: team.id, label: String(form.get(`label-${team.id}`) ?? "").trim() || team.name }));
    const prechatFields = fields
      .filter((field) => form.get(`ask-${field.key}`) === "on")
      .map((field) => ({ key: field.key, required: form.get(`require-${field.key}`) === "on" }));
    const consentText = String(form.get("consent_text") ?? "").trim();
    const consent = consentText ? { text: consentText, required: form.get("consent_required") === "on" } : null;
    await save(
      "PATCH",
      `/api/v1/inbox/sites/${encodeURIComponent(site.id)}`,
      {
        default_team_id: String(form.get("default_team_id") ?? "") || null,
        departments,
        prechat: prechatFields.length > 0 || consent ? { fields: prechatFields, consent } : null,
      },
      "Saved.",
    );
  };

  return (
    <form id={`${prefix}-form`} onSubmit={onSubmit} aria-labelledby={`${prefix}-title`}>
      <div className={styles.field}>
        <label htmlFor={`${prefix}-default-team`}>New conversations and tickets go to</label>
        <select className={styles.select} id={`${prefix}-default-team`} name="default_team_id" defaultValue={site.default_team_id ?? ""}>
          <option value="">No team (every member sees them)</option>
          {teams.map((team) => (
            <option key={team.id} value={team.id}>
              {team.name}
            </option>
          ))}
        </select>
      </div>
      <fieldset className={styles.field}>
        <legend className={styles.label}>Departments the visitor chooses from</legend>
        {teams.length === 0 ? (
          <p className={styles.hint}>Create a team in the Teams section first.</p>
        ) : (
          <p className={styles.hint}>
            With at least one, the widget asks which before the first message (at most {MAX_DEPARTMENTS}). The label is what visitors see.
          </p>
        )}
        {departmentTeams.map((team) => (
          <div className={styles.row} key={team.id}>
            <label>
              <input type="checkbox" name={`offer-${team.id}`} defaultChecked={offered.has(team.id)} /> Offer <span dir="auto">{team.name}</span>
            </label>
            <input
              className={styles.input}
              name={`label-${team.id}`}
              aria-label={`Label for ${team.name}`}
              maxLength={40}
              defaultValue={offered.get(team.id) ?? ""}
              placeholder={team.name}
            />
          </div>
        ))}
      </fieldset>
      <fieldset className={styles.field}>
        <legend className={styles.label}>Pre-chat form</legend>
        <p className={styles.hint}>
          Asked before the first message. Attributes come from the Visitor attributes section; a visitor can only fill the ones asked here.
        </p>
        {fields.map((field) => (
          <div className={styles.row} key={field.key}>
            <label>
              <input type="checkbox" name={`ask-${field.key}`} defaultChecked={asked.has(field.key)} /> Ask <span dir="auto">{field.label}</span>
            </label>
            <label>
              <input type="checkbox" name={`require-${field.key}`} defaultChecked={asked.get(field.key) === true} aria-label={`${field.label} is required`} /> Required
            </label>
          </div>
        ))}
        <label htmlFor={`${prefix}-consent`}>Consent line (empty: none)</label>
        <input
          className={styles.input}
          id={`${prefix}-consent`}
          name="consent_text"
          maxLength={500}
          defaultValue={site.prechat?.consent?.text ?? ""}
          placeholder="I agree that my data is processed to answer my request."
        />
        <label>
          <input type="checkbox" name="consent_required" defaultChecked={site.prechat?.consent?.required ?? false} /> The visitor must agree
        </label>
      </fieldset>
      <button className={styles.button} type="submit">
        Save teams and form
      </button>
      <Feedback status={status} />
    </form>
  );
}
