import { T, type Key } from "./strings";

// The panel's markup: static, with `data-t` (text) and `data-a` (attributes) naming strings, so a
// language that arrives later is applied by localize(). Every user-supplied string is set with
// textContent elsewhere, into an element with dir=auto: a site's or a person's words keep their
// own direction inside a panel of the other one ("Lumen & Co." in an Arabic panel).

const svg = (path: string) => `<svg viewBox="0 0 24 24" aria-hidden=true>${path}</svg>`;
const CLOSE = svg('<path d="M6 6l12 12M18 6L6 18" stroke=currentColor stroke-width=2.2 stroke-linecap=round />');
const SEND = svg('<path fill=currentColor d="M3.4 20.4L21 12 3.4 3.6v6.4L16 12 3.4 14z"/>');
const LIST = svg('<path d="M4 7h16M4 12h16M4 17h10" stroke=currentColor stroke-width=2 stroke-linecap=round />');
export const CLIP = svg(
  '<path d="M16.5 6.5l-7.8 7.8a2 2 0 0 0 2.8 2.8l7.8-7.8a4 4 0 0 0-5.7-5.7L5.8 11.4a6 6 0 0 0 8.5 8.5l5.2-5.2" fill=none stroke=currentColor stroke-width=1.8 stroke-linecap=round />',
);
export const TYPES =
  "image/png image/jpeg image/gif image/webp application/pdf text/plain text/csv application/zip application/msword application/vnd.openxmlformats-officedocument.wordprocessingml.document application/vnd.openxmlformats-officedocument.spreadsheetml.sheet".split(
    " ",
  );

const MARKUP = `<div class=p id=p role=dialog hidden>
<div class=hd><div><p class=ti id=ti dir=auto></p><p class=su id=su></p></div><button class=ib id=hb type=button hidden aria-expanded=false data-a=aria-label:conversations>${LIST}</button><button class=ib id=x type=button data-a=aria-label:closeChat>${CLOSE}</button></div>
<div class=v id=v>
<div class=n id=n role=status hidden></div>
<div class=ls id=ls role=log aria-live=polite data-a=aria-label:messages tabindex=0><div class=e0 id=e0><div class=fc id=fc></div><p class=gr id=gr dir=auto></p></div></div>
<div class=ty id=ty aria-live=off></div>
<div class=cl id=cl role=status hidden><p data-t=closed></p><p data-t=closedHint></p><button class=bt id=nw type=button data-t=startNew></button></div>
<form class=ea id=ea hidden><label for=ee data-t=emailPrompt></label><div class=rw><input id=ee type=email required maxlength=254 autocomplete=email data-a=placeholder:emailExample><button class=bt data-t=continue></button></div></form>
<form class=c id=c><label class=ab>${CLIP}<input id=cf class=sr type=file multiple data-a=aria-label:addFiles accept="${TYPES.join(",")}"></label><textarea id=tx rows=1 maxlength=4000 data-a="aria-label:message;placeholder:placeholder"></textarea><button class=sb data-a=aria-label:send>${SEND}</button></form>
<button class="lk go" id=go type=button data-t=preferEmail></button>
</div>
<form class=t id=t hidden novalidate></form><div class=t id=dn hidden></div>
</div>`;

export type Elements = Record<string, HTMLElement>;

/** Builds the panel into `frame`; returns its elements by id. */
export function buildView(frame: HTMLElement): Elements {
  const els: Elements = {};
  fill(frame, "beforeend", MARKUP, els);
  return els;
}

/** Inserts markup into `el`, localized, and adds its elements to `els` by id. */
export function fill(el: HTMLElement, where: InsertPosition, markup: string, els: Elements): void {
  el.insertAdjacentHTML(where, markup);
  el.querySelectorAll<HTMLElement>("[id]").forEach((c) => (els[c.id] = c));
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
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text) e.textContent = text;
  return e;
}
