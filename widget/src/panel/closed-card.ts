import type { RatingChunk } from "../shared/chunk-apis";
import { session } from "../shared/session";
import { StateKey } from "../shared/state";
import type { Elements } from "../shared/types";
import { loadChunk } from "./chunks";

// The card under the thread once staff closed the conversation: "This conversation was closed",
// the rating (its chunk, loaded on the first close) and the transcript offer.

let els: Elements;
let rating: RatingChunk | null = null; // the rating chunk, once loaded

export const initClosedCard = (elements: Elements) => void (els = elements);

/** The conversation was closed by staff (a 409, or the closing system message), or no longer is. */
export function showClosed(closed: boolean): void {
  els.cl!.hidden = !closed;
  if (rating) rating.shown();
  else if (closed)
    void loadChunk("rating").then((loaded) => {
      if (rating || !loaded) return;
      rating = loaded;
      loaded.initRating(els);
      loaded.shown();
    });
}

export function markClosed(): void {
  if (!session.state[StateKey.Ended]) {
    session.state[StateKey.Ended] = 1; // stored: after a reload too, the next message starts anew
    session.save();
  }
  showClosed(true);
}
