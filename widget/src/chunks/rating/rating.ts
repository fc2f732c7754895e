// The rating chunk (public/widget/rating-<hash>.js), loaded when a conversation is closed
// (decisions.md, round 3): five faces, an optional comment, POST /api/v1/chat/visitor/rating.
// Once sent (or refused as already rated) the box says thanks. Under it, when the conversation
// has the visitor's email (the state's Transcript), "Email me this conversation": POST /api/v1/chat/visitor/transcript.
import type { RatingChunk } from "../../shared/chunk-apis";
import { fill } from "../../shared/dom";
import { notSentReason } from "../../shared/not-sent";
import { session } from "../../shared/session";
import { StateKey } from "../../shared/state";
import { addStrings, T } from "../../shared/strings";
import { adoptStyle } from "../../shared/style";
import type { ParleyWindow } from "../../shared/global";
import type { Elements } from "../../shared/types";
import { RATING_EN } from "../../strings/rating";

const FACES = ["😞", "🙁", "😐", "🙂", "😄"];
const MARKUP = `<form class=rt id=rt><fieldset><legend data-t=rateAsk></legend><div class=rf>${FACES.map((face, i) => `<button type=button class=fa5 data-s=${i + 1} aria-pressed=false data-a=aria-label:rate${i + 1}>${face}</button>`).join("")}</div></fieldset><textarea id=rc dir=auto rows=2 maxlength=1000 data-a="aria-label:rateComment;placeholder:rateComment" hidden></textarea><button class=bt id=rs hidden data-t=rateSend></button></form><p id=rd hidden data-t=rateThanks></p>`;
// The transcript's outcome is a polite live region of its own, present (empty) before it speaks.
const TRANSCRIPT = `<button class=lk id=tb type=button data-t=transcriptOffer></button><p id=ts role=status tabindex=-1></p>`;
const CSS = `.rt{display:grid;gap:8px}.rt fieldset{border:0;margin:0;padding:0}.rt legend{margin:0 auto 4px}.rf{display:flex;justify-content:center;gap:4px}.fa5{font-size:24px;line-height:1;padding:4px;background:none;border:2px solid transparent;border-radius:10px;cursor:pointer}.fa5[aria-pressed=true]{border-color:var(--a)}.rt textarea{font:inherit;padding:6px 8px;border:1px solid var(--ln);border-radius:8px;resize:vertical}`;

let els: Elements;

function initRating(elements: Elements): void {
  els = elements;
  adoptStyle(session.boot.root, CSS);
  const closedLine = els.cl!.firstElementChild!;
  fill(els.cl!, "afterbegin", MARKUP + TRANSCRIPT, els);
  els.cl!.prepend(closedLine); // the rating and the transcript go under "This conversation was closed"
  let score = 0;
  const faces = Array.from(els.rt!.querySelectorAll<HTMLButtonElement>("[data-s]"));
  for (const face of faces) {
    face.addEventListener("click", () => {
      score = Number(face.dataset.s);
      for (const other of faces) other.setAttribute("aria-pressed", String(other === face));
      els.rc!.hidden = els.rs!.hidden = false;
      els.rs!.scrollIntoView({ block: "nearest" }); // the card scrolls (it keeps the thread room): its send button shows
    });
  }
  els.rt!.addEventListener("submit", async (event) => {
    event.preventDefault();
    if (!score) return;
    const comment = (els.rc as HTMLTextAreaElement).value.trim();
    const answer = await session.call("POST", "/api/v1/chat/visitor/rating", comment ? { score, comment } : { score });
    if (answer.ok || answer.code === "rating_closed") {
      session.state[StateKey.Rated] = 1;
      session.save();
      shown();
    }
  });
  els.tb!.addEventListener("click", () => void mailTranscript());
}

async function mailTranscript(): Promise<void> {
  const button = els.tb as HTMLButtonElement;
  button.disabled = true;
  const answer = await session.call("POST", "/api/v1/chat/visitor/transcript", {});
  button.disabled = false;
  if (answer.ok || answer.code === "email_required") {
    session.state[StateKey.Transcript] = answer.ok ? 2 : 0;
    session.save();
    shown();
    els.ts!.focus(); // the button is gone: keyboard focus stays where the outcome is
    if (!answer.ok) els.ts!.textContent = T.transcriptNoEmail;
  } else els.ts!.textContent = notSentReason(answer);
}

/** The closed notice is shown (again): the rating, or thanks for it; the transcript offer, or that it was sent. */
function shown(): void {
  const state = session.state;
  els.rt!.hidden = Boolean(state[StateKey.Rated]);
  els.rd!.hidden = !state[StateKey.Rated];
  els.tb!.hidden = state[StateKey.Transcript] !== 1;
  els.ts!.textContent = state[StateKey.Transcript] === 2 ? T.transcriptSent : "";
}

addStrings("rating", RATING_EN);
const RATING: RatingChunk = { initRating, shown };

(window as ParleyWindow).Parley?._chunk?.("rating", RATING);
