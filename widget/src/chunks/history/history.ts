// The list of this browser's conversations (returning visitors), a chunk of its own
// (public/widget/history-<hash>.js) loaded by the panel only when there is a list to show or a
// verified user to ask the server about. Shared modules it imports (the panel's instances); the
// panel's own parts (its views, its list of conversations) it is handed.
import type { HistoryApi, HistoryChunk, HistoryHost } from "../../shared/chunk-apis";
import type { ParleyWindow } from "../../shared/global";
import { request } from "../../shared/request";
import { session } from "../../shared/session";
import { RecentKey, type RecentConversation } from "../../shared/state";
import { T } from "../../shared/strings";
import { adoptStyle } from "../../shared/style";

interface ListedMessage {
  body: string;
  author_type: string;
  event: string | null;
  has_attachments: boolean;
}

interface Listed {
  conversation_id: string;
  status: string;
  updated_at: string;
  visitor_token: string;
  expires_in_seconds: number;
  last_message: ListedMessage | null;
  last_said: ListedMessage | null;
}

const CSS = `.hl{flex:1;min-height:0;overflow-y:auto;padding:14px 12px 16px;display:flex;flex-direction:column;gap:10px}
.hl h2{font-size:15px;margin:2px 4px}
.hl ul{list-style:none;margin:0;padding:0;display:grid;gap:6px}
.hl li button{width:100%;display:grid;grid-template-columns:1fr auto;gap:2px 10px;padding:10px 12px;border:1px solid var(--ln);border-radius:12px;background:var(--bg);color:inherit;font:inherit;text-align:start;cursor:pointer}
.hl li button:hover{background:var(--th)}
.hl .pv{min-width:0;overflow:hidden;text-overflow:ellipsis;white-space:nowrap;font-size:13.5px}
.hl time,.hl .cz{font-size:12px;color:var(--mu)}`;

const el = <K extends keyof HTMLElementTagNameMap>(tag: K, cls?: string, text?: string) => {
  const element = document.createElement(tag);
  if (cls) element.className = cls;
  if (text) element.textContent = text;
  return element;
};

function start(host: HistoryHost): HistoryApi {
  adoptStyle(session.boot.root, CSS);
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

  const preview = (kept: RecentConversation) => {
    // What was said first; a system line (closed, reopened) only when nothing else is known.
    const event = kept[RecentKey.Event];
    const said =
      kept[RecentKey.Preview] ||
      (kept[RecentKey.HasFiles] ? T.fileSent : event ? T[event === "conversation_closed" ? "closed" : "reopened"] : kept[RecentKey.AuthorType] ? "" : T.noMessages);
    return kept[RecentKey.AuthorType] === "visitor" ? T.you + ": " + said : said;
  };
  const when = (time: number) => {
    const day = new Date(time);
    const today = day.toDateString() === new Date().toDateString();
    return day.toLocaleString(T.lang === "en" ? [] : T.lang, today ? { hour: "2-digit", minute: "2-digit" } : { month: "short", day: "numeric" });
  };
  const item = (kept: RecentConversation) => {
    const button = el("button");
    button.type = "button";
    const shown = button.appendChild(el("span", "pv", preview(kept)));
    shown.dir = "auto"; // a person's words keep their own direction
    const time = button.appendChild(el("time", "", when(kept[RecentKey.UpdatedAt])));
    time.dateTime = new Date(kept[RecentKey.UpdatedAt]).toISOString();
    if (kept[RecentKey.Closed]) button.append(el("span", "cz", T.closedTag));
    button.addEventListener("click", () => host.open(kept));
    const li = el("li");
    li.append(button);
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
      host.views.forEach((view, i) => (view.hidden = on || i > 0));
      if (on) fresh.focus();
    },
    shown: () => !box.hidden,
    async fetch() {
      const identity = host.identity();
      if (!identity) return;
      const answer = await request("POST", session.boot.route + "/history", { body: identity });
      const listed = answer.ok ? (answer.result as { conversations?: Listed[] } | null)?.conversations || [] : [];
      for (const conversation of listed) {
        const last = conversation.last_message;
        const said = conversation.last_said; // the entry's text: what was said, not a closed line
        host.keep({
          [RecentKey.ConversationId]: conversation.conversation_id,
          [RecentKey.Token]: conversation.visitor_token,
          [RecentKey.ExpiresAt]: Date.now() + conversation.expires_in_seconds * 1e3,
          [RecentKey.UpdatedAt]: Date.parse(conversation.updated_at) || Date.now(),
          [RecentKey.Closed]: conversation.status === "closed" ? 1 : 0,
          ...(last?.event ? { [RecentKey.Event]: last.event } : {}),
          ...(said ? { [RecentKey.Preview]: said.body, [RecentKey.AuthorType]: said.author_type, [RecentKey.HasFiles]: said.has_attachments ? 1 : 0 } : {}),
        });
      }
      if (api.shown()) render();
    },
  };
  return api;
}

const HISTORY: HistoryChunk = { start };
(window as ParleyWindow).Parley?._chunk?.("history", HISTORY);
