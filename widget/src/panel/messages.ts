import { h } from "../shared/dom";
import type { Message } from "../shared/message";
import { session } from "../shared/session";
import { StateKey } from "../shared/state";
import { T, type Key } from "../shared/strings";
import type { Elements } from "../shared/types";
import { loadChunk } from "./chunks";
import { renderText } from "./markdown";
import { keepMessage } from "./recent";
import { atEnd, pinToEnd } from "./thread-pin";

// The message list: rows in sequence order, consecutive messages of one author grouped (name and
// picture once, times once), pictures fetched once per path and cached by tag.

let els: Elements;
/** Rows by client_id (a visitor's row exists before the server has the message). */
export const rows = new Map<string, HTMLElement>();
/** Staff names by member id, from their messages (presence may name them too). */
export const names = new Map<string, string>();
const pictures = new Map<string, Promise<string | null>>();
/** Picture URLs by the server's tag: one data URL per picture, however many paths lead to it. */
const byTag = new Map<string, string>();
/** One per conversation, so rows of an earlier conversation stay above a new one's. */
let generation = 0;
/** A new conversation is shown: answers its generation. */
export const nextGeneration = () => ++generation;

/** The thread stays at its newest message through the close card, its rating and the composer. */
export function initMessages(elements: Elements): void {
  els = elements;
  pinToEnd(elements.ls!);
}

const initials = (who: string) =>
  who
    .split(/\s+/)
    .map((word) => Array.from(word)[0] || "")
    .join("")
    .slice(0, 2)
    .toUpperCase();

export function avatar(who: string, picture?: string | null): HTMLElement {
  const face = h("span", "av", initials(who));
  face.setAttribute("aria-hidden", "true");
  if (picture) showPicture(face, Promise.resolve(picture));
  return face;
}

function showPicture(face: HTMLElement, loading: Promise<string | null>) {
  void loading.then((url) => {
    if (!url) return;
    const img = h("img");
    img.alt = "";
    img.src = url;
    face.replaceChildren(img);
  });
}

export function row(type: string, body: string, name?: string | null, author = ""): HTMLElement {
  const mine = type === "visitor",
    system = type === "system";
  const el = h("div", "m " + (mine ? "me" : system ? "sy" : "th"));
  el.dataset.a = type + ":" + author; // rows of one author group (regroup)
  const content = h("div", "bd");
  if (!system) {
    const who = name || T[mine ? "you" : "support"];
    el.append(avatar(who));
    const shownName = content.appendChild(h("div", name ? "nm" : "nm dn", who)); // dn: a default name, translated later
    if (name) shownName.dir = "auto";
  }
  const text = h("div", "tx");
  text.dir = "auto";
  content.append(renderText(body, text), h("div", "mt"));
  el.append(content);
  return el;
}

/** Insert by (generation, sequence); rows still unsent stay at the end. */
export function place(el: HTMLElement): void {
  const list = els.ls!;
  const order = +(el.dataset.k || 0);
  const wasAtEnd = atEnd(list);
  let before: Element | null = null;
  if (order)
    for (const other of Array.from(list.children) as HTMLElement[]) {
      if (other.classList.contains("m") && (!other.dataset.k || +other.dataset.k > order)) {
        before = other;
        break;
      }
    }
  list.insertBefore(el, before);
  els.e0!.hidden = true;
  regroup();
  if (wasAtEnd || el.classList.contains("me")) list.scrollTop = list.scrollHeight;
}

/** `g`: continues the previous row's group; `nx`: the next row continues this one. */
function regroup() {
  let previous: HTMLElement | null = null;
  for (const item of Array.from(els.ls!.children) as HTMLElement[]) {
    if (!item.classList.contains("m")) continue;
    const same = Boolean(previous && !item.classList.contains("sy") && previous.dataset.a === item.dataset.a);
    item.classList.toggle("g", same);
    previous?.classList.toggle("nx", same);
    previous = item;
  }
  previous?.classList.remove("nx");
}

/** A line from the widget itself (not stored), after everything of this conversation. */
export function note(key: Key): void {
  const el = row("system", T[key]);
  el.dataset.k = String(generation * 1e9 + 999999999);
  place(el);
}

export function status(el: HTMLElement, text: string, cls?: "pd" | "f"): HTMLElement {
  el.classList.remove("pd", "f");
  if (cls) el.classList.add(cls);
  const line = el.querySelector(".mt") as HTMLElement;
  line.textContent = text;
  return line;
}

function picture(path: string): Promise<string | null> | null {
  if (!/^\/api\/v1\/chat\/visitor\/avatars\/[^/?#]+$/.test(path)) return null;
  let loading = pictures.get(path);
  if (!loading) {
    loading = session.call("GET", path).then((answer) => {
      const file = answer.ok ? (answer.result as { content_type?: string; bytes?: string; tag?: string } | null) : null;
      if (!file || !/^image\/(png|jpeg|gif|webp)$/.test(file.content_type || "") || typeof file.bytes !== "string") return null;
      const url = byTag.get(file.tag || "") || "data:" + file.content_type + ";base64," + file.bytes;
      byTag.set(file.tag || "", url);
      return url;
    });
    pictures.set(path, loading);
  }
  return loading;
}

/**
 * A close or reopen shows in the widget's own language, whatever the server wrote; a close only
 * as a short tag, since the closed card below says the whole sentence.
 */
const threadText = (m: Message) =>
  m.event === "conversation_closed" ? T.closedTag : m.event === "conversation_reopened" ? T.reopened : m.body;

/** Shows a message from the server; returns whether it is new and from someone else. */
export function add(m: Message | undefined | null): boolean {
  if (!m || m.conversation_id !== session.state[StateKey.ConversationId]) return false;
  if (m.author_type === "staff" && m.author_name) names.set(m.author_id, m.author_name);
  let el = rows.get(m.client_id);
  const fresh = !el;
  if (!el) {
    el = row(m.author_type, threadText(m), m.author_name, m.author_type === "visitor" ? "" : m.author_id);
    rows.set(m.client_id, el);
  }
  const sentAt = new Date(m.created_at);
  status(el, isNaN(+sentAt) ? "" : sentAt.toLocaleTimeString(T.lang === "en" ? [] : T.lang, { hour: "2-digit", minute: "2-digit" }));
  const files = m.attachments;
  if (files?.length && !el.dataset.f) {
    el.dataset.f = "1";
    void loadChunk("uploads").then((uploads) => uploads?.showFiles(el, files));
  }
  const sources = m.sources;
  if (fresh && sources?.length) void loadChunk("answers").then((answers) => answers?.cite(el, sources));
  if (!el.dataset.k) {
    el.dataset.k = String(generation * 1e9 + m.sequence);
    place(el);
  }
  const face = el.querySelector<HTMLElement>(".av");
  const loading = fresh && m.author_avatar ? picture(m.author_avatar) : null;
  if (loading && face) showPicture(face, loading);
  keepMessage(m);
  return fresh && m.author_type !== "visitor";
}

