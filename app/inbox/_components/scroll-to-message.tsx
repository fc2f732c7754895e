"use client";

import { useEffect } from "react";

// A search result opens its conversation at the matching message (`?m=<id>`): that message is
// scrolled to the middle of the thread, once, and gets the page's highlight (styles.matched).
export function ScrollToMessage({ messageId }: { messageId: string }) {
  useEffect(() => {
    document.getElementById(`m-${messageId}`)?.scrollIntoView({ block: "center" });
  }, [messageId]);
  return null;
}
