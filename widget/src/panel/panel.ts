// The panel chunk (public/widget/panel-<hash>.js): everything behind the launcher. It registers
// itself with the loader, which hands over the host, the launcher and the page-facing services;
// here the parts are built and wired to the session's events.
import { localize } from "../shared/dom";
import type { Message } from "../shared/message";
import { request } from "../shared/request";
import { session } from "../shared/session";
import { StateKey } from "../shared/state";
import { setLanguage, T } from "../shared/strings";
import { adoptStyle } from "../shared/style";
import type { ParleyWindow } from "../shared/global";
import type { Boot, Elements, PanelApi, SiteConfig } from "../shared/types";
import { loadChunk } from "./chunks";
import { initClosedCard, markClosed, showClosed } from "./closed-card";
import { initComposer } from "./composer";
import { loadStrings } from "./i18n";
import { initMessages, nextGeneration, note, rows } from "./messages";
import { PANEL_CSS } from "./panel-style";
import { panel } from "./panel-state";
import { drop, kick, poll, repoll, tokenMoved } from "./poll";
import { initPresence, opened, showTyping, stopReading, typingOff } from "./presence";
import { keepCurrent } from "./recent";
import { initReturning, offerList } from "./returning";
import { initSend } from "./send";
import { refreshTexts, setHandedOff, useHours } from "./texts";
import { countIncoming, forgetIncoming, showUnread } from "./unread";
import { buildView } from "./view";

const doc = document;
/** The site config is read again on open once the last read is this old (its max-age). */
const CONFIG_MAX_AGE = 6e4;

/** Builds the panel once: its markup, styles and parts. */
function ensureView(): Elements {
  if (panel.elements) return panel.elements;
  const boot = session.boot;
  adoptStyle(boot.root, PANEL_CSS);
  const els = (panel.elements = buildView(boot.frame));
  initMessages(els);
  initPresence(els, panel.active);
  initClosedCard(els);
  initSend(els);
  initComposer(els);
  let openForm: (() => void) | null = null;
  els.go!.addEventListener("click", () =>
    void loadChunk("uploads").then((uploads) => {
      if (!uploads) return;
      if (!openForm) {
        openForm = uploads.initTickets(els, showForm);
        refreshTexts();
      }
      openForm();
    }),
  );
  els.x!.addEventListener("click", () => toggle(false, true));
  initReturning(els, {
    isOpen: () => panel.isOpen,
    switched: () => {
      clearThread();
      newConversation();
      showClosed(Boolean(session.state[StateKey.Ended]));
      kick();
    },
  });
  refreshTexts();
  if (session.state[StateKey.Ended]) showClosed(true);
  return els;
}

/** Another conversation is shown (or none yet): polling, unread count and cycle start over. */
function newConversation(): void {
  drop();
  poll.generation = nextGeneration();
  poll.cursor = 0;
  forgetIncoming();
  setHandedOff(false);
  if (panel.elements) panel.elements.ea!.hidden = true;
  showClosed(false);
  refreshTexts();
}

/** A fresh start, or another conversation: the thread is emptied and the greeting shows again. */
function clearThread(): void {
  const els = panel.elements!;
  for (const row of Array.from(els.ls!.querySelectorAll(".m"))) row.remove();
  rows.clear();
  els.e0!.hidden = false;
}

function toggle(open: boolean, focusLauncher?: boolean): void {
  const boot = session.boot;
  if (boot.off()) return;
  const els = ensureView();
  panel.isOpen = open;
  els.p!.hidden = !open;
  boot.frame.classList.toggle("o", open);
  boot.launcher.setAttribute("aria-expanded", String(open));
  if (open) {
    (els.v!.hidden ? els[els.t!.hidden ? "db" : "tn"] : els.tx)?.focus(); // db and tn: none until the form's chunk has come
    els.ls!.scrollTop = els.ls!.scrollHeight;
    opened();
    repoll(); // a poll held while the panel was closed does not bring typing
    void offerList();
  } else {
    stopReading();
    typingOff();
    showTyping([]);
    const focused = boot.root.activeElement;
    if (focusLauncher || (focused && focused !== boot.launcher)) boot.launcher.focus();
  }
  showUnread();
}

