import { renderText } from "./markdown";
import { boot, st, vcall } from "./session";
import { T, type Key } from "./strings";
import { h, type Elements } from "./view";
import type { Attachment } from "./files";
import { loadChunk } from "./chunks";
import { keepMessage } from "./recent";

// The message list: rows in sequence order, consecutive messages of one author grouped (name and
// picture once, times once), pictures fetched once per path and cached by tag.

export interface Message {
  sequence: number;
  conversation_id: string;
  client_id: string;
  author_id: string;
  author_type: string;
  /** system messages: what happened (act on this, never on the body) */
  event?: "conversation_closed" | "conversation_reopened";
  body: string;
  created_at: string;
  author_name: string | null;
  author_avatar: string | null;
  /** always sent by the server; [] when none */
  attachments?: Attachment[];
}

let els: Elements;
/** Rows by client_id (a visitor's row exists before the server has the message). */
export const rows = new Map<string, HTMLElement>();
/** Staff names by member id, from their messages (presence may name them too). */
export const names = new Map<string, string>();
const pics = new Map<string, Promise<string | null>>();
const tags = new Map<string, string>();
/** One per conversation, so rows of an earlier conversation stay above a new one's. */
export let generation = 0;
export const nextGeneration = () => ++generation;

export const initMessages = (e: Elements) => (els = e);

const initials = (who: string) =>
  who
    .split(/\s+/)
    .map((w) => Array.from(w)[0] || "")
    .join("")
    .slice(0, 2)
    .toUpperCase();

export function avatar(who: string, picture?: string | null): HTMLElement {
  const av = h("span", "av", initials(who));
  av.setAttribute("aria-hidden", "true");
  if (picture) showPicture(av, Promise.resolve(picture));
  return av;
}

function showPicture(av: HTMLElement, p: Promise<string | null>) {
  void p.then((u) => {
    if (!u) return;
    const img = h("img");
    img.alt = "";
    img.src = u;
    av.replaceChildren(img);
  });
}

export function row(type: string, body: string, name?: string | null, author = ""): HTMLElement {
  const mine = type === "visitor",
    system = type === "system";
  const el = h("div", "m " + (mine ? "me" : system ? "sy" : "th"));
  el.dataset.a = type + ":" + author;
  const bd = h("div", "bd");
  if (!system) {
    const who = name || T[mine ? "you" : "support"];
    el.append(avatar(who));
    const nm = bd.appendChild(h("div", name ? "nm" : "nm dn", who)); // dn: a default name, translated later
    if (name) nm.dir = "auto";
  }
  const tx = h("div", "tx");
  tx.dir = "auto";
  bd.append(renderText(body, tx), h("div", "mt"));
  el.append(bd);
  return el;
}

/** Insert by (generation, sequence); rows still unsent stay at the end. */
export function place(el: HTMLElement): void {
  const list = els.ls!;
  const k = +(el.dataset.k || 0);
  const atEnd = list.scrollHeight - list.scrollTop - list.clientHeight < 80;
  let ref: Element | null = null;
  if (k)
    for (const c of Array.from(list.children) as HTMLElement[]) {
      if (c.classList.contains("m") && (!c.dataset.k || +c.dataset.k > k)) {
        ref = c;
        break;
      }
    }
  list.insertBefore(el, ref);
  els.e0!.hidden = true;
  regroup();
  if (atEnd || el.classList.contains("me")) list.scrollTop = list.scrollHeight;
}

/** `g`: continues the previous row's group; `nx`: the next row continues this one. */
function regroup() {
  let prev: HTMLElement | null = null;
  for (const c of Array.from(els.ls!.children) as HTMLElement[]) {
    if (!c.classList.contains("m")) continue;
    const same = Boolean(prev && !c.classList.contains("sy") && prev.dataset.a === c.dataset.a);
    c.classList.toggle("g", same);
    prev?.classList.toggle("nx", same);
    prev = c;
  }
  prev?.classList.remove("nx");
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
  const mt = el.querySelector(".mt") as HTMLElement;
  mt.textContent = text;
  return mt;
}

function picture(path: string): Promise<string | null> | null {
  if (!/^\/api\/v1\/chat\/visitor\/avatars\/[^/?#]+$/.test(path)) return null;
  let p = pics.get(path);
  if (!p) {
    p = vcall("GET", path).then((r) => {
      const x = r.ok ? (r.result as { content_type?: string; bytes?: string; tag?: string } | null) : null;
      if (!x || !/^image\/(png|jpeg|gif|webp)$/.test(x.content_type || "") || typeof x.bytes !== "string") return null;
      const u = tags.get(x.tag || "") || "data:" + x.content_type + ";base64," + x.bytes;
      tags.set(x.tag || "", u);
      return u;
    });
    pics.set(path, p);
  }
  return p;
}

/** Shows a message from the server; returns whether it is new and from someone else. */
export function add(m: Message | undefined | null): boolean {
  if (!m || m.conversation_id !== st.c) return false;
  if (m.author_type === "staff" && m.author_name) names.set(m.author_id, m.author_name);
  let el = rows.get(m.client_id);
  const fresh = !el;
  if (!el) {
    el = row(m.author_type, m.body, m.author_name, m.author_type === "visitor" ? "" : m.author_id);
    rows.set(m.client_id, el);
  }
  const ts = new Date(m.created_at);
  status(el, isNaN(+ts) ? "" : ts.toLocaleTimeString(T.lang === "en" ? [] : T.lang, { hour: "2-digit", minute: "2-digit" }));
  const files = m.attachments;
  if (files?.length && !el.dataset.f) {
    el.dataset.f = "1";
    void loadChunk("uploads").then((u) => u?.showFiles(el, files));
  }
  if (!el.dataset.k) {
    el.dataset.k = String(generation * 1e9 + m.sequence);
    place(el);
  }
  const av = el.querySelector<HTMLElement>(".av");
  const p = fresh && m.author_avatar ? picture(m.author_avatar) : null;
  if (p && av) showPicture(av, p);
  keepMessage(m);
  return fresh && m.author_type !== "visitor";
}
