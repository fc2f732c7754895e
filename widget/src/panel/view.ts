import { CLIP, fill, svg, TYPES } from "../shared/dom";
import type { Elements } from "../shared/types";

// The panel's markup (shared/dom.ts says how strings and user text get into it).

const CLOSE = svg('<path d="M6 6l12 12M18 6L6 18" stroke=currentColor stroke-width=2.2 stroke-linecap=round />');
const SEND = svg('<path fill=currentColor d="M3.4 20.4L21 12 3.4 3.6v6.4L16 12 3.4 14z"/>');
const LIST = svg('<path d="M4 7h16M4 12h16M4 17h10" stroke=currentColor stroke-width=2 stroke-linecap=round />');
const MARKUP = `<div class=p id=p role=dialog hidden>
<div class=hd><div><p class=ti id=ti dir=auto></p><p class=su id=su></p></div><button class=ib id=hb type=button hidden aria-expanded=false data-a=aria-label:conversations>${LIST}</button><button class=ib id=x type=button data-a=aria-label:closeChat>${CLOSE}</button></div>
<div class=v id=v>
<div class=n id=n role=status hidden></div>
<div class=ls id=ls role=log aria-live=polite data-a=aria-label:messages tabindex=0><div class=e0 id=e0><div class=fc id=fc></div><p class=gr id=gr dir=auto></p></div></div>
<div class=ty id=ty aria-live=off></div>
<div class=cl id=cl role=status hidden><p data-t=closed></p><p data-t=closedHint></p><button class=bt id=nw type=button data-t=startNew></button></div>
<form class=ea id=ea hidden><label for=ee data-t=emailPrompt></label><div class=rw><input id=ee type=email required maxlength=254 autocomplete=email data-a=placeholder:emailExample><button class=bt data-t=continue></button></div></form>
<form class=c id=c><label class=ab>${CLIP}<input id=cf class=sr type=file multiple data-a=aria-label:addFiles accept="${TYPES.join(",")}"></label><textarea id=tx dir=auto rows=1 maxlength=4000 data-a="aria-label:message;placeholder:placeholder"></textarea><button class=sb data-a=aria-label:send>${SEND}</button></form>
<button class="lk go" id=go type=button data-t=preferEmail></button>
</div>
<form class=t id=t hidden novalidate></form><div class=t id=dn hidden></div>
</div>`;

/** Builds the panel into `frame`; returns its elements by id. */
export function buildView(frame: HTMLElement): Elements {
  const elements: Elements = {};
  fill(frame, "beforeend", MARKUP, elements);
  return elements;
}
