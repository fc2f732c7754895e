import type { Message } from "./message";
import type { Key } from "../strings/table";

// Every event of the widget's session, with what it carries (a leaf: types only). The session
// emits them (shared/session.ts); the panel and its parts listen, each for what it owns.

export interface SessionEvents {
  /** The conversation was forgotten (its token is gone); `note` is the line that tells the visitor why. */
  forgotten: Key | undefined;
  /** Another tab started or resumed a different conversation. */
  switched: undefined;
  /** The stored state changed under the panel (seen sequence, offline, ended). */
  changed: undefined;
  /** The state was saved: the token may have changed, so a held poll must be re-sent with the new one. */
  saved: undefined;
  /** The service refused this conversation's token (401, 403); carries the conversation's id. */
  refused: string;
  /** A conversation was started from this panel. */
  started: undefined;
  /** A message of someone else (staff, bot or system) arrived. */
  arrived: Message;
  /** A page of messages was shown (the unread count may have changed). */
  pageShown: undefined;
}

export type Listener<Payload> = (payload: Payload) => void;
