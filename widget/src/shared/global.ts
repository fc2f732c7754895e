import type { PanelStart } from "./types";
import type { Language } from "../strings/table";

// window.Parley: the page's calls (Parley("open"), Parley.open()…) and where the loader's scripts
// meet, each registering itself when it has run (a leaf: types only).

export interface ParleyGlobal {
  (method: string, ...args: unknown[]): void;
  _l?: 1;
  _panel?: (start: PanelStart) => void;
  _locale?: (code: string, table: Language) => void;
  /** a chunk loaded on need registers itself here (panel/chunks.ts) */
  _chunk?: (name: string, api: unknown) => void;
  /** the panel's modules, shared with its chunks (scripts/build-widget.mjs) */
  _m?: Record<string, unknown>;
  q?: unknown[];
}

export interface ParleyWindow extends Window {
  Parley?: ParleyGlobal;
}
