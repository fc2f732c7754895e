import type { HOURS_EN } from "./strings-hours";
import type { RATING_EN } from "./strings-rating";
import type { UPLOADS_EN } from "./strings-uploads";

// Every string the widget shows, in parts: the panel's here, and each chunk's in strings-<chunk>.ts,
// which only that chunk carries and lays over T with addStrings when it loads (so opening the panel
// does not load the form's words). `{name}` marks a value filled in at run time.
// Other languages (locales/*.ts) are one flat table in the source; the build turns each into the
// values of every part in English's key order (scripts/build-widget.mjs), so no key travels twice.
export const EN = {
  dir: "ltr",
  lang: "en",
  openChat: "Open chat",
  closeChat: "Close chat",
  unread: "{n} unread",
  title: "Chat with us",
  replyFast: "We usually reply within a few minutes.",
  away: "We're away. We'll reply by email.",
  greeting: "Hi! How can we help you today?",
  offlineNote: "We're offline right now. We'll reply by email.",
  offlineNoteTo: "We're offline right now. We'll reply by email to {email}.",
  messages: "Messages",
  message: "Message",
  placeholder: "Write a message…",
  send: "Send message",
  you: "You",
  support: "Support",
  typingOne: "{names} is typing…",
  typingMany: "{names} are typing…",
  and: " and ",
  sending: "Sending…",
  sent: "Sent",
  waitingEmail: "Waiting for your email…",
  notSentNetwork: "Not sent: can't reach the server.",
  notSentBusy: "Not sent: too many messages, try again shortly.",
  notSentUnavailable: "Not sent: chat is unavailable here.",
  notSent: "Not sent.",
  notSentWhy: "Not sent: {why}",
  notSentClosed: "Not sent: the conversation has ended.",
  retry: "Retry",
  sessionEnded: "Your chat session has ended. Send a message to start a new conversation.",
  closed: "This conversation was closed.",
  closedHint: "Send a message to start a new one, or:",
  startNew: "Start a new conversation",
  conversations: "Your conversations",
  newConversation: "New conversation",
  closedTag: "Closed",
  reopened: "This conversation was reopened.",
  fileSent: "File",
  noMessages: "No messages yet",
  emailPrompt: "We're away. Leave your email and we'll reply there.",
  emailExample: "you@example.com",
  continue: "Continue",
  preferEmail: "Prefer email? Leave a message",
  ticketIntro: "We'll reply by email.",
  addFiles: "Add files",
  tooMany: "You can attach at most 10 files.",
  uploadFailed: "Upload failed. ",
  sendingFiles: "Sending your files… Keep this page open.",
  newMessage: "({n}) New message",
};

export type Key = keyof typeof EN | keyof typeof UPLOADS_EN | keyof typeof RATING_EN | keyof typeof HOURS_EN;
export type Table = Record<Key, string>;
export type Part = "panel" | "uploads" | "rating" | "hours";
/** A language as the build ships it: each part's values in the order of its English keys. */
export type Language = Partial<Record<Part, string[]>>;

/** The current table: English, with the visitor's language laid over it once loaded. A chunk's
 * keys are there once the chunk has loaded (only that chunk reads them). */
export const T = { ...EN } as Table;

const english: Partial<Record<Part, Record<string, string>>> = { panel: EN };
let language: Language = {};

function apply(part: Part): void {
  const en = english[part]!;
  Object.keys(en).forEach((key, i) => (T[key as Key] = language[part]?.[i] ?? en[key]!));
}

/** A chunk's English (loaded with it), under the visitor's language if that has arrived. */
export function addStrings(part: Part, en: Record<string, string>): void {
  english[part] = en;
  apply(part);
}

/** The visitor's language arrived: laid over every part loaded so far. */
export function setLanguage(table: Language): void {
  language = table;
  for (const part of Object.keys(english) as Part[]) apply(part);
}

export function fmt(key: Key, vars: Record<string, string | number> = {}): string {
  return T[key].replace(/\{(\w+)\}/g, (all, name: string) => (name in vars ? String(vars[name]) : all));
}
