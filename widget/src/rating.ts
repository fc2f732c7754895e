// The rating chunk (public/widget/rating-<hash>.js), loaded when a conversation is closed
// (decisions.md, round 3): five faces, an optional comment, POST /api/v1/chat/visitor/rating.
// Once sent (or refused as already rated) the box says thanks.
import { showClosed } from "./composer";
import { save, st, vcall, boot } from "./session";
import { adoptStyle } from "./style";
import type { ParleyWindow } from "./types";
import { fill, type Elements } from "./view";

const FACES = ["😞", "🙁", "😐", "🙂", "😄"];
const MARKUP = `<form class=rt id=rt><fieldset><legend data-t=rateAsk></legend><div class=rf>${FACES.map((face, i) => `<button type=button class=fa5 data-s=${i + 1} aria-pressed=false data-a=aria-label:rate${i + 1}>${face}</button>`).join("")}</div></fieldset><textarea id=rc rows=2 maxlength=1000 data-a="aria-label:rateComment;placeholder:rateComment" hidden></textarea><button class=bt id=rs hidden data-t=rateSend></button></form><p id=rd hidden data-t=rateThanks></p>`;
const CSS = `.rt{display:grid;gap:8px}.rt fieldset{border:0;margin:0;padding:0}.rt legend{margin:0 auto 4px}.rf{display:flex;justify-content:center;gap:4px}.fa5{font-size:24px;line-height:1;padding:4px;background:none;border:2px solid transparent;border-radius:10px;cursor:pointer}.fa5[aria-pressed=true]{border-color:var(--a)}.rt textarea{font:inherit;padding:6px 8px;border:1px solid var(--ln);border-radius:8px;resize:vertical}`;

function initRating(els: Elements): void {
  adoptStyle(boot.root, CSS);
  const closedLine = els.cl!.firstElementChild!;
  fill(els.cl!, "afterbegin", MARKUP, els);
  els.cl!.prepend(closedLine); // the rating goes under "This conversation was closed"
  let score = 0;
  const faces = Array.from(els.rt!.querySelectorAll<HTMLButtonElement>("[data-s]"));
  for (const face of faces) {
    face.addEventListener("click", () => {
      score = Number(face.dataset.s);
      for (const f of faces) f.setAttribute("aria-pressed", String(f === face));
      els.rc!.hidden = els.rs!.hidden = false;
    });
  }
  els.rt!.addEventListener("submit", async (e) => {
    e.preventDefault();
    if (!score) return;
    const comment = (els.rc as HTMLTextAreaElement).value.trim();
    const r = await vcall("POST", "/api/v1/chat/visitor/rating", comment ? { score, comment } : { score });
    if (r.ok || r.code === "rating_closed") {
      st.r = 1;
      save();
      showClosed(true);
    }
  });
}

const RATING = { initRating };
export type Rating = typeof RATING;

(window as ParleyWindow).Parley?._chunk?.("rating", RATING);
