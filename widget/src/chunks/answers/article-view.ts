import { h } from "../../shared/dom";
import { T, type Key } from "../../shared/strings";
import type { Elements } from "../../shared/types";
import { fillArticle } from "./article-html";
import { readArticle, voteOnArticle } from "./help-api";

// An article read inside the panel, in place of the chat: "Back" and "Still need help? Chat with
// us" return to the chat with what the visitor typed still in the composer; the second sends it
// (the article did not answer: the question goes to the team). "Was this helpful?" is one vote.

let view: Elements | null = null;
let shown = "";

const labelled = <K extends keyof HTMLElementTagNameMap>(tag: K, cls: string, key: Key) => {
  const el = h(tag, cls, T[key]);
  el.dataset.t = key; // a language that arrives later translates it (shared/dom.ts localize)
  if (el instanceof HTMLButtonElement) el.type = "button";
  return el;
};

function build(elements: Elements): Elements {
  const aw = h("div", "aw");
  aw.hidden = true;
  aw.setAttribute("role", "region");
  const back = aw.appendChild(labelled("button", "lk", "articleBack"));
  const article = aw.appendChild(h("article"));
  const title = article.appendChild(h("h2"));
  const body = article.appendChild(h("div", "ak"));
  title.dir = body.dir = "auto";
  title.id = "awt";
  aw.setAttribute("aria-labelledby", "awt");
  const feedback = aw.appendChild(h("div", "fbk"));
  feedback.append(labelled("p", "", "articleHelpful"));
  const yes = feedback.appendChild(labelled("button", "", "articleYes"));
  const no = feedback.appendChild(labelled("button", "", "articleNo"));
  const thanks = aw.appendChild(labelled("p", "fbk", "articleThanks"));
  thanks.setAttribute("role", "status");
  const more = aw.appendChild(h("div", "nh"));
  more.append(labelled("p", "", "stillNeedHelp"));
  const chat = more.appendChild(labelled("button", "bt", "chatWithUs"));
  elements.v!.after(aw);
  back.addEventListener("click", () => closeArticle(elements, false));
  chat.addEventListener("click", () => closeArticle(elements, true));
  const vote = (helpful: boolean) => {
    yes.disabled = no.disabled = true;
    void voteOnArticle(shown, helpful).then((ok) => {
      yes.disabled = no.disabled = false;
      feedback.hidden = ok;
      thanks.hidden = !ok;
    });
  };
  yes.addEventListener("click", () => vote(true));
  no.addEventListener("click", () => vote(false));
  return { aw, back, title, body, feedback, thanks };
}

/** Reads the article and shows it in place of the chat; false when it is not there (unpublished, help center off). */
export async function openArticle(elements: Elements, id: string): Promise<boolean> {
  const article = await readArticle(id);
  if (!article) return false;
  view ||= build(elements);
  shown = article.id;
  view.title!.textContent = article.title;
  fillArticle(view.body!, article.body_html);
  view.body!.lang = article.locale;
  view.feedback!.hidden = false;
  view.thanks!.hidden = true;
  for (const other of ["v", "t", "dn"]) if (elements[other]) elements[other].hidden = true;
  view.aw!.hidden = false;
  view.aw!.scrollTop = 0;
  view.back!.focus();
  return true;
}

/** Back to the chat; `send`: what the visitor typed goes out as their message. */
export function closeArticle(elements: Elements, send: boolean): void {
  if (!view || view.aw!.hidden) return;
  view.aw!.hidden = true;
  elements.v!.hidden = false;
  const input = elements.tx as HTMLTextAreaElement;
  if (send && input.value.trim()) (elements.c as HTMLFormElement).requestSubmit();
  input.focus();
}