/** The "leave a message" form (true) or the chat (false). */
function showForm(form: boolean): void {
  const els = ensureView();
  els.v!.hidden = form;
  els.t!.hidden = !form;
  els.dn!.hidden = true;
  (form ? els.tn! : els.tx!).focus();
}

function followSession(): void {
  session.on("saved", () => {
    tokenMoved();
    keepCurrent();
  });
  session.on("switched", () => {
    newConversation();
    kick();
  });
  session.on("changed", () => {
    showClosed(Boolean(session.state[StateKey.Ended]));
    refreshTexts();
  });
  session.on("forgotten", (why) => {
    if (!panel.elements) return;
    showTyping([]);
    if (why) return note(why);
    clearThread();
    newConversation();
  });
  session.on("started", newConversation);
  session.on("arrived", (message: Message) => {
    showTyping([]);
    if (message.event === "conversation_closed") markClosed();
    else if (message.event === "conversation_reopened" && session.state[StateKey.Ended]) {
      session.state[StateKey.Ended] = 0; // the next message goes to this conversation again
      session.save();
      showClosed(false);
    }
    // closed or reopened: a new cycle, where the bot may answer again
    if (message.event === "handoff_requested" || message.event === "conversation_closed" || message.event === "conversation_reopened")
      setHandedOff(message.event === "handoff_requested");
    countIncoming(message.sequence);
  });
  session.on("pageShown", showUnread);
}

function followPage(boot: Boot): void {
  addEventListener("storage", (event) => {
    if (event.key === session.key || event.key === null) session.adopt(session.read());
  });
  doc.addEventListener("visibilitychange", () => {
    if (!doc.hidden) {
      if (panel.isOpen) opened();
      kick();
    }
    showUnread();
  });
  // Unload or back/forward cache: free the held connection
  addEventListener("pagehide", () => {
    poll.away = true;
    drop();
  });
  addEventListener("pageshow", () => {
    poll.away = false;
    kick();
  });
  boot.frame.addEventListener("keydown", (event) => {
    if (event.key === "Escape" && panel.isOpen) {
      event.stopPropagation();
      toggle(false, true);
    }
  });
}

/** Availability changes while the page stays open: opening the panel reads the config again once the last read is a minute old (its max-age, so the browser's cache does not answer). */
function rereadConfigOnOpen(boot: Boot): void {
  let readAt = Date.now();
  boot.launcher.addEventListener("click", () => {
    if (Date.now() - readAt < CONFIG_MAX_AGE) return;
    readAt = Date.now();
    void request("GET", boot.route + "/config", { cacheable: true }).then((answer) => {
      if (answer.ok && answer.result) {
        panel.config = answer.result as SiteConfig;
        refreshTexts();
      }
    });
  });
}

function start(boot: Boot): PanelApi {
  session.start(boot);
  followSession();
  followPage(boot);
  rereadConfigOnOpen(boot);
  if (boot.sound) void loadChunk("sound"); // ready before the first chime
  void boot.config().then((config) => {
    panel.config = config;
    refreshTexts();
    if (config?.open === false) void loadChunk("hours").then(useHours);
  });
  void loadStrings(boot).then((table) => {
    setLanguage(table);
    boot.frame.dir = T.dir;
    boot.frame.lang = T.lang;
    const els = panel.elements;
    if (els) {
      localize(boot.frame);
      for (const name of Array.from(els.ls!.querySelectorAll<HTMLElement>(".nm.dn"))) name.textContent = T[name.closest(".me") ? "you" : "support"];
    }
    refreshTexts();
  });

  if (session.state[StateKey.ConversationId]) {
    ensureView(); // resuming: rows come in (and count as unread) with the panel closed
    newConversation();
    kick();
  }
  showUnread();
  return {
    toggle,
    isOpen: () => panel.isOpen,
    identified: () => {
      refreshTexts();
      if (panel.isOpen) void offerList();
    },
    // The panel opens on the chat; the chunk shows the article or the list over it, where the site's help center has them.
    article: (search, value) => {
      toggle(true);
      if (panel.isOpen) void loadChunk("answers").then((answers) => answers?.article(panel.elements!, search, value)); // not where the site refused this page
    },
  };
}

(window as ParleyWindow).Parley?._panel?.(start);
