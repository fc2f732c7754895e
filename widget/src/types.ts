// Shapes shared by the loader (widget.js) and the panel chunk. The loader owns the page-facing
// parts (host element, launcher, storage, page view, site config) and hands them to the panel.

/** What one API call came back with; a network or CORS failure is status 0. */
export interface Res {
  ok: boolean;
  status: number;
  code: string | undefined;
  result: unknown;
  message: string | undefined;
  /** Retry-After, in seconds (0 when absent). */
  retryAfter: number;
}

export interface RequestOptions {
  body?: unknown;
  headers?: Record<string, string>;
  signal?: AbortSignal;
  /** Only the site config may come from the browser's cache (it says private, max-age=60). */
  cacheable?: boolean;
}

export type Request = (method: string, url: string, options?: RequestOptions) => Promise<Res>;

export interface TeamMember {
  name: string;
  avatar: string | null;
}

/** GET /api/v1/chat/widget/{siteID}/config */
export interface SiteConfig {
  title: string | null;
  greeting: string | null;
  brand_color: string | null;
  offline: boolean;
  track_before_interaction?: boolean;
  /** Inside the site's service hours; next_open_at: when they next begin (null while open or never). */
  open: boolean;
  next_open_at: string | null;
  away_message: string | null;
  locale: string | null;
  /** The launcher's and the panel's side; absent from an older service: right. */
  position?: "right" | "left";
  /** Words on the launcher beside its icon; null: the icon alone. */
  launcher_label?: string | null;
  team: TeamMember[];
}

/** Storage that holds nothing in the browser until consent (data-consent="required"). */
export interface Store {
  get(key: string): string | null;
  set(key: string, value: string): void;
  readonly granted: () => boolean;
}

/** What the page passed to Parley.identify(), as given (the panel reads it through identity.ts). */
export type Identity = Record<string, unknown>;

export interface Boot {
  site: string;
  /** The service's origin (or data-api). */
  api: string;
  root: ShadowRoot;
  /** The `.r` element: theme variables, open state. */
  frame: HTMLElement;
  launcher: HTMLButtonElement;
  badge: HTMLElement;
  title: string | null;
  sound: boolean;
  store: Store;
  me: Identity;
  /** The site config; fetched once (after consent in consent mode). */
  config: () => Promise<SiteConfig | null>;
  /** Loads a chunk (public/widget/<file>) as a classic script: no CORS, any page CSP that allows widget.js. */
  inject: (file: string, failed: () => void) => void;
  /** data-locale */
  locale: string | null;
  quiet: () => void;
  /** The visitor acted (sent a message): in consent mode, that is consent. */
  consent: () => void;
  /** The browser's visitor id; `make` creates and stores it when there is none yet. */
  vid: (make?: unknown) => string | undefined;
  off: () => boolean;
  /** Sets the launcher's accessible name (the panel knows open state and unread count). */
  label: (text: string) => void;
}

export interface PanelApi {
  toggle(open: boolean, focusLauncher?: boolean): void;
  isOpen(): boolean;
  /** Identity or contact details changed. */
  identified(): void;
}

export type PanelStart = (boot: Boot) => PanelApi;

export interface ParleyGlobal {
  (method: string, ...args: unknown[]): void;
  _l?: 1;
  _panel?: (start: PanelStart) => void;
  _locale?: (code: string, table: import("./strings").Language) => void;
  /** the history chunk registers itself here (history.ts) */
  _history?: (start: import("./history").HistoryStart) => void;
  /** a chunk loaded on need registers itself here (chunks.ts) */
  _chunk?: (name: string, api: unknown) => void;
  /** the panel's modules, shared with its chunks (scripts/build-widget.mjs) */
  _m?: Record<string, unknown>;
  q?: unknown[];
}

export interface ParleyWindow extends Window {
  Parley?: ParleyGlobal;
}
