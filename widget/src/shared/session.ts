import { createEmitter } from "./emitter";
import type { SessionEvents } from "./events";
import { request } from "./request";
import { StateKey, type ConversationState } from "./state";
import type { Key } from "../strings/table";
import type { ApiResult, Boot } from "./types";

// The conversation this browser is in, as one object: the page-facing services the loader handed
// over (boot), the stored state (its visitor token, stored per site so a reload or a second tab
// resumes it) and typed events for whoever follows it. Tabs share the state through storage;
// renewals take a lock so only one tab renews.

const NO_ANSWER: ApiResult = { ok: false, status: 0, code: undefined, result: null, message: undefined, retryAfter: 0 };
const HOUR = 36e5;

/** The state keeps its identity (a module may hold it): replacing it replaces its fields. */
function replaceFields(state: ConversationState, next: ConversationState): void {
  for (const key in state) delete state[key as StateKey];
  Object.assign(state, next);
}

/** The state keeps its identity for the page's life (modules may hold it); its fields change. */
const state: ConversationState = {};
let warned = false;
let renewing: Promise<void> | null = null;
let renewAfter = 0;

export const session = {
  ...createEmitter<SessionEvents>(),
  boot: null as unknown as Boot,
  /** Where the state is stored: "parley:<site>". */
  key: "",
  state,
  /** No polling before this time (Retry-After, 503). */
  holdUntil: 0,

  start(boot: Boot): void {
    session.boot = boot;
    session.key = "parley:" + boot.site;
    replaceFields(state, session.read());
    if (state[StateKey.Token] && (state[StateKey.ExpiresAt] || 0) <= Date.now()) session.forget();
  },

  /** What this browser has stored (another tab may have written it). */
  read(): ConversationState {
    try {
      return (JSON.parse(session.boot.store.get(session.key) || "{}") as ConversationState | null) || {};
    } catch {
      return {};
    }
  },

  save(): void {
    const json = JSON.stringify(state);
    if (json !== session.boot.store.get(session.key)) session.boot.store.set(session.key, json);
    session.emit("saved");
  },

  replace(next: ConversationState): void {
    replaceFields(state, next);
    session.save();
  },

  forget(note?: Key): void {
    session.replace({});
    session.emit("forgotten", note);
  },

  /** Takes over what another tab stored. */
  adopt(other: ConversationState): void {
    if (other[StateKey.ConversationId] !== state[StateKey.ConversationId]) {
      if (other[StateKey.ConversationId]) {
        replaceFields(state, other);
        session.emit("switched");
      } else if (state[StateKey.ConversationId]) session.forget("sessionEnded");
    } else if (other[StateKey.ConversationId]) {
      if (other[StateKey.Token]) {
        state[StateKey.Token] = other[StateKey.Token];
        state[StateKey.ExpiresAt] = other[StateKey.ExpiresAt];
      }
      if ((other[StateKey.SeenSequence] || 0) > (state[StateKey.SeenSequence] || 0)) state[StateKey.SeenSequence] = other[StateKey.SeenSequence];
      state[StateKey.StartedOffline] = other[StateKey.StartedOffline];
      state[StateKey.Ended] = other[StateKey.Ended];
      session.emit("changed");
    }
    session.emit("saved");
  },

  /** A visitor-route call with the token, renewed when under an hour is left. `signal` marks the long-poll. */
  async call(method: string, path: string, body?: unknown, signal?: AbortSignal, onToken?: (token: string) => void): Promise<ApiResult> {
    if (state[StateKey.Token] && (state[StateKey.ExpiresAt] || 0) - Date.now() < HOUR) await renew();
    for (let attempt = 0; attempt < 2; attempt++) {
      const token = state[StateKey.Token];
      if (!token || session.boot.off()) break;
      onToken?.(token);
      const answer = await request(method, session.boot.api + path, { body, headers: { Authorization: "Bearer " + token }, signal });
      if (answer.status === 429 || answer.status === 503) session.holdUntil = Date.now() + (answer.retryAfter || 5) * 1e3;
      if (answer.status !== 401 && answer.status !== 403) return answer;
      session.adopt(session.read()); // another tab may have renewed or restarted
      if (state[StateKey.Token] === token) {
        if (answer.status === 403 && !warned) {
          warned = true;
          session.boot.quiet();
        }
        if (state[StateKey.ConversationId]) session.emit("refused", state[StateKey.ConversationId]);
        session.forget("sessionEnded");
        return answer;
      }
    }
    return NO_ANSWER;
  },
};

export type Session = typeof session;

function renew(): Promise<void> {
  return (renewing ||= (async () => {
    const run = async () => {
      session.adopt(session.read());
      if (!state[StateKey.Token] || (state[StateKey.ExpiresAt] || 0) - Date.now() > HOUR || Date.now() < renewAfter) return;
      if ((state[StateKey.ExpiresAt] || 0) <= Date.now()) return session.forget();
      renewAfter = Date.now() + 3e5;
      const answer = await request("POST", session.boot.api + "/api/v1/chat/visitor/renew", { headers: { Authorization: "Bearer " + state[StateKey.Token] } });
      const renewed = answer.ok ? (answer.result as { visitor_token?: string } | null) : null;
      if (renewed?.visitor_token) {
        state[StateKey.Token] = renewed.visitor_token;
        state[StateKey.ExpiresAt] = Date.now() + 864e5; // local clock, as at start: immune to skew
        session.save();
      }
    };
    try {
      // One tab at a time: a second renew of a token gets 401.
      const locks = navigator.locks as LockManager | undefined;
      await (locks ? locks.request(session.key, run) : run());
    } catch {
      /* keep the current token */
    }
    renewing = null;
  })());
}
