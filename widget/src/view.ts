import { T, type Key } from "./strings";

// The panel's markup: static, with `data-t` (text) and `data-a` (attributes) naming strings, so a
// language that arrives later is applied by localize(). Every user-supplied string is set with
// textContent elsewhere, into an element with dir=auto: a site's or a person's words keep their
// own direction inside a panel of the other one ("Lumen & Co." in an Arabic panel).

const svg = (path: string) => `<svg viewBox="0 0 24 24" aria-hidden=true>${path}</svg>`;
const CLOSE = svg('<path d="M6 6l12 12M18 6L6 18" stroke=currentColor stroke-width=2.2 stroke-linecap=round />');
const SEND = svg('<path fill=currentColor d="M3.4 20.4L21 12 3.4 3.6v6.4L16 12 3.4 14z"/>');
const LIST = svg('<path d="M4 7h16M4 12h16M4 17h10" stroke=currentColor stroke-width=2 stroke-linecap=round />');
const CLIP = svg(
  '<path d="M16.5 6.5l-7.8 7.8a2 2 0 0 0 2.8 2.8l7.8-7.8a4 4 0 0 0-5.7-5.7L5.8 11.4a6 6 0 0 0 8.5 8.5l5.2-5.2" fill=none stroke=currentColor stroke-width=1.8 stroke-linecap=round />',
);
export const TYPES =
  "image/png image/jpeg image/gif image/webp application/pdf text/plain text/csv application/zip application/msword application/vnd.openxmlformats-officedocument.wordprocessingml.document application/vnd.openxmlformats-officedocument.spreadsheetml.sheet".split(
    " ",
  );

const field = (id: string, key: Key, input: string, close = "") =>
  `<div class=fd><label for=${id} data-t=${key}></label>${input} aria-describedby=${id}-e>${close}<span class=fe id=${id}-e></span></div>`;

const FACES = ["😞", "🙁", "😐", "🙂", "😄"];

const MARKUP = `<div class=p id=p role=dialog hidden>
<div class=hd><div><p class=ti id=ti dir=auto></p><p class=su id=su></p></div><button class=ib id=hb type=button hidden aria-expanded=false data-a=aria-label:conversations>${LIST}</button><button class=ib id=x type=button data-a=aria-label:closeChat>${CLOSE}</button></div>
<div class=v id=v>
<div class=n id=n role=status hidden></div>
<div class=ls id=ls role=log aria-live=polite data-a=aria-label:messages tabindex=0><div class=e0 id=e0><div class=fc id=fc></div><p class=gr id=gr dir=auto></p></div></div>
<div class=ty id=ty aria-live=off></div>
<div class=cl id=cl role=status hidden><p data-t=closed></p><form class=rt id=rt><fieldset><legend data-t=rateAsk></legend><div class=rf>${[1, 2, 3, 4, 5].map((n) => `<button type=button class=fa5 data-s=${n} aria-pressed=false data-a=aria-label:rate${n}>${FACES[n - 1]}</button>`).join("")}</div></fieldset><textarea id=rc rows=2 maxlength=1000 data-a="aria-label:rateComment;placeholder:rateComment" hidden></textarea><button class=bt id=rs hidden data-t=rateSend></button></form><p id=rd hidden data-t=rateThanks></p><p data-t=closedHint></p><button class=bt id=nw type=button data-t=startNew></button></div>
<form class=ea id=ea hidden><label for=ee data-t=emailPrompt></label><div class=rw><input id=ee type=email required maxlength=254 autocomplete=email data-a=placeholder:emailExample><button class=bt data-t=continue></button></div></form>
<form class=c id=c><label class=ab>${CLIP}<input id=cf class=sr type=file multiple data-a=aria-label:addFiles accept="${TYPES.join(",")}"></label><textarea id=tx rows=1 maxlength=4000 data-a="aria-label:message;placeholder:placeholder"></textarea><button class=sb data-a=aria-label:send>${SEND}</button></form>
<button class="lk go" id=go type=button data-t=preferEmail></button>
</div>
<form class=t id=t hidden novalidate>
<button class="lk st" id=bk type=button data-t=back></button>
<h2 data-t=ticketTitle></h2><p id=tp></p>
${field("tn", "name", "<input id=tn maxlength=80 autocomplete=name")}
${field("te", "email", "<input id=te type=email required maxlength=254 autocomplete=email")}
${field("ts", "subject", "<input id=ts required maxlength=120")}
${field("tb", "body", "<textarea id=tb required maxlength=8000 rows=5", "</textarea>")}
<div class=fa><label class=fb>${CLIP}<span data-t=addFiles></span><input id=tf class=sr type=file multiple data-a=aria-label:attachments accept="${TYPES.join(",")}"></label><span class=fh data-t=filesHint></span></div>
<ul class=fl id=fl></ul>
<p class=er id=er role=alert></p>
<button class=bt id=tsb data-t=send></button>
</form>
<div class=t id=dn hidden><h2 data-t=thanks></h2><p id=dm></p><p class=er id=de role=alert></p><button class="bt st" id=db type=button data-t=backToChat></button></div>
</div>`;

export type Elements = Record<string, HTMLElement>;

/** Builds the panel into `frame`; returns its elements by id. */
export function buildView(frame: HTMLElement): Elements {
  frame.insertAdjacentHTML("beforeend", MARKUP);
  const els: Elements = {};
  frame.querySelectorAll<HTMLElement>("[id]").forEach((el) => (els[el.id] = el));
  localize(frame);
  return els;
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
