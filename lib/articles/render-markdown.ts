import type { Element, ElementContent, Root as HastRoot, RootContent } from "hast";
import { sanitize, type Schema } from "hast-util-sanitize";
import { toHtml } from "hast-util-to-html";
import type { Root as MdastRoot, RootContent as MdastContent } from "mdast";
import { fromMarkdown } from "mdast-util-from-markdown";
import { toHast } from "mdast-util-to-hast";

// The one Markdown renderer of every rendered article (help pages, the widget, bot answers' source
// pages, the inbox preview): CommonMark parsed by mdast-util-from-markdown (micromark), turned into
// HTML by mdast-util-to-hast and hast-util-to-html, and cleaned by hast-util-sanitize with the
// allowlist below (docs/answers.md says why these). Raw HTML in the Markdown is never HTML: it is
// shown as the text it is. Links keep only absolute http(s) and mailto URLs, images only absolute
// https ones; one URL check for both (threats.md: markdown images skipped the links' check).

const LINK_PROTOCOLS = new Set(["http:", "https:", "mailto:"]);
const IMAGE_PROTOCOLS = new Set(["https:"]);

/** What an article may hold: paragraphs, ##/### headings, lists, links, emphasis, code, https images. */
const SCHEMA: Schema = {
  tagNames: ["p", "h2", "h3", "ul", "ol", "li", "a", "em", "strong", "code", "pre", "img", "br", "blockquote", "hr"],
  attributes: { a: ["href"], img: ["src", "alt", "title"], ol: ["start"] },
  protocols: { href: ["http", "https", "mailto"], src: ["https"] },
  strip: ["script", "style"],
  allowComments: false,
  allowDoctypes: false,
};

/** An absolute URL with one of these protocols, else null (relative and protocol-relative URLs too). */
function allowedUrl(value: unknown, protocols: Set<string>): string | null {
  if (typeof value !== "string") return null;
  try {
    const url = new URL(value);
    return protocols.has(url.protocol) ? url.href : null;
  } catch {
    return null;
  }
}

/**
 * Raw HTML in the Markdown, block or inline, becomes its own text; headings take the two levels an
 * article has under its title (# → ##, #### and below → ###).
 */
function prepare(nodes: MdastContent[]): void {
  for (const [index, node] of nodes.entries()) {
    if (node.type === "html") nodes[index] = { type: "text", value: node.value };
    else if (node.type === "heading") node.depth = node.depth === 1 ? 2 : node.depth > 3 ? 3 : node.depth;
    if ("children" in node) prepare(node.children as MdastContent[]);
  }
}

/** Links and images whose URL fails the check lose it: a link keeps its text, an image its alt. */
function tidy(nodes: (RootContent | ElementContent)[]): ElementContent[] {
  return nodes.flatMap((node): ElementContent[] => {
    if (node.type !== "element") return node.type === "text" ? [node] : [];
    const element: Element = { ...node, children: tidy(node.children) };
    if (element.tagName === "a") {
      const href = allowedUrl(element.properties.href, LINK_PROTOCOLS);
      if (!href) return element.children;
      element.properties = { href, rel: ["nofollow", "noopener", "noreferrer"] };
    } else if (element.tagName === "img") {
      const src = allowedUrl(element.properties.src, IMAGE_PROTOCOLS);
      const alt = typeof element.properties.alt === "string" ? element.properties.alt : "";
      if (!src) return alt ? [{ type: "text", value: alt }] : [];
      element.properties = { ...element.properties, src, alt, loading: "lazy", referrerPolicy: "no-referrer" };
    }
    return [element];
  });
}

/** Article Markdown as safe HTML. */
export function renderMarkdown(markdown: string): string {
  const mdast: MdastRoot = fromMarkdown(markdown);
  prepare(mdast.children);
  const clean = sanitize(toHast(mdast), SCHEMA) as HastRoot;
  return toHtml({ type: "root", children: tidy(clean.children) });
}
