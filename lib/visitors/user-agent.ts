import Bowser from "bowser";

// What staff see of a visitor's browser, parsed with bowser (maintained, MIT, no dependencies;
// ua-parser-js moved to AGPL in version 2): "Firefox 133", "macOS", "desktop". The system goes
// without its version: browsers freeze it in the User-Agent (every Mac says 10.15, Windows 11 says 10).

export interface BrowserSummary {
  browser: string | null;
  os: string | null;
  device: string | null;
}

const joined = (...parts: (string | undefined)[]) => parts.filter(Boolean).join(" ") || null;

export function summarizeUserAgent(userAgent: string | null): BrowserSummary {
  if (!userAgent) return { browser: null, os: null, device: null };
  const { browser, os, platform } = Bowser.parse(userAgent);
  return {
    browser: joined(browser.name, browser.version?.split(".")[0]),
    os: os.name ?? null,
    device: platform.type ?? null,
  };
}
