"use client";

import { useState, type KeyboardEvent } from "react";

/**
 * The keyboard of a composer picker (a listbox under a textarea that keeps the focus, pointed at
 * with aria-activedescendant): arrows move round the shown options, Enter (without Shift) picks,
 * Esc dismisses. `onKeyDown` answers true when the key was the picker's, so the composer's own
 * handler leaves it alone.
 */
export function useListboxPicker<T>({ open, shown, pick, dismiss }: { open: boolean; shown: T[]; pick: (item: T) => void; dismiss: () => void }) {
  const [active, setActive] = useState(0);
  const chosen = Math.min(active, Math.max(0, shown.length - 1));

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>): boolean => {
    if (!open || event.nativeEvent.isComposing) return false;
    if (event.key === "Escape") {
      event.preventDefault();
      dismiss();
      return true;
    }
    if (shown.length === 0) return false;
    if (event.key === "ArrowDown" || event.key === "ArrowUp") {
      event.preventDefault();
      setActive((chosen + (event.key === "ArrowDown" ? 1 : shown.length - 1)) % shown.length);
      return true;
    }
    // Tab keeps its meaning (leaving the box); Enter picks.
    if (event.key === "Enter" && !event.shiftKey) {
      event.preventDefault();
      choose(shown[chosen]!);
      return true;
    }
    return false;
  };

  const choose = (item: T) => {
    setActive(0);
    pick(item);
  };

  return { chosen, onKeyDown, choose };
}
