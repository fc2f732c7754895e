import type { WidgetConfigShape } from "../../../lib/contracts/widget-config-shape";

// Shapes shared by the loader (widget.js) and the panel chunk (a leaf: types only). The loader owns
// the page-facing parts (host element, launcher, storage, page view, site config) and hands them to the panel.

/** What one API call came back with; a network or CORS failure is status 0. */
export interface ApiResult {
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

export type Request = (method: string, url: string, options?: RequestOptions) => Promise<ApiResult>;

/** GET /api/v1/chat/widget/{siteID}/config: the one shape the service, the widget and the designer share. */
export type SiteConfig = WidgetConfigShape;

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
  /** The site's widget routes: {api}/api/v1/chat/widget/{site}. */
  route: string;
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

/** The panel's elements by their id (the markup of shared/view.ts and what the chunks add). */
export type Elements = Record<string, HTMLElement>;

export interface PanelApi {
  toggle(open: boolean, focusLauncher?: boolean): void;
  isOpen(): boolean;
  /** Identity or contact details changed. */
  identified(): void;
  /** Parley.openArticle(id) (`search` false) and Parley.searchArticles(q) (`search` true): the panel opens on the article or the list. */
  article(search: boolean, value: unknown): void;
}

export type PanelStart = (boot: Boot) => PanelApi;
