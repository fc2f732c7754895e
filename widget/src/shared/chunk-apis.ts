import type { Attachment, Source } from "./message";
import type { RecentConversation, RecentUpdate } from "./state";
import type { Elements, SiteConfig } from "./types";

// What each chunk loaded on need hands the panel (a leaf: types only). The chunks implement these;
// the panel (panel/chunks.ts) knows them by these types alone, so no import runs back from a chunk.

export interface UploadsChunk {
  /** Why a file cannot be sent ("" when it can). */
  fileProblem(file: File): string;
  /** A message's files under its text. */
  showFiles(row: HTMLElement, files: Attachment[]): void;
  /** Uploads the files of a message row: their ids, null when every file was cancelled, or the first problem's text. */
  uploadFiles(row: HTMLElement, files: File[], retry: () => void): Promise<string[] | string | null>;
  /** Wires the "leave a message" form once; answers what opening it does. */
  initTickets(elements: Elements, show: (form: boolean) => void): () => void;
}

export interface RatingChunk {
  initRating(elements: Elements): void;
  /** The closed notice is shown (again). */
  shown(): void;
}

export interface HoursChunk {
  /** "We're back …" for next_open_at, or "" when the site never opens. */
  backAt(iso: string | null, now?: Date): string;
}

export interface AnswersChunk {
  /** What the site's config turns on: "Talk to a person" for the conversation's state (bot mode; `asked`: a handoff was asked in this cycle), and article suggestions as the visitor types (help center on). */
  show(elements: Elements, config: SiteConfig, asked: boolean, done: () => void): void;
  /** Parley.openArticle(id) (`search` false) or Parley.searchArticles(q) (`search` true), in the open panel. */
  article(elements: Elements, search: boolean, value: unknown): void;
  /** A bot answer's sources under its text. */
  cite(row: HTMLElement, sources: Source[]): void;
}

export interface PrechatChunk {
  /** Asks the department and the pre-chat form before the first message; resolves once what the start adds (team_id, fields, consent) is in `start`. */
  ask(elements: Elements, config: SiteConfig, start: Record<string, unknown>): Promise<void>;
}

export interface SoundChunk {
  /** A short tone (data-sound="on"). */
  chime(): void;
}

export interface ChunkApis {
  uploads: UploadsChunk;
  rating: RatingChunk;
  hours: HoursChunk;
  answers: AnswersChunk;
  sound: SoundChunk;
  prechat: PrechatChunk;
  history: HistoryChunk;
}

/** What the panel hands the history chunk (the panel's own parts; shared modules it imports). */
export interface HistoryHost {
  /** the panel's views: the list hides them while shown; the first (the chat) comes back */
  views: HTMLElement[];
  list: () => RecentConversation[];
  keep: (update: RecentUpdate) => void;
  open: (conversation: RecentConversation) => void;
  fresh: () => void;
  /** the page's verified user, if any (Parley.identify) */
  identity: () => { user_id: string; user_hash: string } | null;
  /** the header button that toggles the list */
  toggle: HTMLElement;
}

export interface HistoryApi {
  show(on: boolean): void;
  shown(): boolean;
  /** Merges a verified user's conversations from the server (POST /widget/{siteID}/history). */
  fetch(): Promise<void>;
}

export interface HistoryChunk {
  start(host: HistoryHost): HistoryApi;
}
