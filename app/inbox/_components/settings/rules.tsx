"use client";

import { useState, type FormEvent } from "react";
import styles from "../../inbox.module.css";
import { FIELD_KINDS, OPS_BY_KIND, RULE_ACTION_TYPES, RULE_EVENTS, type FieldKind, type RuleAction, type RuleCondition, type RuleEvent } from "@/lib/contracts/rules";
import { describeAction, describeEvent } from "@/lib/rules/sentences";
import { describeFailure, inboxApi } from "../shared/api";
import { useSave } from "../shared/use-save";
import { Feedback } from "../ui/feedback";

// The owners' rule editor (docs/rules.md): an event, conditions as field/operator/value rows, and
// actions as rows, with "Test on a conversation" (the dry run, which changes nothing). The API
// checks everything again; this only offers the operators that fit each field.

export interface Option {
  id: string;
  name: string;
}

export interface RuleOptions {
  sites: Option[];
  teams: Option[];
  members: Option[];
  labels: Option[];
  replies: Option[];
}

export interface EditableRule {
  id?: string;
  name: string;
  enabled: boolean;
  event: RuleEvent;
  idle_minutes: number | null;
  conditions: RuleCondition[];
  actions: RuleAction[];
}

const FIELDS = Object.keys(FIELD_KINDS) as (keyof typeof FIELD_KINDS)[];
const OP_LABELS: Record<string, string> = { eq: "is", neq: "is not", in: "is one of", contains: "contains", starts_with: "starts with", glob: "matches (* ?)", gt: "above", lt: "below", set: "is set", not_set: "is not set" };
const kindOf = (field: string): FieldKind => (FIELD_KINDS as Record<string, FieldKind>)[field] ?? "text";

function choicesFor(field: string, options: RuleOptions): Option[] | null {
  if (field === "site") return options.sites;
  if (field === "team") return options.teams;
  if (field === "label") return options.labels;
  if (field === "status") return ["open", "snoozed", "closed"].map((status) => ({ id: status, name: status }));
  return null;
}

function ConditionRow({ condition, options, index, change, remove }: { condition: RuleCondition; options: RuleOptions; index: number; change: (next: RuleCondition) => void; remove: () => void }) {
  const kind = kindOf(condition.field);
  const choices = choicesFor(condition.field, options);
  const id = `condition-${index}`;
  const needsValue = condition.op !== "set" && condition.op !== "not_set";
  const listValue = Array.isArray(condition.value) ? condition.value.join(", ") : condition.value === undefined || condition.value === null ? "" : String(condition.value);
  const setValue = (raw: string) => {
    if (kind === "boolean") return change({ ...condition, value: raw === "true" });
    if (condition.op === "in") return change({ ...condition, value: raw.split(",").map((item) => item.trim()).filter(Boolean) });
    change({ ...condition, value: raw });
  };
  return (
    <div className={styles.row} data-testid="rule-condition">
      <div className={styles.field}>
        <label htmlFor={`${id}-field`}>Field</label>
        <select className={styles.select} id={`${id}-field`} value={condition.field} onChange={(event) => {
          const field = event.target.value;
          const fieldKind = kindOf(field);
          change({ field, op: OPS_BY_KIND[fieldKind][0]!, value: fieldKind === "boolean" ? true : undefined });
        }}>
          {FIELDS.map((field) => (
            <option key={field} value={field}>{field}</option>
          ))}
        </select>
      </div>
      <div className={styles.field}>
        <label htmlFor={`${id}-op`}>Operator</label>
        <select className={styles.select} id={`${id}-op`} value={condition.op} onChange={(event) => change({ ...condition, op: event.target.value as RuleCondition["op"], value: event.target.value === "in" ? [] : kind === "boolean" ? true : undefined })}>
          {OPS_BY_KIND[kind].map((op) => (
            <option key={op} value={op}>{OP_LABELS[op]}</option>
          ))}
        </select>
      </div>
      {needsValue ? (
        <div className={styles.field}>
          <label htmlFor={`${id}-value`}>Value</label>
          {kind === "boolean" ? (
            <select className={styles.select} id={`${id}-value`} value={String(condition.value ?? true)} onChange={(event) => setValue(event.target.value)}>
              <option value="true">yes</option>
              <option value="false">no</option>
            </select>
          ) : choices && condition.op !== "in" ? (
            <select className={styles.select} id={`${id}-value`} value={listValue} onChange={(event) => setValue(event.target.value)}>
              <option value="">Choose…</option>
              {choices.map((choice) => (
                <option key={choice.id} value={choice.id}>{choice.name}</option>
              ))}
            </select>
          ) : (
            <input className={styles.input} id={`${id}-value`} value={listValue} maxLength={500} placeholder={condition.op === "in" ? "a, b, c" : condition.field === "page_url" ? "/pricing" : ""} onChange={(event) => setValue(event.target.value)} />
          )}
        </div>
      ) : null}
      <button className={styles.buttonQuiet} type="button" onClick={remove} aria-label={`Remove condition ${index + 1}`}>Remove</button>
    </div>
  );
}

