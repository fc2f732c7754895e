// The list of this browser's conversations (returning visitors), a chunk of its own
// (public/widget/history-<hash>.js) loaded by the panel only when there is a list to show or a
// verified user to ask the server about. It imports nothing at run time: the panel hands it
// what it needs, so no code of the panel is loaded twice.
import type { Recent } from "./recent";
import type { Table } from "./strings";
import type { Boot, ParleyWindow, Request } from "./types";

export interface HistoryHost {
  boot: Boot;
  T: Table;
  /** the panel's views: the list hides them while shown; the first (the chat) comes back */
  views: HTMLElement[];
  list: () => Recent[];
  keep: (r: Partial<Recent> & { c: string }) => void;
  open: (r: Recent) => void;
  fresh: () => void;
  request: Request;
  /** the page's verified user, if any (Parley.identify) */
  identity: () => { user_id: string; user_hash: string } | null;
  /** the header button that toggles the list */
  toggle: HTMLElement;
}

export interface HistoryApi {
  show(on: boolean): void;
  shown(): boolean;
  /** Merges a verified user's conversations from the server (POST /widget/{siteID}/history). */
  fetch(): Promise<void>;
}

export type HistoryStart = (host: HistoryHost) => HistoryApi;

interface Listed {
  conversation_id: string;
  status: string;
  updated_at: string;
  visitor_token: string;
  expires_in_seconds: number;
  last_message: { body: string; author_type: string; event: string | null; has_attachments: boolean } | null;
}

const CSS = `.hl{flex:1;min-height:0;overflow-y:auto;padding:14px 12px 16px;display:flex;flex-direction:column;gap:10px}
.hl h2{font-size:15px;margin:2px 4px}
.hl ul{list-style:none;margin:0;padding:0;display:grid;gap:6px}
.hl li button{width:100%;display:grid;grid-template-columns:1fr auto;gap:2px 10px;padding:10px 12px;border:1px solid var(--ln);border-radius:12px;background:var(--bg);color:inherit;font:inherit;text-align:start;cursor:pointer}
.hl li button:hover{background:var(--th)}
.hl .pv{min-width:0;overflow:hidden;text-overflow:ellipsis;white-space:nowrap;font-size:13.5px}
.hl time,.hl .cz{font-size:12px;color:var(--mu)}`;

const el = <K extends keyof HTMLElementTagNameMap>(tag: K, cls?: string, text?: string) => {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text) e.textContent = text;
  return e;
};

const start: HistoryStart = (host) => {
  const { boot, T } = host;
  try {
    const sheet = new CSSStyleSheet();
    sheet.replaceSync(CSS);
    boot.root.adoptedStyleSheets = [...boot.root.adoptedStyleSheets, sheet];
  } catch {
    boot.root.prepend(el("style", "", CSS));
  }
  const box = el("section", "hl");
  box.id = "hl";
  box.hidden = true;
  box.setAttribute("aria-labelledby", "hlh");
  const heading = el("h2");
  heading.id = "hlh";
  const fresh = el("button", "bt");
  fresh.type = "button";
  fresh.addEventListener("click", host.fresh);
  const ul = el("ul");
  box.append(heading, fresh, ul);
  host.views[0]!.before(box);
  host.toggle.setAttribute("aria-controls", "hl"); // only now that the list exists

  const preview = (r: Recent) => {
    const said = r.v ? T[r.v === "conversation_closed" ? "closed" : "reopened"] : r.b || (r.f ? T.fileSent : r.a ? "" : T.noMessages);
    return r.a === "visitor" ? T.you + ": " + said : said;
  };
  const when = (u: number) => {
    const d = new Date(u);
    const today = d.toDateString() === new Date().toDateString();
    return d.toLocaleString(T.lang === "en" ? [] : T.lang, today ? { hour: "2-digit", minute: "2-digit" } : { month: "short", day: "numeric" });
  };
  const item = (r: Recent) => {
    const b = el("button");
    b.type = "button";
    const pv = b.appendChild(el("span", "pv", preview(r)));
    pv.dir = "auto"; // a person's words keep their own direction
    const t = b.appendChild(el("time", "", when(r.u)));
    t.dateTime = new Date(r.u).toISOString();
    if (r.e) b.append(el("span", "cz", T.closedTag));
    b.addEventListener("click", () => host.open(r));
    const li = el("li");
    li.append(b);
    return li;
  };
  const render = () => {
    heading.textContent = T.conversations;
    fresh.textContent = T.newConversation;
    ul.replaceChildren(...host.list().map(item));
  };

  const api: HistoryApi = {
    show(on) {
      if (on) render();
      box.hidden = !on;
      host.toggle.setAttribute("aria-expanded", String(on));
      host.views.forEach((v, i) => (v.hidden = on || i > 0));
      if (on) fresh.focus();
    },
    shown: () => !box.hidden,
    async fetch() {
      const identity = host.identity();
      if (!identity) return;
      const r = await host.request("POST", boot.api + "/api/v1/chat/widget/" + encodeURIComponent(boot.site) + "/history", { body: identity });
      const listed = r.ok ? (r.result as { conversations?: Listed[] } | null)?.conversations || [] : [];
      for (const c of listed) {
        const m = c.last_message;
        host.keep({
          c: c.conversation_id,
          t: c.visitor_token,
          x: Date.now() + c.expires_in_seconds * 1e3,
          u: Date.parse(c.updated_at) || Date.now(),
          e: c.status === "closed" ? 1 : 0,
          b: m?.body || "",
          a: m?.author_type,
          v: m?.event || undefined,
          f: m?.has_attachments ? 1 : 0,
        });
      }
      if (api.shown()) render();
    },
  };
  return api;
};

(window as ParleyWindow).Parley?._history?.(start);
