// Message text as DOM nodes, never as HTML: links (http and https only), **bold**, *italic* or
// _italic_, `code`; line breaks are kept by white-space: pre-wrap. Every piece of text is a Text
// node, so nothing in a message can become markup. (No look-behind in the pattern: older Safari
// cannot parse it, and one syntax error would cost the whole panel.)

const TOKEN = /\bhttps?:\/\/[^\s<>"]+|`([^`\n]+)`|\*\*(?=\S)([^*\n]*?\S)\*\*|\*(?=[^\s*])([^*\n]*?[^\s*])\*(?![\w*])|_(?=[^\s_])([^_\n]*?[^\s_])_(?![\w_])/gi;

export function renderText(text: string, into: HTMLElement): HTMLElement {
  let from = 0;
  for (const match of text.matchAll(TOKEN)) {
    const at = match.index;
    let whole = match[0];
    let node: Node;
    if (match[1] !== undefined) {
      node = document.createElement("code");
      node.textContent = match[1];
    } else if (match[2] !== undefined || match[3] !== undefined || match[4] !== undefined) {
      // *x* and _x_ only at a word's start (snake_case and 2*3*4 stay as they are)
      if (match[2] === undefined && at > 0 && /[\w*_]/.test(text[at - 1]!)) continue;
      node = renderText(match[2] ?? match[3] ?? match[4] ?? "", document.createElement(match[2] !== undefined ? "strong" : "em"));
    } else {
      whole = whole.replace(/[.,;:!?'")\]}*_]+$/, "");
      const link = document.createElement("a");
      link.textContent = whole;
      link.href = whole;
      link.target = "_blank";
      link.rel = "noopener noreferrer nofollow";
      node = link;
    }
    into.append(text.slice(from, at), node);
    from = at + whole.length;
  }
  into.append(text.slice(from));
  return into;
}
