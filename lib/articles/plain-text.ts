import type { RootContent } from "mdast";
import { fromMarkdown } from "mdast-util-from-markdown";
import { toString } from "mdast-util-to-string";

// An article's Markdown as plain text, block by block (a heading, a paragraph, a list item): the
// widget's excerpts and the bot's passages quote text, never Markdown syntax or HTML.

function blocks(nodes: RootContent[]): string[] {
  return nodes.flatMap((node) => {
    if (node.type === "list" || node.type === "listItem" || node.type === "blockquote") return blocks(node.children as RootContent[]);
    const text = toString(node, { includeImageAlt: false }).replace(/\s+/g, " ").trim();
    return text ? [text] : [];
  });
}

export interface TextBlock {
  text: string;
  heading: boolean;
}

/** The article's blocks as plain text, in order; headings marked. */
export function textBlocks(markdown: string): TextBlock[] {
  const root = fromMarkdown(markdown);
  return root.children.flatMap((node) => blocks([node]).map((text) => ({ text, heading: node.type === "heading" })));
}

/** The first `max` characters of the article's text, cut at a word with an ellipsis. */
export function excerpt(markdown: string, max: number): string {
  const text = textBlocks(markdown).map((block) => block.text).join(" ");
  if (text.length <= max) return text;
  const cut = text.slice(0, max - 1);
  const space = cut.lastIndexOf(" ");
  return `${(space > max / 2 ? cut.slice(0, space) : cut).trimEnd()}…`;
}
