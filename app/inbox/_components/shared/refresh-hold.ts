// Keeps the live channel (./live-updates.tsx) from re-reading one page. Erasing the open
// conversation's visitor removes the conversation, so the refresh its own events cause would turn
// the page into "not found" before the erasure's outcome shows (or while it is being read). The
// hold lasts while the member stays on that page; anywhere else refreshes as before.

let heldPath: string | null = null;

export function holdRefreshHere(): void {
  heldPath = window.location.pathname;
}

export function releaseRefresh(): void {
  heldPath = null;
}

export const refreshHeld = (): boolean => heldPath !== null && heldPath === window.location.pathname;
