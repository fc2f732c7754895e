// Message text as DOM nodes, never as HTML: links (http and https only), **bold**, *italic* or
// _italic_, `code`; line breaks are kept by white-space: pre-wrap. Every piece of text is a Text
// node, so nothing in a message can become markup. (No look-behind in the pattern: older Safari
// cannot parse it, and one syntax error would cost the whole panel.)

const TOKEN = /\bhttps?:\/\/[^\s<>"]+|`([^`\n]+)`|\*\*(?=\S)([^*\n]*?\S)\*\*|\*(?=[^\s*])([^*\n]*?[^\s*])\*(?![\w*])|_(?=[^\s_])([^_\n]*?[^\s_])_(?![\w_])/gi;

export function renderText(text: string, into: HTMLElement): HTMLElement {
  let from = 0;
  for (const m of text.matchAll(TOKEN)) {
    const at = m.index;
    let whole = m[0];
    let node: Node;
    if (m[1] !== undefined) {
      node = document.createElement("code");
      node.textContent = m[1];
    } else if (m[2] !== undefined || m[3] !== undefined || m[4] !== undefined) {
      // *x* and _x_ only at a word's start (snake_case and 2*3*4 stay as they are)
      if (m[2] === undefined && at > 0 && /[\w*_]/.test(text[at - 1]!)) continue;
      node = renderText(m[2] ?? m[3] ?? m[4] ?? "", document.createElement(m[2] !== undefined ? "strong" : "em"));
    } else {
      whole = whole.replace(/[.,;:!?'")\]}*_]+$/, "");
      const a = document.createElement("a");
      a.textContent = whole;
      a.href = whole;
      a.target = "_blank";
      a.rel = "noopener noreferrer nofollow";
      node = a;
    }
    into.append(text.slice(from, at), node);
    from = at + whole.length;
  }
  into.append(text.slice(from));
  return into;
}
