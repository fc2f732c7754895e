import { h } from "../../shared/dom";
import { session } from "../../shared/session";
import { StateKey } from "../../shared/state";
import { T } from "../../shared/strings";
import type { Elements } from "../../shared/types";
import { articleQuery, findArticles, type ArticleItem } from "./help-api";

// Articles suggested as the visitor types a first message (decisions.md round 4, "Help center"):
// after a pause in typing, up to three published articles matching what is typed show over the
// composer; one opens inside the panel. Only before a conversation starts (or after the last one
// closed: the next message starts one); sending, or a conversation starting, puts them away.
// Only the answer to the latest text is shown: an earlier, slower answer is dropped.

export const SUGGESTED = 3;
/** A pause in typing this long asks for suggestions (one request per pause, not per key). */
export const TYPING_PAUSE_MS = 250;
/** Fewer characters than this ask for nothing ("hi" matches too much to help). */
export const MIN_QUERY_LENGTH = 3;

let box: HTMLElement | null = null;
let list: HTMLElement | null = null;
let timer: ReturnType<typeof setTimeout> | undefined;
/** Counts the questions asked: an answer is shown only if no later question was asked meanwhile. */
let asked = 0;
let wired = false;

const beforeConversation = () => !session.state[StateKey.ConversationId] || Boolean(session.state[StateKey.Ended]);

export function hideSuggestions(): void {
  asked++;
  clearTimeout(timer);
  if (box) box.hidden = true;
}

/** The composer's text changed: suggestions for it after a pause, before a conversation only. */
export function typed(elements: Elements, text: string, open: (id: string) => void): void {
  clearTimeout(timer);
  const q = articleQuery(text);
  if (q.length < MIN_QUERY_LENGTH || !beforeConversation()) return hideSuggestions();
  timer = setTimeout(() => void suggest(elements, q, open), TYPING_PAUSE_MS);
}

/** Shows the articles for q (an empty q: the most viewed); none, or a failed call, shows nothing. */
export async function suggest(elements: Elements, q: string, open: (id: string) => void, limit = SUGGESTED): Promise<void> {
  const mine = ++asked;
  const items = await findArticles(q, limit);
  if (mine !== asked) return;
  if (!items?.length) return hideSuggestions();
  show(elements, items, open);
}

function show(elements: Elements, items: ArticleItem[], open: (id: string) => void): void {
  if (!box || !list) {
    box = h("section", "sg");
    const heading = box.appendChild(h("h2", "", T.suggestedArticles));
    heading.id = "sgh";
    heading.dataset.t = "suggestedArticles";
    box.setAttribute("aria-labelledby", "sgh");
    list = box.appendChild(h("ul"));
    elements.c!.before(box);
  }
  list.replaceChildren(
    ...items.map((item) => {
      const li = h("li");
      const button = li.appendChild(h("button"));
      button.type = "button";
      button.dataset.article = item.id;
      button.appendChild(h("b", "", item.title)).dir = "auto";
      markMatches(button.appendChild(h("span")), item.snippet);
      button.addEventListener("click", () => open(item.id));
      return li;
    }),
  );
  box.hidden = false;
}

/** The snippet's << >> as <mark>, every piece set as text. */
export function markMatches(el: HTMLElement, snippet: string): void {
  el.dir = "auto";
  snippet.split(/<<|>>/).forEach((piece, i) => piece && el.append(i % 2 ? h("mark", "", piece) : piece));
}

/** Suggestions follow the composer from now on (once). */
export function wireSuggestions(elements: Elements, open: (id: string) => void): void {
  if (wired) return;
  wired = true;
  const input = elements.tx as HTMLTextAreaElement;
  const changed = () => typed(elements, input.value, open);
  input.addEventListener("input", changed);
  elements.c!.addEventListener("submit", hideSuggestions);
  session.on("started", hideSuggestions);
  if (input.value) changed(); // typed while this chunk was loading
}
