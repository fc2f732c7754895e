// Every email Parley sends is built here: a plain-text part always, and a small HTML part in
// which every piece of user text is escaped. Subjects are single lines.

export interface EmailContent {
  subject: string;
  text: string;
  html: string;
}

export interface Quote {
  author: string;
  body: string;
  /** Files sent with the message: named with their sizes, never linked (decisions.md "Files in chat"). */
  files?: { name: string; bytes: number }[];
}

/** "invoice.pdf (2.1 MB)": a file as an email lists it. */
export function fileLine({ name, bytes }: { name: string; bytes: number }): string {
  const size = bytes < 1000 ? `${bytes} B` : bytes < 1_000_000 ? `${(bytes / 1000).toFixed(1)} kB` : `${(bytes / 1_000_000).toFixed(1)} MB`;
  return `${name} (${size})`;
}

const quoteLines = (quote: Quote) => [
  ...(quote.body === "" ? [] : quote.body.split("\n")),
  ...(quote.files ?? []).map((file) => `[file] ${fileLine(file)}`),
];

export interface EmailLayout {
  subject: string;
  /** The site's name, at the top of every email. */
  siteName: string;
  intro: string;
  quotes?: Quote[];
  link?: { label: string; url: string };
  footer?: string;
  /** The one-click unsubscribe of an automatic email (links/unsubscribe-links.ts `siteUnsubscribe`). */
  unsubscribeUrl?: string;
  /** One-click rating links (lib/email/links/rating-links.ts), for an email about a closed conversation. */
  ratingLinks?: { score: number; url: string }[];
}

const RATING_LABELS = ["1 (bad)", "2", "3", "4", "5 (great)"];

const ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };
export const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (character) => ESCAPES[character]!);

// A header line may not carry line breaks (header injection); long subjects are shortened. Input
// refuses them in every single-line field (lib/core/validation/strings.ts); this also covers rows stored
// before that and other controls: CR, LF, NEL and the rest of Cc, U+2028 and U+2029 become a space.
// Encoded-word look-alikes are left as text here and encoded when sent (transport.ts `subjectHeader`).
export const subjectLine = (text: string) => text.replace(/[\p{Cc}\p{Zl}\p{Zp}]+/gu, " ").trim().slice(0, 200);

const unsubscribeLabel = (siteName: string) => `Unsubscribe from automatic emails from ${siteName}`;

const paragraph = (text: string) => `<p style="margin:0 0 12px">${escapeHtml(text).replace(/\n/g, "<br>")}</p>`;

export function renderEmail(layout: EmailLayout): EmailContent {
  const quotes = layout.quotes ?? [];
  const text = [
    layout.siteName,
    "",
    layout.intro,
    ...quotes.flatMap((quote) => ["", `${quote.author}:`, ...quoteLines(quote).map((line) => `> ${line}`)]),
    ...(layout.link ? ["", `${layout.link.label}: ${layout.link.url}`] : []),
    ...(layout.ratingLinks ? ["", "How did we do?", ...layout.ratingLinks.map((link) => `${RATING_LABELS[link.score - 1]}: ${link.url}`)] : []),
    ...(layout.footer ? ["", "--", layout.footer] : []),
    ...(layout.unsubscribeUrl ? ["", `${unsubscribeLabel(layout.siteName)}: ${layout.unsubscribeUrl}`] : []),
  ].join("\n");

  const html = [
    `<!doctype html><html><body style="font-family:system-ui,sans-serif;font-size:15px;color:#1f2328;max-width:560px">`,
    `<p style="margin:0 0 16px;font-weight:600">${escapeHtml(layout.siteName)}</p>`,
    paragraph(layout.intro),
    ...quotes.map(
      (quote) =>
        `<blockquote style="margin:0 0 12px;padding:8px 12px;border-left:3px solid #d0d7de">` +
        `<strong>${escapeHtml(quote.author)}</strong><br>${quoteLines(quote).map(escapeHtml).join("<br>")}</blockquote>`,
    ),
    layout.link ? `<p><a href="${escapeHtml(layout.link.url)}">${escapeHtml(layout.link.label)}</a></p>` : "",
    layout.ratingLinks
      ? `<p>How did we do? ${layout.ratingLinks.map((link) => `<a href="${escapeHtml(link.url)}" style="padding:0 6px">${escapeHtml(RATING_LABELS[link.score - 1]!)}</a>`).join(" ")}</p>`
      : "",
    layout.footer ? `<p style="color:#656d76;font-size:13px">${escapeHtml(layout.footer)}</p>` : "",
    layout.unsubscribeUrl
      ? `<p style="color:#656d76;font-size:13px"><a href="${escapeHtml(layout.unsubscribeUrl)}">${escapeHtml(unsubscribeLabel(layout.siteName))}</a></p>`
      : "",
    `</body></html>`,
  ].join("\n");

  return { subject: subjectLine(layout.subject), text, html };
}
