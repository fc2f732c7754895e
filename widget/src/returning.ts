import type { HistoryApi } from "./history";
import { me } from "./identity";
import { dropRecent, keep, recent, type Recent } from "./recent";
import { request } from "./request";
import { boot, forget, hooks, replaceState, st } from "./session";
import { T } from "./strings";
import type { ParleyWindow } from "./types";
import type { Elements } from "./view";

// Returning visitors: the list of this browser's conversations (and a verified user's, from the
// server) is a chunk of its own (history.ts), loaded only when there is something to list or a
// verified user to ask about. Here: when to offer it, and what opening one or starting anew does.

declare const __HISTORY__: string;

export interface Thread {
  isOpen(): boolean;
  /** The current conversation changed (st): empty the thread and follow the new one. */
  switched(): void;
}

let els: Elements;
let thread: Thread;
let history: Promise<HistoryApi | null> | null = null;
let askedFor = "";
let listedOnce = false;

export function initReturning(e: Elements, t: Thread): void {
  els = e;
  thread = t;
  hooks.refused = dropRecent;
  e.hb!.addEventListener("click", () => void loadHistory().then((list) => list?.show(!list.shown())));
}

const verified = () => (me.userId && me.userHash ? { user_id: me.userId, user_hash: me.userHash } : null);

const loadHistory = () =>
  (history ||= new Promise<HistoryApi | null>((done) => {
    const parley = (window as ParleyWindow).Parley;
    if (parley)
      parley._history = (begin) =>
        done(begin({ boot, T, views: [els.v!, els.t!, els.dn!], list: recent, keep, open: continueIn, fresh: startFresh, request, identity: verified, toggle: els.hb! }));
    boot.inject(__HISTORY__, () => {
      history = null;
      done(null);
    });
  }));

/** Another conversation than the current one, or a closed one. */
const worthListing = () => recent().some((r) => r.c !== st.c || r.e);

/** On open: a verified user's conversations are asked for once; the list shows first when no conversation is going on. */
export async function offerList(): Promise<void> {
  if (verified() && askedFor !== me.userId) {
    askedFor = me.userId;
    await (await loadHistory())?.fetch();
  }
  const worth = worthListing();
  els.hb!.hidden = !worth;
  if (worth && !listedOnce && !st.c && thread.isOpen()) {
    listedOnce = true;
    (await loadHistory())?.show(true);
  }
}

function continueIn(r: Recent): void {
  if (r.c !== st.c) {
    replaceState({ t: r.t, x: r.x, c: r.c, e: r.e || 0 });
    thread.switched();
  }
  backToChat();
}

function startFresh(): void {
  forget();
  backToChat();
}

/** The list gives way to the chat, ready to write. */
const backToChat = () =>
  void history?.then((list) => {
    list?.show(false);
    els.tx!.focus();
  });
