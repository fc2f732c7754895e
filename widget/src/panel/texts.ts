import type { HoursChunk } from "../shared/chunk-apis";
import { me } from "../shared/identity";
import { session } from "../shared/session";
import { StateKey } from "../shared/state";
import { fmt, T } from "../shared/strings";
import { loadChunk } from "./chunks";
import { avatar } from "./messages";
import { panel } from "./panel-state";
import { showUnread } from "./unread";

// The panel's texts that depend on the language, the site config and the conversation: title,
// the line under it (how soon we reply, who is there, when we are back), the notices, the greeting
// and the team's faces; and on a site whose bot answers, "Talk to a person", and on a site that
// suggests articles, the suggestions as the visitor types (the answers chunk).

/** "We're back …": the hours chunk's, loaded while the site is outside its hours. */
let backAt: HoursChunk["backAt"] | null = null;
/** A person was asked for in this cycle (the server's handoff_requested line, or the button). */
let handedOff = false;

export function useHours(hours: HoursChunk | null): void {
  backAt = hours?.backAt || null;
  refreshTexts();
}

/** A new cycle (a new conversation, a close or a reopen: the bot may answer again), or a handoff. */
export function setHandedOff(asked: boolean): void {
  handedOff = asked;
  showAnswers();
}

/** "Talk to a person" on a site whose bot answers, and article suggestions on a site that suggests them (the answers chunk). */
function showAnswers(): void {
  const els = panel.elements;
  const config = panel.config;
  if (els && config && config.answers !== "off" && (config.answers === "bot" || config.help_center?.enabled))
    void loadChunk("answers").then((answers) => answers?.show(els, config, handedOff, () => setHandedOff(true)));
}

export function refreshTexts(): void {
  const boot = session.boot;
  const config = panel.config;
  const els = panel.elements;
  const title = boot.title || config?.title || T.title;
  const offline = Boolean(session.state[StateKey.ConversationId] ? session.state[StateKey.StartedOffline] : config?.offline);
  showUnread();
  if (!els) return;
  els.ti!.textContent = title;
  els.p!.setAttribute("aria-label", title);
  // Outside service hours: when the team is back, and the owner's away message before a start
  const closed = config?.open === false;
  // Inside hours with nobody online: say so, and ask for an email before the start so the answer reaches the visitor
  const nobody = config?.team_available === false && !closed && !offline;
  els.su!.textContent = (closed && backAt?.(config.next_open_at)) || (offline ? T.away : nobody ? T.nobodyHere : T.replyFast);
  if (nobody && !session.state[StateKey.ConversationId] && !me.email) els.ea!.hidden = false;
  if (els.tp) els.tp.textContent = offline ? T.away : T.ticketIntro; // the form is the uploads chunk's
  els.gr!.textContent = config?.greeting || T.greeting;
  const away = closed && !session.state[StateKey.ConversationId] ? config.away_message : null;
  const notice = [away, offline ? (me.email ? fmt("offlineNoteTo", { email: me.email }) : T.offlineNote) : ""].filter(Boolean).join(" ");
  els.n!.textContent = notice;
  els.n!.hidden = !notice;
  showAnswers();
  const faces = (config?.team || []).slice(0, 3).map((member) => avatar(member.name, member.avatar?.startsWith("data:image/") ? member.avatar : null));
  els.fc!.replaceChildren(...faces);
}
