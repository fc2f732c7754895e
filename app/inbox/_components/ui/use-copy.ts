"use client";

import { useState } from "react";

/**
 * Copies `text` to the clipboard and says how it went, for the caller's polite live region.
 * `what` names the text in the fallback ("select the snippet and copy it yourself").
 */
export function useCopy(text: string, what: string) {
  const [copied, setCopied] = useState("");
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text);
      setCopied("Copied to the clipboard.");
    } catch {
      setCopied(`Copying is not allowed here: select the ${what} and copy it yourself.`);
    }
  };
  return { copy, copied };
}
