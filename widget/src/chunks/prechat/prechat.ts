// The prechat chunk (public/widget/prechat-<hash>.js), loaded before a first message only on a
// site with departments or a pre-chat form (docs/attributes.md): asks which department (the
// start's team_id) and the form's fields and consent, in one small form in the thread, and
// answers what the start adds. Required fields and a required consent are the browser's own
// `required` checks; the server checks everything again (400 with a retry in the thread).
import type { PrechatChunk } from "../../shared/chunk-apis";
import { h } from "../../shared/dom";
import { session } from "../../shared/session";
import { addStrings, T } from "../../shared/strings";
import { adoptStyle } from "../../shared/style";
import type { ParleyWindow } from "../../shared/global";
import type { Elements, SiteConfig } from "../../shared/types";
import type { WidgetPrechatField } from "../../../../lib/contracts/widget-config-shape";
import { PRECHAT_EN } from "../../strings/prechat";

const CSS = `.pc{display:grid;gap:8px;margin:8px 0;padding:10px;border:1px solid var(--ln);border-radius:10px}.pc label{display:grid;gap:2px}.pc input:not([type=checkbox]),.pc select{font:inherit;padding:6px 8px;border:1px solid var(--ln);border-radius:8px}.pc .ck{display:flex;gap:6px;align-items:flex-start}`;

let asked = 0;

/** One choice of a select (its words set as text). */
function option(label: string, value: string): HTMLOptionElement {
  const choice = h("option", undefined, label);
  choice.value = value;
  return choice;
}

/** One field's input, typed as its attribute (a list and a boolean are a select). */
function input(field: WidgetPrechatField): HTMLInputElement | HTMLSelectElement {
  const choices = field.type === "list" ? field.options.map((option) => [option, option]) : field.type === "boolean" ? [["true", T.preYes], ["false", T.preNo]] : null;
  let control: HTMLInputElement | HTMLSelectElement;
  if (choices) {
    control = h("select");
    control.append(option("", ""), ...choices.map(([value, label]) => option(label!, value!)));
  } else {
    control = h("input");
    control.type = { email: "email", number: "number", date: "date", link: "url" }[field.type as string] || "text";
    if (field.type === "number") control.step = "any";
    control.maxLength = field.type === "link" ? 2000 : field.type === "text" ? 500 : 254;
    if (field.type === "name") control.autocomplete = "name";
    if (field.type === "email") control.autocomplete = "email";
  }
  control.name = field.key;
  control.required = field.required;
  control.dir = "auto";
  return control;
}

/** A labelled control: the label's words, set as text (a site's or the widget's), around the control. */
function labelled(text: string, control: HTMLElement, cls?: string): HTMLLabelElement {
  const label = h("label", cls);
  const words = h("span", undefined, text);
  words.dir = "auto";
  label.append(...(cls ? [control, words] : [words, control]));
  return label;
}

/** The form's answers as the start takes them: team_id, fields (typed as the form's inputs give them) and consent. */
export function answers(form: HTMLFormElement, config: SiteConfig): Record<string, unknown> {
  const data = new FormData(form);
  const start: Record<string, unknown> = {};
  const team = data.get("team_id");
  if (typeof team === "string" && team) start.team_id = team;
  const fields: Record<string, string> = {};
  for (const field of config.prechat?.fields || []) {
    const value = data.get(field.key);
    if (typeof value === "string" && value.trim()) fields[field.key] = value.trim();
  }
  if (config.prechat) start.fields = fields;
  if (config.prechat?.consent) start.consent = data.get("consent") === "on";
  return start;
}

/** Shows the form under the thread's messages; once it is sent, adds its answers to the start's body and resolves. */
function ask(els: Elements, config: SiteConfig, body: Record<string, unknown>): Promise<void> {
  adoptStyle(session.boot.root, CSS);
  els.pc?.remove();
  const form = h("form", "pc");
  form.id = "pc";
  els.pc = form;
  const id = `pc${++asked}`;
  if (config.departments.length) {
    const pick = h("select");
    pick.name = "team_id";
    pick.required = true;
    pick.append(option("", ""), ...config.departments.map((department) => option(department.label, department.team_id)));
    form.append(labelled(T.preDepartment, pick));
  }
  for (const field of config.prechat?.fields || []) {
    form.append(labelled(field.label ?? (field.type === "email" ? T.preEmail : T.preName), input(field)));
  }
  const consent = config.prechat?.consent;
  if (consent) {
    const box = h("input");
    box.type = "checkbox";
    box.name = "consent";
    box.id = `${id}c`;
    box.required = consent.required;
    form.append(labelled(consent.text, box, "ck"));
  }
  const send = h("button", "bt", T.preStart);
  send.type = "submit";
  form.append(send);
  els.ls!.append(form);
  form.scrollIntoView?.({ block: "nearest" });
  (form.querySelector("select,input") as HTMLElement | null)?.focus();
  return new Promise((done) => {
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      Object.assign(body, answers(form, config));
      form.remove();
      delete els.pc;
      done();
    });
  });
}

addStrings("prechat", PRECHAT_EN);
const PRECHAT: PrechatChunk = { ask };

(window as ParleyWindow).Parley?._chunk?.("prechat", PRECHAT);