const blankAction = (type: RuleAction["type"]): RuleAction => {
  switch (type) {
    case "assign_team":
      return { type, team_id: "" };
    case "assign_member":
      return { type, member_id: "" };
    case "add_label":
    case "remove_label":
      return { type, label_id: "" };
    case "snooze":
      return { type, minutes: 60 };
    case "send_saved_reply":
      return { type, saved_reply_id: "" };
    case "add_note":
      return { type, body: "" };
    case "set_attribute":
      return { type, key: "", value: "" };
    default:
      return { type: "close" };
  }
};

function ActionRow({ action, options, index, change, remove }: { action: RuleAction; options: RuleOptions; index: number; change: (next: RuleAction) => void; remove: () => void }) {
  const id = `action-${index}`;
  const pick = (key: string, choices: Option[]) => (
    <div className={styles.field}>
      <label htmlFor={`${id}-${key}`}>Which</label>
      <select className={styles.select} id={`${id}-${key}`} value={String((action as Record<string, unknown>)[key] ?? "")} onChange={(event) => change({ ...action, [key]: event.target.value } as RuleAction)}>
        <option value="">Choose…</option>
        {choices.map((choice) => (
          <option key={choice.id} value={choice.id}>{choice.name}</option>
        ))}
      </select>
    </div>
  );
  return (
    <div className={styles.row} data-testid="rule-action">
      <div className={styles.field}>
        <label htmlFor={`${id}-type`}>Action</label>
        <select className={styles.select} id={`${id}-type`} value={action.type} onChange={(event) => change(blankAction(event.target.value as RuleAction["type"]))}>
          {RULE_ACTION_TYPES.map((type) => (
            <option key={type} value={type}>{type.replace(/_/g, " ")}</option>
          ))}
        </select>
      </div>
      {action.type === "assign_team" ? pick("team_id", options.teams) : null}
      {action.type === "assign_member" ? pick("member_id", options.members) : null}
      {action.type === "add_label" || action.type === "remove_label" ? pick("label_id", options.labels) : null}
      {action.type === "send_saved_reply" ? pick("saved_reply_id", options.replies) : null}
      {action.type === "snooze" ? (
        <div className={styles.field}>
          <label htmlFor={`${id}-minutes`}>Minutes</label>
          <input className={styles.input} id={`${id}-minutes`} type="number" min={1} max={129600} value={action.minutes} onChange={(event) => change({ ...action, minutes: Number(event.target.value) })} />
        </div>
      ) : null}
      {action.type === "add_note" ? (
        <div className={styles.field}>
          <label htmlFor={`${id}-body`}>Note</label>
          <textarea className={styles.textarea} id={`${id}-body`} maxLength={5000} value={action.body} onChange={(event) => change({ ...action, body: event.target.value })} />
        </div>
      ) : null}
      {action.type === "set_attribute" ? (
        <>
          <div className={styles.field}>
            <label htmlFor={`${id}-key`}>Attribute</label>
            <input className={styles.input} id={`${id}-key`} value={action.key} onChange={(event) => change({ ...action, key: event.target.value })} />
          </div>
          <div className={styles.field}>
            <label htmlFor={`${id}-value`}>Value</label>
            <input className={styles.input} id={`${id}-value`} value={String(action.value ?? "")} onChange={(event) => change({ ...action, value: event.target.value })} />
          </div>
        </>
      ) : null}
      <button className={styles.buttonQuiet} type="button" onClick={remove} aria-label={`Remove action ${index + 1}`}>Remove</button>
    </div>
  );
}

