import { me } from "./identity";
// The panel chunk (public/widget/panel-<hash>.js): everything behind the launcher. It registers
// itself with the loader, which hands over the host, the launcher and the page-facing services.
import { initComposer, markClosed, composer, showClosed } from "./composer";
import { avatar, initMessages, nextGeneration, note, rows, type Message } from "./messages";
import { PANEL_CSS } from "./panel-style";
import { adoptStyle } from "./style";
import { drop, kick, poll, repoll, tokenMoved } from "./poll";
import { initPresence, opened, showTyping, stopReading, typingOff } from "./presence";
import { adopt, hooks, initSession, key, read, save, st } from "./session";
import { keepCurrent } from "./recent";
import { initReturning, offerList } from "./returning";
import { fmt, setLanguage, T, type Key } from "./strings";
import { loadChunk } from "./chunks";
import { loadStrings } from "./i18n";
import type { Hours } from "./hours";
import type { Boot, PanelApi, ParleyWindow, SiteConfig } from "./types";
import { buildView, localize, type Elements } from "./view";

const D = document;

function start(boot: Boot): PanelApi {
  initSession(boot);
  let els: Elements | null = null;
  let config: SiteConfig | null = null;
  let isOpen = false;
  /** Sequences of others' messages, for the unread count. */
  let incoming: number[] = [];
  let pageTitle: string | null = null;
  /** "We're back …": the hours chunk's, loaded while the site is outside its hours. */
  let backAt: Hours["backAt"] | null = null;
  const active = () => isOpen && !D.hidden;

  const ensureView = (): Elements => {
    if (els) return els;
    adoptStyle(boot.root, PANEL_CSS);
    const e = (els = buildView(boot.frame));
    initMessages(e);
    initPresence(e, active);
    initComposer(e);
    let openForm: (() => void) | null = null;
    e.go!.addEventListener("click", () => void loadChunk("uploads").then((u) => {
      if (!u) return;
      if (!openForm) {
        openForm = u.initTickets(e, show);
        refresh();
      }
      openForm();
    }));
    e.x!.addEventListener("click", () => toggle(false, true));
    initReturning(e, {
      isOpen: () => isOpen,
      switched: () => {
        clearThread();
        newConversation();
        showClosed(Boolean(st.e));
        kick();
      },
    });
    refresh();
    if (st.e) showClosed(true);
    return e;
  };

  /** Texts that depend on the language, the site config and the conversation. */
  const refresh = () => {
    const title = boot.title || config?.title || T.title;
    const offline = Boolean(st.c ? st.o : config?.offline);
    seen();
    if (!els) return;
    els.ti!.textContent = title;
    els.p!.setAttribute("aria-label", title);
    // Outside service hours: when the team is back, and the owner's away message before a start
    const closed = config?.open === false;
    els.su!.textContent = (closed && backAt?.(config!.next_open_at)) || (offline ? T.away : T.replyFast);
    if (els.tp) els.tp.textContent = offline ? T.away : T.ticketIntro; // the form is the uploads chunk's
    els.gr!.textContent = config?.greeting || T.greeting;
    const away = closed && !st.c ? config!.away_message : null;
    const text = [away, offline ? (me.email ? fmt("offlineNoteTo", { email: me.email }) : T.offlineNote) : ""].filter(Boolean).join(" ");
    els.n!.textContent = text;
    els.n!.hidden = !text;
    const faces = (config?.team || []).slice(0, 3).map((m) => avatar(m.name, m.avatar?.startsWith("data:image/") ? m.avatar : null));
    els.fc!.replaceChildren(...faces);
  };

  const newConversation = () => {
    drop();
    poll.generation = nextGeneration();
    poll.cursor = 0;
    incoming = [];
    if (els) els.ea!.hidden = true;
    showClosed(false);
    refresh();
  };

  /** A fresh start, or another conversation: the thread is emptied and the greeting shows again. */
  const clearThread = () => {
    for (const el of Array.from(els!.ls!.querySelectorAll(".m"))) el.remove();
    rows.clear();
    els!.e0!.hidden = false;
  };

  /** Unread badge, the launcher's name, the tab title while hidden. */
  function seen() {
    if (active() && poll.cursor > (st.s || 0)) {
      st.s = poll.cursor;
      save();
    }
    const n = incoming.filter((s) => s > (st.s || 0)).length;
    boot.badge.hidden = !n;
    boot.badge.textContent = n > 9 ? "9+" : String(n);
    // The launcher's visible words (site config) start its name (WCAG 2.5.3, label in name)
    const words = boot.launcher.dataset.label;
    boot.label((words ? words + ": " : "") + (isOpen ? T.closeChat : T.openChat) + (n ? ", " + fmt("unread", { n }) : ""));
    const flagged = D.hidden && n > 0;
    if (flagged) {
      pageTitle ??= D.title;
      D.title = fmt("newMessage", { n });
    } else if (pageTitle !== null) {
      D.title = pageTitle;
      pageTitle = null;
    }
  }

  function chime() {
    if (!boot.sound) return;
    try {
      const ac = new AudioContext();
      const o = ac.createOscillator(),
        g = ac.createGain();
      o.frequency.value = 880;
      g.gain.setValueAtTime(0.06, ac.currentTime);
      g.gain.exponentialRampToValueAtTime(0.0001, ac.currentTime + 0.3);
      o.connect(g).connect(ac.destination);
      o.start();
      o.stop(ac.currentTime + 0.3);
      o.addEventListener("ended", () => void ac.close());
    } catch {
      /* no audio */
    }
  }

  function toggle(open: boolean, focusLauncher?: boolean) {
    if (boot.off()) return;
    const e = ensureView();
    isOpen = open;
    e.p!.hidden = !open;
    boot.frame.classList.toggle("o", open);
    boot.launcher.setAttribute("aria-expanded", String(open));
    if (open) {
      (e.v!.hidden ? e[e.t!.hidden ? "db" : "tn"] : e.tx)?.focus(); // db and tn: none until the form's chunk has come
      e.ls!.scrollTop = e.ls!.scrollHeight;
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
    seen();
  }

  function show(form: boolean) {
    const e = ensureView();
    e.v!.hidden = form;
    e.t!.hidden = !form;
    e.dn!.hidden = true;
    (form ? e.tn! : e.tx!).focus();
  }

  hooks.tokenChanged = () => {
    tokenMoved();
    keepCurrent();
  };
  hooks.switched = () => {
    newConversation();
    kick();
  };
  hooks.changed = () => {
    showClosed(Boolean(st.e));
    refresh();
  };
  hooks.forgotten = (why) => {
    if (!els) return;
    showTyping([]);
    if (why) return note(why as Key);
    clearThread();
    newConversation();
  };
  composer.started = newConversation;
  composer.acted = boot.consent;
  poll.arrived = (m: Message) => {
    incoming.push(m.sequence);
    showTyping([]);
    if (m.event === "conversation_closed") markClosed();
    else if (m.event === "conversation_reopened" && st.e) {
      st.e = 0; // the next message goes to this conversation again
      save();
      showClosed(false);
    }
    if (!active() && m.sequence > (st.s || 0)) chime();
  };
  poll.after = seen;

  addEventListener("storage", (e) => {
    if (e.key === key || e.key === null) adopt(read());
  });
  D.addEventListener("visibilitychange", () => {
    if (!D.hidden) {
      if (isOpen) opened();
      kick();
    }
    seen();
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
  boot.frame.addEventListener("keydown", (e) => {
    if (e.key === "Escape" && isOpen) {
      e.stopPropagation();
      toggle(false, true);
    }
  });

  void boot.config().then((c) => {
    config = c;
    refresh();
    if (c?.open === false)
      void loadChunk("hours").then((h) => {
        backAt = h?.backAt || null;
        refresh();
      });
  });
  void loadStrings(boot).then((table) => {
    setLanguage(table);
    boot.frame.dir = T.dir;
    boot.frame.lang = T.lang;
    if (els) {
      localize(boot.frame);
      for (const el of Array.from(els.ls!.querySelectorAll<HTMLElement>(".nm.dn"))) el.textContent = T[el.closest(".me") ? "you" : "support"];
    }
    refresh();
  });

  if (st.c) {
    ensureView(); // resuming: rows come in (and count as unread) with the panel closed
    newConversation();
    kick();
  }
  seen();
  return {
    toggle,
    isOpen: () => isOpen,
    identified: () => {
      refresh();
      if (isOpen) void offerList();
    },
  };
}

(window as ParleyWindow).Parley?._panel?.(start);
