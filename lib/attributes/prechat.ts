import { invalidRequest, type FieldProblem } from "../core/errors";
import { attributeFilterValue, attributeValue, type AttributeType, type PrechatSetting } from "../contracts/attributes";
import { displayName, email } from "../core/validation/strings";
import { definitionsOf } from "./definitions";

// The pre-chat form (decisions.md, round 4; docs/attributes.md): a site setting naming fields
// (the visitor's name and email, or attribute keys) and an optional consent checkbox. The start
// takes `fields` and `consent`: name and email fill the visitor's, attribute keys set the
// conversation's values (typed as their definitions), and an accepted consent is stored as the
// exact text shown with the time. Only the form's own fields are taken from a visitor: a visitor
// never sets an attribute the form does not ask for.

const OWN_FIELDS = new Set(["name", "email"]);

/** A form's attribute keys must be defined when the site is saved; an unknown one is 400 naming it, nothing saved. */
export async function checkPrechatKeys(setting: PrechatSetting | undefined): Promise<void> {
  if (!setting) return;
  const keys = setting.fields.map((field) => field.key).filter((key) => !OWN_FIELDS.has(key));
  const known = await definitionsOf(keys);
  const fields = setting.fields.flatMap((field, index) =>
    OWN_FIELDS.has(field.key) || known.has(field.key) ? [] : [{ path: `prechat.fields.${index}.key`, problem: "no attribute has this key (or name, email)" }],
  );
  if (fields.length) throw invalidRequest(`Invalid request body. ${fields[0]!.path}: no attribute has this key.`, fields);
}

export interface PrechatFieldView {
  key: string;
  /** An attribute's label; null for name and email (the widget words them in the visitor's language). */
  label: string | null;
  type: "name" | "email" | AttributeType;
  options: string[];
  required: boolean;
}

/** The form as the widget draws it: each field with its label and type; fields of attributes deleted since are left out. */
export async function prechatForWidget(stored: unknown): Promise<{ fields: PrechatFieldView[]; consent: { text: string; required: boolean } | null } | null> {
  const setting = stored as PrechatSetting; // stored only through the sites' contract
  if (!setting) return null;
  const definitions = await definitionsOf(setting.fields.map((field) => field.key).filter((key) => !OWN_FIELDS.has(key)));
  const fields = setting.fields.flatMap((field): PrechatFieldView[] => {
    if (field.key === "name" || field.key === "email") return [{ key: field.key, label: null, type: field.key, options: [], required: field.required }];
    const definition = definitions.get(field.key);
    return definition ? [{ key: field.key, label: definition.label, type: definition.type, options: definition.options, required: field.required }] : [];
  });
  return { fields, consent: setting.consent };
}

export interface PrechatAnswers {
  name?: string;
  email?: string;
  attributes: Record<string, string | number | boolean>;
  consent: { text: string; at: string } | null;
}

const isBlank = (value: unknown) => value === undefined || value === null || (typeof value === "string" && value.trim() === "");

/**
 * What a start's `fields` and `consent` give, checked against the site's form: a field the form
 * does not have, a value of the wrong type, a required field left blank or a required consent not
 * given is 400 naming it; nothing is started.
 */
export async function readPrechat(stored: unknown, fields: Record<string, unknown> | undefined, consent: boolean | undefined, now: Date): Promise<PrechatAnswers> {
  const setting = stored as PrechatSetting; // stored only through the sites' contract
  const sent = fields ?? {};
  const answers: PrechatAnswers = { attributes: {}, consent: null };
  const problems: FieldProblem[] = [];
  const formFields = setting?.fields ?? [];
  const definitions = await definitionsOf(formFields.map((field) => field.key).filter((key) => !OWN_FIELDS.has(key)));
  const asked = new Set(formFields.filter((field) => OWN_FIELDS.has(field.key) || definitions.has(field.key)).map((field) => field.key));
  for (const key of Object.keys(sent)) {
    if (!asked.has(key)) problems.push({ path: `fields.${key}`, problem: "the site's pre-chat form has no such field" });
  }
  for (const field of formFields) {
    if (!asked.has(field.key)) continue;
    const value = sent[field.key];
    if (isBlank(value)) {
      if (field.required) problems.push({ path: `fields.${field.key}`, problem: "is required" });
      continue;
    }
    const definition = definitions.get(field.key);
    const schema =
      field.key === "name"
        ? displayName(80)
        : field.key === "email"
          ? email()
          : typeof value === "string" && (definition!.type === "number" || definition!.type === "boolean")
            ? attributeFilterValue(definition!) // a form's input sends text: "12", "true"
            : attributeValue(definition!);
    const parsed = schema.safeParse(value);
    if (!parsed.success) {
      problems.push({ path: `fields.${field.key}`, problem: parsed.error.issues[0]?.message ?? "invalid" });
      continue;
    }
    if (field.key === "name") answers.name = parsed.data as string;
    else if (field.key === "email") answers.email = parsed.data as string;
    else answers.attributes[field.key] = parsed.data as string | number | boolean;
  }
  if (setting?.consent) {
    if (consent === true) answers.consent = { text: setting.consent.text, at: now.toISOString() };
    else if (setting.consent.required) problems.push({ path: "consent", problem: "the site asks for consent before the chat starts" });
  }
  if (problems.length) throw invalidRequest(`Invalid request body. ${problems[0]!.path}: ${problems[0]!.problem}`.slice(0, 200), problems);
  return answers;
}
