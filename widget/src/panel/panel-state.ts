import type { Elements, SiteConfig } from "../shared/types";

// What the panel's parts share about the panel itself: its elements once built, the site config
// as last read, and whether it is open. One object, written by panel.ts only.

export const panel = {
  /** The panel's elements, once built (on first open, or at once when resuming). */
  elements: null as Elements | null,
  config: null as SiteConfig | null,
  isOpen: false,
  /** Open, in a visible page: what arrives is read at once. */
  active: () => panel.isOpen && !document.hidden,
};
