// An article's body_html into the panel. The service renders it through its one sanitizer
// (lib/articles/render-markdown.ts); the widget checks it again against the same allowlist before
// it enters the customer's page, so a bug or a compromised proxy on the way cannot run anything:
// parsed in an inert <template> (no script runs, no image loads), every element outside the list
// becomes its text, every attribute outside the list goes, links only http(s)/mailto, images https.

const ELEMENTS = new Set(["P", "H2", "H3", "UL", "OL", "LI", "A", "EM", "STRONG", "CODE", "PRE", "IMG", "BR", "BLOCKQUOTE", "HR"]);
const ATTRIBUTES = new Set(["href", "src", "alt", "title"]);

export function fillArticle(target: HTMLElement, html: string): void {
  const template = document.createElement("template");
  template.innerHTML = html;
  for (const el of Array.from(template.content.querySelectorAll("*"))) {
    if (!ELEMENTS.has(el.tagName)) {
      el.replaceWith(el.tagName === "SCRIPT" || el.tagName === "STYLE" ? "" : el.textContent || "");
      continue;
    }
    for (const { name } of Array.from(el.attributes)) if (!ATTRIBUTES.has(name)) el.removeAttribute(name);
    const href = el.getAttribute("href");
    if (href !== null) {
      if (el.tagName !== "A" || !/^(https?:\/\/|mailto:)/i.test(href)) el.removeAttribute("href");
      else {
        el.setAttribute("target", "_blank");
        el.setAttribute("rel", "nofollow noopener noreferrer");
      }
    }
    if (el.tagName === "IMG") {
      const src = el.getAttribute("src");
      if (!src || !/^https:\/\//i.test(src)) {
        el.replaceWith(el.getAttribute("alt") || "");
        continue;
      }
      el.setAttribute("loading", "lazy");
      el.setAttribute("referrerpolicy", "no-referrer");
    } else el.removeAttribute("src");
  }
  target.replaceChildren(template.content);
}
