import { cut } from "./cut";
import type { Message } from "./messages";
import { boot, key, st } from "./session";

// This browser's conversations (returning visitors): each one's token, expiry and last message,
// stored beside the current conversation only once there is one (the visitor wrote: nothing is
// kept before that). A token is renewed while its conversation is the current one; an expired
// one is dropped, since nothing can open it any more.

export interface Recent {
  /** conversation id */ c: string;
  /** visitor token */ t: string;
  /** its expiry (local clock, ms) */ x: number;
  /** last activity (ms) */ u: number;
  /** sequence of the last message kept */ q?: number;
  /** last message: body (cut), author type, system event, files sent */ b?: string;
  a?: string;
  v?: string;
  f?: number;
  /** closed by staff */ e?: number;
}

const KEEP = 20;
const where = () => key + ":h";

export function recent(): Recent[] {
  try {
    const all = JSON.parse(boot.store.get(where()) || "[]") as Recent[];
    return all.filter((r) => r && r.c && r.t && r.x > Date.now());
  } catch {
    return [];
  }
}

/** Adds or updates a conversation; an update without a token needs one stored already. */
export function keep(o: Partial<Recent> & { c: string }): void {
  const all = recent();
  const old = all.find((r) => r.c === o.c);
  if (!old && !o.t) return;
  if (old && o.q && o.q <= (old.q || 0)) return; // an older message replayed: the preview stays
  const next = { ...old, ...o, u: o.u || old?.u || Date.now() } as Recent;
  write([next, ...all.filter((r) => r !== old)].sort((p, q) => q.u - p.u).slice(0, KEEP));
}

/** A conversation whose token the service refused: nothing could open it any more. */
export const dropRecent = (c: string) => write(recent().filter((r) => r.c !== c));

function write(list: Recent[]): void {
  const json = JSON.stringify(list);
  if (json !== boot.store.get(where())) boot.store.set(where(), json);
}

/** The current conversation's token and closed state, whenever they are saved. */
export const keepCurrent = () => st.c && st.t && keep({ c: st.c, t: st.t, x: st.x || 0, e: st.e || 0 });

/** A message shown: the conversation's preview and time. */
export const keepMessage = (m: Message) =>
  keep({ c: m.conversation_id, q: m.sequence, u: Date.parse(m.created_at) || Date.now(), b: cut(m.body, 100), a: m.author_type, v: m.event, f: m.attachments?.length ? 1 : 0 });
