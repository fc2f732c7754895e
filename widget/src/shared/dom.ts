import { T, type Key } from "./strings";
import type { Elements } from "./types";

// Markup helpers the panel and its chunks share: markup is static, with `data-t` (text) and
// `data-a` (attributes) naming strings, so a language that arrives later is applied by localize().
// Every user-supplied string is set with textContent elsewhere, into an element with dir=auto: a
// site's or a person's words keep their own direction inside a panel of the other one.

export const svg = (path: string) => `<svg viewBox="0 0 24 24" aria-hidden=true>${path}</svg>`;
export const CLIP = svg(
  '<path d="M16.5 6.5l-7.8 7.8a2 2 0 0 0 2.8 2.8l7.8-7.8a4 4 0 0 0-5.7-5.7L5.8 11.4a6 6 0 0 0 8.5 8.5l5.2-5.2" fill=none stroke=currentColor stroke-width=1.8 stroke-linecap=round />',
);
export const TYPES =
  "image/png image/jpeg image/gif image/webp application/pdf text/plain text/csv application/zip application/msword application/vnd.openxmlformats-officedocument.wordprocessingml.document application/vnd.openxmlformats-officedocument.spreadsheetml.sheet".split(
    " ",
  );

/** Inserts markup into `el`, localized, and adds its elements to `els` by id. */
export function fill(el: HTMLElement, where: InsertPosition, markup: string, els: Elements): void {
  el.insertAdjacentHTML(where, markup);
  el.querySelectorAll<HTMLElement>("[id]").forEach((child) => (els[child.id] = child));
  localize(el);
}

export function localize(frame: HTMLElement): void {
  frame.querySelectorAll<HTMLElement>("[data-t]").forEach((el) => (el.textContent = T[el.dataset.t as Key]));
  frame.querySelectorAll<HTMLElement>("[data-a]").forEach((el) => {
    for (const pair of (el.dataset.a as string).split(";")) {
      const [name, key] = pair.split(":") as [string, Key];
      el.setAttribute(name, T[key]);
    }
  });
}

export function h<K extends keyof HTMLElementTagNameMap>(tag: K, cls?: string, text?: string): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag);
  if (cls) element.className = cls;
  if (text) element.textContent = text;
  return element;
}
