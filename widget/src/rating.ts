// The rating asked for after a close (decisions.md, round 3): five faces, an optional comment,
// POST /api/v1/chat/visitor/rating. Once sent (or refused as already rated) the box says thanks.
import { showClosed } from "./composer";
import { save, st, vcall } from "./session";
import type { Elements } from "./view";

export function initRating(els: Elements): void {
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