interface TestOutcome {
  matched: boolean;
  conditions: { field: string; op: string; value?: unknown; result: boolean }[];
  actions: { description: string }[];
}

/** "Test on a conversation": the dry run of the rule as it stands in the editor. */
function RuleTester({ rule, prefix }: { rule: () => unknown; prefix: string }) {
  const [conversationId, setConversationId] = useState("");
  const [outcome, setOutcome] = useState<TestOutcome | null>(null);
  const [error, setError] = useState("");
  const test = async () => {
    setError("");
    setOutcome(null);
    const answer = await inboxApi<TestOutcome>("POST", "/api/v1/inbox/rules/test", { rule: rule(), conversation_id: conversationId.trim() });
    if (answer.ok) setOutcome(answer.result);
    else setError(describeFailure(answer));
  };
  return (
    <div>
      <div className={styles.row}>
        <div className={styles.field}>
          <label htmlFor={`${prefix}-test-conversation`}>Conversation id</label>
          <input className={styles.input} id={`${prefix}-test-conversation`} value={conversationId} onChange={(event) => setConversationId(event.target.value)} />
        </div>
        <button className={styles.buttonQuiet} type="button" onClick={() => void test()} disabled={!conversationId.trim()}>
          Test on a conversation
        </button>
      </div>
      {error ? <p className={styles.error} role="alert">{error}</p> : null}
      {outcome ? (
        <div role="status" data-testid="rule-test-result">
          <p><strong>{outcome.matched ? "It would act:" : "It would not act."}</strong></p>
          <ul>
            {outcome.conditions.map((condition, index) => (
              <li key={index}>
                {condition.result ? "✓" : "✗"} {condition.field} {OP_LABELS[condition.op] ?? condition.op}
                {condition.value === undefined || condition.value === null ? "" : ` ${Array.isArray(condition.value) ? condition.value.join(", ") : String(condition.value)}`}
              </li>
            ))}
          </ul>
          {outcome.actions.length ? <p>{outcome.actions.map((action) => action.description).join(", then ")}. Nothing was changed.</p> : <p className={styles.hint}>Nothing was changed.</p>}
        </div>
      ) : null}
    </div>
  );
}

