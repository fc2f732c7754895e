import type { HistoryApi } from "../shared/chunk-apis";
import { me } from "../shared/identity";
import { session } from "../shared/session";
import { RecentKey, StateKey, type RecentConversation } from "../shared/state";
import type { Elements } from "../shared/types";
import { loadChunk } from "./chunks";
import { dropRecent, keep, recent } from "./recent";

// Returning visitors: the list of this browser's conversations (and a verified user's, from the
// server) is a chunk of its own (chunks/history), loaded only when there is something to list or
// a verified user to ask about. Here: when to offer it, and what opening one or starting anew does.

export interface Thread {
  isOpen(): boolean;
  /** The current conversation changed (the session's state): empty the thread and follow the new one. */
  switched(): void;
}

let els: Elements;
let thread: Thread;
let history: Promise<HistoryApi | null> | null = null;
let askedFor = "";
let listedOnce = false;

export function initReturning(elements: Elements, shownThread: Thread): void {
  els = elements;
  thread = shownThread;
  session.on("refused", dropRecent);
  elements.hb!.addEventListener("click", () => void loadHistory().then((list) => list?.show(!list.shown())));
}

const verified = () => (me.userId && me.userHash ? { user_id: me.userId, user_hash: me.userHash } : null);

const loadHistory = () =>
  (history ||= loadChunk("history").then((chunk) => {
    if (!chunk) history = null; // not loaded: asked again next time
    return chunk?.start({ views: [els.v!, els.t!, els.dn!], list: recent, keep, open: continueIn, fresh: startFresh, identity: verified, toggle: els.hb! }) ?? null;
  }));

/** Another conversation than the current one, or a closed one. */
const worthListing = () => recent().some((kept) => kept[RecentKey.ConversationId] !== session.state[StateKey.ConversationId] || kept[RecentKey.Closed]);

/** On open: a verified user's conversations are asked for once; the list shows first when no conversation is going on. */
export async function offerList(): Promise<void> {
  if (verified() && askedFor !== me.userId) {
    askedFor = me.userId;
    await (await loadHistory())?.fetch();
  }
  const worth = worthListing();
  els.hb!.hidden = !worth;
  if (worth && !listedOnce && !session.state[StateKey.ConversationId] && thread.isOpen()) {
    listedOnce = true;
    (await loadHistory())?.show(true);
  }
}

function continueIn(kept: RecentConversation): void {
  if (kept[RecentKey.ConversationId] !== session.state[StateKey.ConversationId]) {
    session.replace({
      [StateKey.Token]: kept[RecentKey.Token],
      [StateKey.ExpiresAt]: kept[RecentKey.ExpiresAt],
      [StateKey.ConversationId]: kept[RecentKey.ConversationId],
      [StateKey.Ended]: kept[RecentKey.Closed] || 0,
    });
    thread.switched();
  }
  backToChat();
}

function startFresh(): void {
  session.forget();
  backToChat();
}

/** The list gives way to the chat, ready to write. */
const backToChat = () =>
  void history?.then((list) => {
    list?.show(false);
    els.tx!.focus();
  });
