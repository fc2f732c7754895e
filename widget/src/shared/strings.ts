import { EN } from "../strings/panel";
import type { Key, Language, Part, Table } from "../strings/table";

// Every string the widget shows, in parts: the panel's (strings/panel.ts), and each chunk's in
// strings/<chunk>.ts, which only that chunk carries and lays over T with addStrings when it loads
// (so opening the panel does not load the form's words). Other languages (strings/locales/*.ts)
// are one flat table in the source; the build turns each into the values of every part in
// English's key order (scripts/build-widget.mjs), so no key travels twice.

export type { Key, Table };


/** The current table: English, with the visitor's language laid over it once loaded. A chunk's
 * keys are there once the chunk has loaded (only that chunk reads them). */
export const T = { ...EN } as Table;

const english: Partial<Record<Part, Record<string, string>>> = { panel: EN };
let language: Language = {};

function apply(part: Part): void {
  const en = english[part]!;
  Object.keys(en).forEach((key, i) => (T[key as Key] = language[part]?.[i] ?? en[key]!));
}

/** A chunk's English (loaded with it), under the visitor's language if that has arrived. */
export function addStrings(part: Part, en: Record<string, string>): void {
  english[part] = en;
  apply(part);
}

/** The visitor's language arrived: laid over every part loaded so far. */
export function setLanguage(table: Language): void {
  language = table;
  for (const part of Object.keys(english) as Part[]) apply(part);
}

export function fmt(key: Key, vars: Record<string, string | number> = {}): string {
  return T[key].replace(/\{(\w+)\}/g, (all, name: string) => (name in vars ? String(vars[name]) : all));
}
