import type { KeyboardEvent } from "react";

/** A textarea's key handler: Enter sends, Shift+Enter breaks the line, Enter that ends an IME composition does neither. */
export const enterSends =
  (send: () => void) =>
  (event: KeyboardEvent<HTMLTextAreaElement>): void => {
    if (event.key === "Enter" && !event.shiftKey && !event.nativeEvent.isComposing) {
      event.preventDefault();
      send();
    }
  };
