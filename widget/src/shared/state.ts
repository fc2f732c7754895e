// What the widget keeps in the visitor's storage, named here (a leaf). The stored JSON keeps its
// one-letter keys (browsers hold them; the loader reads "c" to resume): the enums below name each
// key in code, and esbuild puts the letter itself in the bundle, so the names cost nothing.

/** The current conversation ("parley:<site>"): shared by the tabs of this browser. */
export const enum StateKey {
  /** the visitor token */
  Token = "t",
  /** its expiry (local clock, ms) */
  ExpiresAt = "x",
  /** the conversation's id */
  ConversationId = "c",
  /** the last sequence the visitor has seen (the unread badge) */
  SeenSequence = "s",
  /** started while the site was offline (1) */
  StartedOffline = "o",
  /** closed by staff (1): the next message starts anew */
  Ended = "e",
  /** this close was rated, or can no longer be (1) */
  Rated = "r",
  /** the start carried the visitor's email, so a transcript can be mailed (1); it was (2) */
  Transcript = "m",
}

export interface ConversationState {
  [StateKey.Token]?: string | null;
  [StateKey.ExpiresAt]?: number;
  [StateKey.ConversationId]?: string | null;
  [StateKey.SeenSequence]?: number;
  [StateKey.StartedOffline]?: number;
  [StateKey.Ended]?: number;
  [StateKey.Rated]?: number;
  [StateKey.Transcript]?: number;
}

/** One of this browser's conversations ("parley:<site>:h", returning visitors). */
export const enum RecentKey {
  ConversationId = "c",
  Token = "t",
  /** the token's expiry (local clock, ms) */
  ExpiresAt = "x",
  /** last activity (ms) */
  UpdatedAt = "u",
  /** the sequence of the last message kept */
  LastSequence = "q",
  /** the last message: its body (cut), its author's type, its system event, whether it had files (1) */
  Preview = "b",
  AuthorType = "a",
  Event = "v",
  HasFiles = "f",
  /** closed by staff (1) */
  Closed = "e",
}

export interface RecentConversation {
  [RecentKey.ConversationId]: string;
  [RecentKey.Token]: string;
  [RecentKey.ExpiresAt]: number;
  [RecentKey.UpdatedAt]: number;
  [RecentKey.LastSequence]?: number;
  [RecentKey.Preview]?: string;
  [RecentKey.AuthorType]?: string;
  [RecentKey.Event]?: string;
  [RecentKey.HasFiles]?: number;
  [RecentKey.Closed]?: number;
}

/** An update of a kept conversation: its id and what changed. */
export type RecentUpdate = Partial<RecentConversation> & { [RecentKey.ConversationId]: string };
