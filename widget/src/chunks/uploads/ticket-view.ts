import { CLIP, fill, TYPES } from "../../shared/dom";
import type { Elements } from "../../shared/types";
import type { Key } from "../../strings/table";

// The "leave a message" form's markup (uploads chunk), filled into the panel's empty form and
// thank-you elements when the visitor first opens the form.

const field = (id: string, key: Key, input: string, close = "") =>
  `<div class=fd><label for=${id} data-t=${key}></label>${input} aria-describedby=${id}-e>${close}<span class=fe id=${id}-e></span></div>`;

const FORM = `<button class="lk st" id=bk type=button data-t=back></button>
<h2 data-t=ticketTitle></h2><p id=tp></p>
${field("tn", "name", "<input id=tn maxlength=80 autocomplete=name")}
${field("te", "email", "<input id=te type=email required maxlength=254 autocomplete=email")}
${field("ts", "subject", "<input id=ts required maxlength=120")}
${field("tb", "body", "<textarea id=tb dir=auto required maxlength=8000 rows=5", "</textarea>")}
<div class=fa><label class=fb>${CLIP}<span data-t=addFiles></span><input id=tf class=sr type=file multiple data-a=aria-label:attachments accept="${TYPES.join(",")}"></label><span class=fh data-t=filesHint></span></div>
<ul class=fl id=fl></ul>
<p class=er id=er role=alert></p>
<button class=bt id=tsb data-t=send></button>`;

const DONE = `<h2 data-t=thanks></h2><p id=dm></p><p class=er id=de role=alert></p><button class="bt st" id=db type=button data-t=backToChat></button>`;

export function buildTicketView(els: Elements): void {
  fill(els.t!, "afterbegin", FORM, els);
  fill(els.dn!, "afterbegin", DONE, els);
}
