// The answers chunk (public/widget/answers-<hash>.js), loaded only on a site whose bot answers, a
// site in `suggest` mode with its help center on, when a message with sources arrives, or when the
// page calls Parley.openArticle / Parley.searchArticles on a site with its help center on
// (docs/answers.md, "The widget"):
// - "Talk to a person" (bot mode): shown under the thread whenever a conversation is open,
//   whatever has been said; one POST /api/v1/chat/visitor/handoff, then a quiet "A person will
//   answer here" for the rest of the cycle (the server's handoff_requested line says it in the thread);
// - a bot answer's sources: links under its text, set as text, http(s) only, in a new tab;
// - with the help center on: articles suggested as the visitor types a first message
//   (suggestions.ts), and an article read inside the panel (article-view.ts).
import type { AnswersChunk } from "../../shared/chunk-apis";
import { h } from "../../shared/dom";
import type { Source } from "../../shared/message";
import { session } from "../../shared/session";
import { StateKey } from "../../shared/state";
import { addStrings, T } from "../../shared/strings";
import { adoptStyle } from "../../shared/style";
import type { ParleyWindow } from "../../shared/global";
import type { Elements, SiteConfig } from "../../shared/types";
import { ANSWERS_EN } from "../../strings/answers";
import { ANSWERS_CSS } from "./answers-style";
import { closeArticle, openArticle } from "./article-view";
import { articleQuery } from "./help-api";
import { hideSuggestions, suggest, wireSuggestions } from "./suggestions";

/** Parley.searchArticles(q) lists more than the three shown while typing. */
const SEARCHED = 5;

let els: Elements | null = null;

/** Shows the handoff line for the conversation's state; `asked`: a handoff was asked in this cycle. */
function handoff(elements: Elements, asked: boolean, done: () => void): void {
  if (!els) {
    const ho = h("div", "ho");
    const button = ho.appendChild(h("button", "lk", T.talkToPerson));
    const quiet = ho.appendChild(h("p", "", T.personWillAnswer));
    button.type = "button";
    button.dataset.t = "talkToPerson"; // data-t: a language that arrives later translates it (view.ts)
    quiet.dataset.t = "personWillAnswer";
    quiet.setAttribute("role", "status");
    elements.c!.before(ho);
    els = { ho, hp: button, hq: quiet };
    button.addEventListener("click", () => {
      button.disabled = true;
      void session.call("POST", "/api/v1/chat/visitor/handoff").then((answer) => {
        button.disabled = false;
        if (answer.ok) done(); // a closed conversation (409) shows its close card through the poll
      });
    });
  }
  els.ho!.hidden = !(session.state[StateKey.ConversationId] && !session.state[StateKey.Ended]);
  els.hp!.hidden = asked;
  els.hq!.hidden = !asked;
}

/** What the site's config turns on: "Talk to a person" in bot mode; suggestions with the help center on and answers not off. */
function show(elements: Elements, config: SiteConfig, asked: boolean, done: () => void): void {
  if (config.answers === "bot") handoff(elements, asked, done);
  if (config.help_center?.enabled && config.answers !== "off") wireSuggestions(elements, (id) => void openArticle(elements, id));
}

/** Parley.openArticle(id) (search false) and Parley.searchArticles(q) (search true); the panel is open. */
function article(elements: Elements, search: boolean, value: unknown): void {
  if (typeof value !== "string") return;
  if (!search) return void openArticle(elements, value.slice(0, 100));
  closeArticle(elements, false);
  hideSuggestions();
  void suggest(elements, articleQuery(value), (id) => void openArticle(elements, id), SEARCHED);
}

/** A bot answer's sources under its text. */
function cite(el: HTMLElement, sources: Source[]): void {
  const list = h("div", "src", T.sources + ": ");
  for (const source of sources) {
    if (!/^https?:\/\//i.test(source.url)) continue;
    const link = list.appendChild(h("a", "", source.title));
    link.dir = "auto";
    link.href = source.url;
    link.target = "_blank";
    link.rel = "noopener";
  }
  el.querySelector(".tx")!.after(list);
}

addStrings("answers", ANSWERS_EN);
adoptStyle(session.boot.root, ANSWERS_CSS);
const ANSWERS: AnswersChunk = { show, cite, article };

(window as ParleyWindow).Parley?._chunk?.("answers", ANSWERS);
