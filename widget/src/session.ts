import { request } from "./request";
import type { Boot, Res } from "./types";

// The conversation this browser is in: its visitor token, stored per site so a reload or a second
// tab resumes it. Tabs share it through storage; renewals take a lock so only one tab renews.

export interface State {
  /** visitor token */ t?: string | null;
  /** its expiry (local clock, ms) */ x?: number;
  /** conversation id */ c?: string | null;
  /** last sequence the visitor has seen (for the unread badge) */ s?: number;
  /** started while offline */ o?: number;
  /** ended: closed by staff, the next message starts anew */ e?: number;
  /** this close was rated (or can no longer be) */ r?: number;
  /** the start carried the visitor's email, so a transcript can be mailed (1); it was (2) */ m?: number;
}

const NO: Res = { ok: false, status: 0, code: undefined, result: null, message: undefined, retryAfter: 0 };
const HOUR = 36e5;

export let boot: Boot;
export let key = "";
export let st: State = {};
/** No polling before this time (Retry-After, 503). */
export let holdUntil = 0;
export const setHold = (until: number) => (holdUntil = until);

/** What the rest of the panel does when the conversation changes under it. */
export const hooks = {
  /** the conversation was forgotten (token gone); `note` tells the visitor */
  forgotten: (_note?: string) => {},
  /** another tab started or resumed a different conversation */
  switched: () => {},
  /** the stored state changed (seen sequence, offline, ended) */
  changed: () => {},
  /** the token changed: a held poll must be re-sent with the new one */
  tokenChanged: () => {},
  /** the service refused this conversation's token (401, 403) */
  refused: (_c: string) => {},
};

export function initSession(b: Boot): void {
  boot = b;
  key = "parley:" + b.site;
  st = read();
  if (st.t && (st.x || 0) <= Date.now()) forget();
}

export function read(): State {
  try {
    return (JSON.parse(boot.store.get(key) || "{}") as State | null) || {};
  } catch {
    return {};
  }
}

export function save(): void {
  const json = JSON.stringify(st);
  if (json !== boot.store.get(key)) boot.store.set(key, json);
  hooks.tokenChanged();
}

export function replaceState(next: State): void {
  st = next;
  save();
}

export function forget(note?: string): void {
  st = {};
  save();
  hooks.forgotten(note);
}

/** Take over what another tab stored. */
export function adopt(o: State): void {
  if (o.c !== st.c) {
    if (o.c) {
      st = o;
      hooks.switched();
    } else if (st.c) forget("sessionEnded");
  } else if (o.c) {
    if (o.t) {
      st.t = o.t;
      st.x = o.x;
    }
    if ((o.s || 0) > (st.s || 0)) st.s = o.s;
    st.o = o.o;
    st.e = o.e;
    hooks.changed();
  }
  hooks.tokenChanged();
}

let warned = false;
/** A visitor-route call with the token, renewed when under an hour is left. `signal` marks the long-poll. */
export async function vcall(method: string, path: string, body?: unknown, signal?: AbortSignal, onToken?: (t: string) => void): Promise<Res> {
  if (st.t && (st.x || 0) - Date.now() < HOUR) await renew();
  for (let i = 0; i < 2; i++) {
    const t = st.t;
    if (!t || boot.off()) break;
    onToken?.(t);
    const r = await request(method, boot.api + path, { body, headers: { Authorization: "Bearer " + t }, signal });
    if (r.status === 429 || r.status === 503) holdUntil = Date.now() + (r.retryAfter || 5) * 1e3;
    if (r.status !== 401 && r.status !== 403) return r;
    adopt(read()); // another tab may have renewed or restarted
    if (st.t === t) {
      if (r.status === 403 && !warned) {
        warned = true;
        boot.quiet();
      }
      if (st.c) hooks.refused(st.c);
      forget("sessionEnded");
      return r;
    }
  }
  return NO;
}

let renewing: Promise<void> | null = null;
let renewAfter = 0;
function renew(): Promise<void> {
  return (renewing ||= (async () => {
    const run = async () => {
      adopt(read());
      if (!st.t || (st.x || 0) - Date.now() > HOUR || Date.now() < renewAfter) return;
      if ((st.x || 0) <= Date.now()) return forget();
      renewAfter = Date.now() + 3e5;
      const r = await request("POST", boot.api + "/api/v1/chat/visitor/renew", { headers: { Authorization: "Bearer " + st.t } });
      const x = r.ok ? (r.result as { visitor_token?: string } | null) : null;
      if (x?.visitor_token) {
        st.t = x.visitor_token;
        st.x = Date.now() + 864e5; // local clock, as at start: immune to skew
        save();
      }
    };
    try {
      // One tab at a time: a second renew of a token gets 401.
      const locks = navigator.locks as LockManager | undefined;
      await (locks ? locks.request(key, run) : run());
    } catch {
      /* keep the current token */
    }
    renewing = null;
  })());
}