/** A new rule (no `rule.id`) or an existing one: the form, saving with POST or PATCH. */
export function RuleEditor({ rule, options, names }: { rule: EditableRule; options: RuleOptions; names: Record<string, string> }) {
  const [draft, setDraft] = useState<EditableRule>(rule);
  const { status, save } = useSave();
  const prefix = rule.id ? `rule-${rule.id}` : "new-rule";
  const body = () => ({
    name: draft.name,
    enabled: draft.enabled,
    event: draft.event,
    ...(draft.event === "conversation.idle" ? { idle_minutes: draft.idle_minutes ?? 30 } : rule.id ? { idle_minutes: null } : {}),
    conditions: draft.conditions.map(({ field, op, value }) => (value === undefined || value === null ? { field, op } : { field, op, value })),
    actions: draft.actions,
  });
  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const saved = rule.id ? await save("PATCH", `/api/v1/inbox/rules/${encodeURIComponent(rule.id)}`, body(), "Saved.") : await save("POST", "/api/v1/inbox/rules", body(), "Rule created.");
    if (saved && !rule.id) setDraft(rule);
  };
  const setCondition = (index: number, next: RuleCondition | null) =>
    setDraft({ ...draft, conditions: next ? draft.conditions.map((item, at) => (at === index ? next : item)) : draft.conditions.filter((_item, at) => at !== index) });
  const setAction = (index: number, next: RuleAction | null) =>
    setDraft({ ...draft, actions: next ? draft.actions.map((item, at) => (at === index ? next : item)) : draft.actions.filter((_item, at) => at !== index) });
  const nameMap = new Map(Object.entries(names));
  return (
    <form onSubmit={onSubmit} aria-label={rule.id ? `Edit rule ${rule.name}` : "New rule"}>
      <div className={styles.row}>
        <div className={styles.field}>
          <label htmlFor={`${prefix}-name`}>Name</label>
          <input className={styles.input} id={`${prefix}-name`} required maxLength={80} value={draft.name} onChange={(event) => setDraft({ ...draft, name: event.target.value })} />
        </div>
        <div className={styles.field}>
          <label htmlFor={`${prefix}-event`}>When</label>
          <select className={styles.select} id={`${prefix}-event`} value={draft.event} onChange={(event) => setDraft({ ...draft, event: event.target.value as RuleEvent })}>
            {RULE_EVENTS.map((event) => (
              <option key={event} value={event}>{describeEvent(event, null).replace(/ for \? min$/, "")}</option>
            ))}
          </select>
        </div>
        {draft.event === "conversation.idle" ? (
          <div className={styles.field}>
            <label htmlFor={`${prefix}-idle`}>Quiet for (min)</label>
            <input className={styles.input} id={`${prefix}-idle`} type="number" min={1} max={43200} value={draft.idle_minutes ?? 30} onChange={(event) => setDraft({ ...draft, idle_minutes: Number(event.target.value) })} />
          </div>
        ) : null}
      </div>
      <fieldset className={styles.card}>
        <legend>And every condition holds</legend>
        {draft.conditions.map((condition, index) => (
          <ConditionRow key={index} index={index} condition={condition} options={options} change={(next) => setCondition(index, next)} remove={() => setCondition(index, null)} />
        ))}
        <button className={styles.buttonQuiet} type="button" onClick={() => setDraft({ ...draft, conditions: [...draft.conditions, { field: "page_url", op: "eq", value: "" }] })}>
          Add a condition
        </button>
      </fieldset>
      <fieldset className={styles.card}>
        <legend>Then</legend>
        {draft.actions.map((action, index) => (
          <ActionRow key={index} index={index} action={action} options={options} change={(next) => setAction(index, next)} remove={() => setAction(index, null)} />
        ))}
        <button className={styles.buttonQuiet} type="button" onClick={() => setDraft({ ...draft, actions: [...draft.actions, blankAction("add_label")] })}>
          Add an action
        </button>
        {draft.actions.length ? <p className={styles.hint}>{draft.actions.map((action) => describeAction(action, nameMap)).join(", then ")}</p> : null}
      </fieldset>
      <div className={styles.row}>
        <button className={styles.button} type="submit">{rule.id ? "Save rule" : "Create rule"}</button>
      </div>
      <Feedback status={status} />
      <RuleTester rule={body} prefix={prefix} />
    </form>
  );
}

/** Enable or disable, move up or down, delete. */
export function RuleControls({ id, name, enabled, index, last }: { id: string; name: string; enabled: boolean; index: number; last: boolean }) {
  const { status, save } = useSave();
  const path = `/api/v1/inbox/rules/${encodeURIComponent(id)}`;
  return (
    <div>
      <div className={styles.row}>
        <label className={styles.row}>
          <input type="checkbox" checked={enabled} onChange={(event) => void save("PATCH", path, { enabled: event.target.checked }, event.target.checked ? "Enabled." : "Disabled.")} />
          Enabled
        </label>
        <button className={styles.buttonQuiet} type="button" disabled={index === 0} aria-label={`Move ${name} up`} onClick={() => void save("PATCH", path, { position: index - 1 }, "Moved.")}>Up</button>
        <button className={styles.buttonQuiet} type="button" disabled={last} aria-label={`Move ${name} down`} onClick={() => void save("PATCH", path, { position: index + 1 }, "Moved.")}>Down</button>
        <button className={styles.buttonDanger} type="button" onClick={() => void save("DELETE", path, undefined, "Deleted.")}>Delete</button>
      </div>
      <Feedback status={status} />
    </div>
  );
}
