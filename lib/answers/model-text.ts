// What a model's answer may be once shown (decisions.md, round 4; threats.md, OWASP AISVS): plain
// text. Markdown images are dropped whole (an image URL is how a hostile answer exfiltrates), HTML
// tags are dropped (their text stays), and links survive only to the site's help center or its
// allowed origins: a Markdown link elsewhere keeps its text, a bare URL elsewhere becomes
// "[link removed]". Citation markers `[n]` are read (the passages used) and taken out.

export const MAX_MODEL_ANSWER = 1_500;
const REMOVED = "[link removed]";

export interface LinkRule {
  /** The help center's URL (`{origin}/help/{siteID}`): links under it are kept. */
  helpCenter: string;
  /** The site's allowed origins: links to them are kept. */
  origins: readonly string[];
}

function allowed(raw: string, rule: LinkRule): boolean {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return false;
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") return false;
  if (url.username || url.password) return false;
  const help = new URL(rule.helpCenter);
  if (url.origin === help.origin && (url.pathname === help.pathname || url.pathname.startsWith(`${help.pathname}/`))) return true;
  return rule.origins.includes(url.origin);
}

/** The passage numbers cited as `[n]` (1-based), in order of first citation. */
export function citedNumbers(text: string): number[] {
  const seen: number[] = [];
  for (const [, digits] of text.matchAll(/\[(\d{1,2})\]/g)) {
    const number = Number(digits);
    if (!seen.includes(number)) seen.push(number);
  }
  return seen;
}

/** The model's text made safe to show as text. */
export function cleanModelText(text: string, rule: LinkRule): string {
  const cleaned = text
    .replace(/!\[[^\]]*\]\([^)]*\)/g, "") // Markdown images, whole
    .replace(/!\[[^\]]*\]\[[^\]]*\]/g, "")
    .replace(/<[^>]*>/g, "") // HTML tags; their text stays
    .replace(/\[([^\]]*)\]\(\s*<?([^)\s>]*)>?(?:\s+"[^"]*")?\s*\)/g, (_match, label: string, url: string) => (allowed(url, rule) ? `${label} (${url})` : label))
    .replace(/\b[a-z][a-z0-9+.-]*:\/\/[^\s<>()"']+/gi, (url: string) => {
      const trimmed = url.replace(/[.,;:!?]+$/, "");
      return allowed(trimmed, rule) ? url : `${REMOVED}${url.slice(trimmed.length)}`;
    })
    .replace(/\s*\[\d{1,2}\]/g, "")
    .replace(/[ \t]+\n/g, "\n")
    .replace(/\n{3,}/g, "\n\n")
    .replace(/[ \t]{2,}/g, " ")
    .trim();
  return cleaned.length <= MAX_MODEL_ANSWER ? cleaned : `${cleaned.slice(0, MAX_MODEL_ANSWER - 1).trimEnd()}…`;
}
